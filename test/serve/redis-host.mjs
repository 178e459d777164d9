// A host serving agents with its sessions on Redis, as docs/sessions-redis.md's "Shutting down"
// says to: on SIGTERM stop taking requests, let those in flight answer, then close the store; the
// process must then exit on its own. Built package (dist/). Argument: the Redis URL. Stdout:
// `listening <port>`, then `model` for each model call; a line `release` on stdin lets the held
// model answer.
import { createInterface } from 'node:readline';
import { loadTools } from '../../dist/index.js';
import { RedisSessionStore } from '../../dist/entries/redis.js';
import { createAgentServer } from '../../dist/entries/serve.js';

let release;
const released = new Promise((r) => (release = r));
const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  if (line === 'release') release();
});
const model = {
  name: 'held',
  async *stream() {
    process.stdout.write('model\n');
    await released;
    yield { type: 'text-delta', text: 'answered' };
    yield { type: 'finish' };
  },
};
const store = await RedisSessionStore.connect({ url: process.argv[2], keyPrefix: 'host:' });
const tools = await loadTools([
  {
    type: 'log',
    tool: {
      type: 'function',
      function: {
        name: 'note',
        description: 'Notes.',
        parameters: { type: 'object', properties: {} },
      },
    },
  },
]);
const agent = createAgentServer({ tools, model, store, onError: () => undefined });
const { port } = await agent.listen();
process.stdout.write(`listening ${port}\n`);
process.once('SIGTERM', () => {
  void agent.close().then(() => {
    lines.close();
    process.stdin.destroy();
    return store.close();
  });
});
