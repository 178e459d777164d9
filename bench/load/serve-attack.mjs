// Attack on `createAgentServer` (issue 43 items 6–8): N clients that send their headers and then
// trickle their body one byte a second, a real request while they hold the server, the time until
// the server has closed them all, 50 requests aborted 50 ms in (model calls they cause), the
// event loop's worst delay, and close() with one trickling client. Defaults of the server limits
// unless --request-timeout is given.
//   npm run build && node bench/load/serve-attack.mjs [--clients 500] [--request-timeout 30000]
import { connect } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { loadTools } from '../../dist/index.js';
import { createAgentServer } from '../../dist/entries/serve.js';

const { values } = parseArgs({
  options: { clients: { type: 'string', default: '500' }, 'request-timeout': { type: 'string' } },
});
const N = Number(values.clients);
const requestTimeoutMs =
  values['request-timeout'] === undefined ? undefined : Number(values['request-timeout']);
const limits =
  requestTimeoutMs === undefined
    ? {}
    : { requestTimeoutMs, headersTimeoutMs: Math.min(10_000, requestTimeoutMs) };

const note = { type: 'function', function: { name: 'note', parameters: { type: 'object' } } };
const tools = await loadTools([{ type: 'log', tool: note }]);
let modelCalls = 0;
let modelAborts = 0;
/** Answers after 200 ms unless its request is aborted first. */
const model = {
  name: 'slow',
  async *stream(request) {
    modelCalls++;
    await new Promise((resolve, reject) => {
      const timer = setTimeout(resolve, 200);
      request.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        modelAborts++;
        reject(new Error('aborted'));
      });
    });
    yield { type: 'text-delta', text: 'ok' };
    yield { type: 'finish' };
  },
};
const agent = createAgentServer({ tools, model, ...limits });
const { port } = await agent.listen();
const url = `http://127.0.0.1:${port}/run_agent`;
let drops = 0;
agent.server.on('drop', () => drops++);
const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const request = (signal) =>
  fetch(url, {
    method: 'POST',
    body: '{"prompt":"x"}',
    headers: { 'content-type': 'application/json' },
    signal,
  });

const started = Date.now();
const closedAt = [];
for (let i = 0; i < N; i++) {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  let drip;
  socket.on('close', () => {
    clearInterval(drip);
    closedAt.push(Date.now() - started);
  });
  socket.on('connect', () => {
    socket.write(
      'POST /run_agent HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n' +
        'content-length: 1000\r\n\r\n{',
    );
    // One byte a second after the headers (started before them, it would spoil the request).
    drip = setInterval(() => socket.writable && socket.write(' '), 1000);
  });
}
await sleep(1500);
const during = await request().then(
  (r) => r.status,
  (e) => `refused (${e.cause?.code ?? e.message})`,
);
console.log({ at: '1.5 s', held: N - closedAt.length, drops, realRequest: during });
delay.reset(); // the connect burst above is the attacker's cost; measure the hold
while (closedAt.length < N) await sleep(200);
const after = await request().then((r) => r.status);

// 50 requests, aborted by their clients once every run is at the model.
const before = modelCalls;
const clients = Array.from({ length: 50 }, () => new AbortController());
const answers = clients.map((c) => request(c.signal).catch(() => undefined));
while (modelCalls - before < 50) await sleep(5);
for (const c of clients) c.abort();
await Promise.all(answers);
while (agent.inFlight > 0) await sleep(10);
await sleep(300); // a second model call, if any, would start within a round trip
console.log({
  allClosedMs: Math.max(...closedAt),
  realRequestAfter: after,
  modelCallsFor50Aborted: modelCalls - before,
  modelCallsAborted: modelAborts,
  loopDelayMaxMs: Math.round(delay.max / 1e6),
  loopDelayP99Ms: Math.round(delay.percentile(99) / 1e6),
});

const trickler = connect(port, '127.0.0.1');
trickler.on('error', () => undefined);
trickler.write('POST /run_agent HTTP/1.1\r\nhost: x\r\ncontent-length: 50\r\n\r\n{');
while (agent.inFlight === 0) await sleep(10);
const closing = Date.now();
await agent.close();
console.log({ closeWithOneTricklerMs: Date.now() - closing });
process.exit(0);
