// Realtime attack (issue 43, items 5 and 15): a hostile Realtime server on loopback floods one
// attached session with events, phase by phase, each on a fresh call: response.created without
// done, function calls without done, one response with a huge number of calls or of transcript,
// a repeated response id, and a call id replayed in later responses. Reports per phase what the
// session kept (RSS and heap growth after GC, with the attachment still open), the longest event
// loop block, what the host was told, and crashes (uncaught errors, unhandled rejections). The
// server runs in a child process, so the figures are the attacked process's alone.
//   npm run build && node --expose-gc bench/load/realtime-storm.mjs [--n 100000] [--phase <part of a name>]
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { WebSocketServer } from 'ws';
import { loadTools } from '../../dist/index.js';
import { attachRealtime, connectRealtime } from '../../dist/entries/realtime.js';

const { values } = parseArgs({
  options: {
    n: { type: 'string', default: '100000' },
    phase: { type: 'string', default: '' },
    serve: { type: 'boolean' },
  },
});
const N = Number(values.n);
if (values.serve) await serve();

let crashes = 0;
process.on('uncaughtException', (e) => (crashes++, console.error('uncaught', e)));
process.on('unhandledRejection', (e) => (crashes++, console.error('unhandled', e)));

const tools = await loadTools([
  {
    type: 'log',
    tool: {
      type: 'function',
      function: {
        name: 'note',
        parameters: { type: 'object', properties: { t: { type: 'string' } } },
      },
    },
  },
  {
    type: 'action',
    tool: {
      type: 'function',
      function: {
        name: 'charge',
        parameters: { type: 'object', properties: { cents: { type: 'integer' } } },
      },
    },
  },
]);

const server = fork(new URL(import.meta.url), ['--serve', '--n', String(N)]);
const [[url, PHASE_NAMES]] = await once(server, 'message');
const rows = [];
for (const name of PHASE_NAMES.filter((p) => p.includes(values.phase))) {
  const connection = await connectRealtime({ url });
  const codes = new Map();
  const counts = { turns: 0, logs: 0, charges: 0, modelErrors: 0 };
  const attachment = attachRealtime({
    connection,
    onServerError: (e) => codes.set(e.code, (codes.get(e.code) ?? 0) + 1),
    session: {
      tools,
      actions: { charge: () => (counts.charges++, { ok: true }) },
      onEvent: (e) => {
        if (e.type === 'turn-end') counts.turns++;
        if (e.type === 'log') counts.logs++;
        if (e.type === 'model-error') counts.modelErrors++;
      },
    },
  });
  await attachment.ready;
  // Events handled in one turn of the event loop, at most (the work one loop block holds).
  let inTurn = 0;
  let maxInTurn = 0;
  connection.on('event', () => {
    if (inTurn++ === 0)
      setImmediate(() => ((maxInTurn = Math.max(maxInTurn, inTurn)), (inTurn = 0)));
  });
  const end = new Promise((resolve) =>
    connection.on('event', (e) => e.type === 'storm.end' && resolve()),
  );
  global.gc();
  const before = process.memoryUsage();
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  const started = performance.now();
  server.send(name);
  await end;
  await new Promise((r) => setTimeout(r, 200)); // turns started by the storm settle
  const ms = performance.now() - started;
  loop.disable();
  global.gc();
  const after = process.memoryUsage();
  rows.push({
    phase: name,
    ms: Math.round(ms),
    'max loop block ms': Math.round(loop.max / 1e6),
    'max events per loop turn': maxInTurn,
    'RSS +MB': ((after.rss - before.rss) / 2 ** 20).toFixed(1),
    'heap +MB': ((after.heapUsed - before.heapUsed) / 2 ** 20).toFixed(1),
    'turns ended': counts.turns,
    'notes run': counts.logs,
    'charges run': counts.charges,
    'model errors': counts.modelErrors,
    reported: [...codes].map(([c, k]) => `${c}×${k}`).join(' '),
  });
  await attachment.close();
  connection.close();
}
console.table(rows);
console.log(`N = ${N}; crashes (uncaught errors, unhandled rejections): ${crashes}`);
server.kill();
process.exit(crashes === 0 ? 0 : 1);

/** The hostile server (child process): plays one phase per message from the parent. */
async function serve() {
  // The hostile server: plays a script per phase; answers switchboard's own response.create with an
  // empty completed response, echoing its metadata.
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((resolve) => wss.once('listening', resolve));
  let client;
  let ids = 0;
  wss.on('connection', (socket) => {
    client = socket;
    socket.on('message', (data) => {
      const event = JSON.parse(String(data));
      if (event.type !== 'response.create') return;
      const id = `resp_ours_${++ids}`;
      send({
        type: 'response.created',
        response: { id, metadata: event.response?.metadata ?? null },
      });
      send({ type: 'response.done', response: { id, status: 'completed', output: [] } });
    });
  });
  const send = (event) => client.send(JSON.stringify(event));
  const created = (id) => send({ type: 'response.created', response: { id, metadata: null } });
  const done = (id, output = []) =>
    send({ type: 'response.done', response: { id, status: 'completed', output } });
  const item = (callId, name, args) => ({
    type: 'function_call',
    call_id: callId,
    name,
    arguments: JSON.stringify(args),
  });
  const call = (responseId, callId, name, args) =>
    send({
      type: 'response.output_item.done',
      response_id: responseId,
      item: item(callId, name, args),
    });

  const PHASES = {
    'response.created without done': () => {
      for (let i = 0; i < N; i++) created(`resp_${i}`);
    },
    'a response with a call, without done': () => {
      for (let i = 0; i < N; i++)
        (created(`resp_${i}`), call(`resp_${i}`, `call_${i}`, 'note', { t: 'x' }));
    },
    'one response, N calls, no done': () => {
      created('resp_big');
      for (let i = 0; i < N; i++) call('resp_big', `call_${i}`, 'note', { t: 'x' });
    },
    'one response, N/5 KiB of transcript': () => {
      created('resp_long');
      const delta = 'x'.repeat(1024);
      for (let i = 0; i < N / 5; i++)
        send({ type: 'response.output_audio_transcript.delta', response_id: 'resp_long', delta });
    },
    'response id repeated N/10 times mid-turn': () => {
      created('resp_dup');
      call('resp_dup', 'call_note', 'note', { t: 'once' });
      for (let i = 0; i < N / 10; i++) created('resp_dup');
      done('resp_dup', [item('call_note', 'note', { t: 'once' })]);
    },
    'charge call id replayed in N/100 later responses at once': () => {
      for (let i = 0; i <= N / 100; i++) {
        created(`resp_${i}`);
        call(`resp_${i}`, 'call_pay', 'charge', { cents: 500 });
        done(`resp_${i}`, [item('call_pay', 'charge', { cents: 500 })]);
      }
    },
    // Paced so that every replay reaches a turn of its own (none refused for lack of room).
    'charge call id replayed in N/100 later responses, paced': async () => {
      for (let i = 0; i <= N / 100; i++) {
        created(`resp_${i}`);
        call(`resp_${i}`, 'call_pay', 'charge', { cents: 500 });
        done(`resp_${i}`, [item('call_pay', 'charge', { cents: 500 })]);
        await new Promise((r) => setTimeout(r, 1));
      }
    },
  };

  process.on('message', async (phase) => {
    await PHASES[phase]();
    send({ type: 'storm.end' });
  });
  process.send([`ws://127.0.0.1:${wss.address().port}`, Object.keys(PHASES)]);

  await new Promise(() => undefined);
}
