import { loadTools, warmUp } from 'switchboard';

const tools = await loadTools('tools.yaml');
await warmUp(); // { turns: 2000, ms: … }: 1–2 s on a busy 2-core machine
server.listen(port);

export {};
