// Chaos load (issue 14): many sessions against one loopback server that answers at random with
// a reset, a stall (never answers), a drip (one byte every 50 ms), 429, 500, 503 or a good JSON
// answer. Each session runs one turn calling a GET tool (retried) and a POST tool (never retried)
// under a 1 s deadline, and is closed (every third one 300 ms in, calls in flight). Reports calls, tool errors by code, the sockets and other
// handles left once every session is closed (leaks), and peak RSS.
//   npm run build && node --expose-gc bench/load/chaos.mjs [--sessions 600] [--concurrency 100]
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { connectionPools, createSession, loadTools } from '../../dist/index.js';
import { ScriptedModel } from '../../dist/testing.js';

const { values } = parseArgs({
  options: {
    sessions: { type: 'string', default: '600' },
    concurrency: { type: 'string', default: '100' },
  },
});
const SESSIONS = Number(values.sessions);
const CONCURRENCY = Number(values.concurrency);

const MODES = ['ok', 'ok', 'reset', 'stall', 'drip', '429', '500', '503'];
const served = {};
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const mode = MODES[Math.floor(Math.random() * MODES.length)];
    served[mode] = (served[mode] ?? 0) + 1;
    switch (mode) {
      case 'reset':
        req.socket.destroy();
        break;
      case 'stall':
        break;
      case 'drip': {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '64' });
        const timer = setInterval(() => {
          if (res.destroyed) clearInterval(timer);
          else res.write(' ');
        }, 50);
        res.on('close', () => clearInterval(timer));
        break;
      }
      case '429':
      case '500':
      case '503':
        res.writeHead(Number(mode), { 'content-type': 'application/json', 'retry-after': '0' });
        res.end('{"error":"no"}');
        break;
      default:
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    }
  });
});
const serverSockets = new Set();
server.on('connection', (s) => {
  serverSockets.add(s);
  s.on('close', () => serverSockets.delete(s));
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${server.address().port}`;
const tool = (name, method) => ({
  type: 'endpoint',
  service: 'chaos',
  tool: {
    type: 'function',
    function: { name, parameters: { type: 'object', properties: { q: { type: 'string' } } } },
  },
  endpoint: { url: `${origin}/v1/${name}`, method, timeout: 1 },
});
const tools = await loadTools([tool('read', 'get'), tool('write', 'post')]);
const services = {
  chaos: { auth: { type: 'bearer', token: 'tok-Chaos-1a2b3c4d' }, origins: [origin] },
};

const handles = () => {
  const out = {};
  for (const r of process.getActiveResourcesInfo()) out[r] = (out[r] ?? 0) + 1;
  return out;
};
const before = handles();
let peakRss = process.memoryUsage().rss;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 50);

let calls = 0;
const errors = {};
let turnFailures = 0;
async function one(i) {
  const model = new ScriptedModel([
    {
      tool_calls: [
        { name: 'read', args: { q: String(i) } },
        { name: 'write', args: { q: String(i) } },
      ],
    },
    { text: 'done' },
  ]);
  const session = createSession({ tools, model, services });
  // Every third session is closed 300 ms in, with its calls in flight.
  const early = i % 3 === 0 ? setTimeout(() => void session.close(), 300) : undefined;
  try {
    const result = await session.run('go');
    for (const t of result.traces) {
      calls++;
      const code = t.isError ? t.errorCode : 'ok';
      errors[code] = (errors[code] ?? 0) + 1;
    }
  } catch {
    turnFailures++;
  } finally {
    clearTimeout(early);
    await session.close();
  }
}
const started = performance.now();
let next = 0;
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    while (next < SESSIONS) await one(next++);
  }),
);
const seconds = (performance.now() - started) / 1000;
// Sessions are closed; the shared pool's idle keep-alive sockets are not leaks, so close it.
await connectionPools.closeAll();
await new Promise((r) => setTimeout(r, 100));
global.gc?.();
clearInterval(sampler);
const after = handles();
const leaks = Object.fromEntries(
  Object.entries(after)
    .map(([k, v]) => [k, v - (before[k] ?? 0)])
    .filter(([, v]) => v > 0),
);
const report = {
  sessions: SESSIONS,
  concurrency: CONCURRENCY,
  seconds: Number(seconds.toFixed(1)),
  calls,
  outcomes: errors,
  turnFailures,
  served,
  leaksAfterClose: leaks,
  serverSocketsOpenAfterClose: serverSockets.size,
  peakRssMb: Number((peakRss / 2 ** 20).toFixed(1)),
};
console.log(JSON.stringify(report, null, 2));
for (const s of serverSockets) s.destroy();
server.close();
