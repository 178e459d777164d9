// Load harness engine worker: one process holding sessions, driven over IPC by main.mjs. Each
// message runs one turn of one session (created, kept live, or resumed from the shared store) and
// answers with its timings; `stats` answers event-loop delay, memory and handles.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import {
  createSession,
  InMemorySessionStore,
  loadTools,
  resumeSession,
  StaleSessionError,
  warmUp,
} from '../../dist/index.js';
import { RedisSessionStore } from '../../dist/entries/redis.js';
import { orderDefinition } from '../order-tool.mjs';

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    store: { type: 'string', default: 'memory' },
    'redis-url': { type: 'string' },
    'key-prefix': { type: 'string', default: 'load:' },
    'model-latency': { type: 'string', default: '0' },
    'lease-ttl': { type: 'string', default: '2000' },
    ephemeral: { type: 'boolean', default: false },
    'warm-up': { type: 'string', default: '0' },
  },
});
const modelLatency = Number(values['model-latency']);
const base = `http://127.0.0.1:${values.port}`;
const tools = await loadTools([
  orderDefinition(base, 'place_order', '/orders'),
  orderDefinition(base, 'place_order_slow', '/slow'),
]);
const store =
  values.store === 'redis'
    ? await RedisSessionStore.connect({
        url: values['redis-url'],
        keyPrefix: values['key-prefix'],
        leaseTtlMs: Number(values['lease-ttl']),
      })
    : new InMemorySessionStore();

/**
 * A stateless model: after a user message it calls the session's order tool with a ref unique to
 * (session, user message number); after the tool result it answers. Its own time is measured.
 */
function loadModel(slow, clock) {
  return {
    name: 'load',
    async *stream(request) {
      const started = performance.now();
      if (modelLatency > 0) await new Promise((r) => setTimeout(r, modelLatency));
      const messages = request.messages;
      const last = messages[messages.length - 1];
      const session = request.messages.length > 0 ? clock.session : '';
      if (last?.role === 'user') {
        let n = 0;
        for (const m of messages) if (m.role === 'user') n++;
        const ref = `${session}-${n}`;
        clock.modelMs += performance.now() - started;
        yield {
          type: 'tool-call',
          call: {
            id: `call_${ref}`,
            name: slow ? 'place_order_slow' : 'place_order',
            arguments: JSON.stringify({ ref }),
          },
        };
      } else {
        clock.modelMs += performance.now() - started;
        yield { type: 'text-delta', text: 'Your order is placed.' };
      }
      yield { type: 'finish', usage: { inputTokens: 10, outputTokens: 5 } };
    },
  };
}

const live = new Map();
const clocks = new Map();
// Sampled every 1 ms for the whole run: at the default 10 ms each sample includes the 10 ms
// timer period itself, so an idle loop would already read ~10 ms.
const loop = monitorEventLoopDelay({ resolution: 1 });
loop.enable();
global.gc?.();
let baseline = process.memoryUsage();
// The worker's CPU (user + system) and turns run since start: CPU per turn is what bounds its
// throughput, and the ratio between two stores at the same load is their throughput ratio.
let cpu0 = process.cpuUsage();
let turnsRun = 0;

async function open(id, slow) {
  let session = live.get(id);
  if (session !== undefined) return session;
  const clock = { session: id, modelMs: 0 };
  const options = { tools, model: loadModel(slow, clock), store, id };
  session = (await resumeSession(id, options)) ?? createSession(options);
  clocks.set(session, clock);
  if (!values.ephemeral) live.set(id, session);
  return session;
}

// Turns of one session wait for each other here, so that time (the caller's pacing against a slow
// upstream, not engine work) is reported as queueMs and kept out of the engine overhead.
const busy = new Map();
function turn(message) {
  const arrived = performance.now();
  const previous = busy.get(message.id) ?? Promise.resolve();
  const next = previous.then(() => runTurn(message, performance.now() - arrived));
  const settled = next.catch(() => undefined);
  busy.set(message.id, settled);
  settled.then(() => {
    if (busy.get(message.id) === settled) busy.delete(message.id);
  });
  return next;
}

async function runTurn({ id, slow, text }, queueMs) {
  const started = performance.now();
  let session = await open(id, slow);
  let result;
  try {
    result = await session.run(text);
  } catch (err) {
    // A copy kept here is stale when another worker ran a turn of this session: reload once.
    if (!(err instanceof StaleSessionError)) throw err;
    live.delete(id);
    await session.close();
    session = await open(id, slow);
    result = await session.run(text);
  }
  const totalMs = performance.now() - started;
  turnsRun++;
  const clock = clocks.get(session);
  const modelMs = clock.modelMs;
  clock.modelMs = 0;
  let toolMs = 0;
  const toolErrors = [];
  for (const t of result.traces) {
    toolMs += t.duration_secs * 1000;
    if (t.isError) toolErrors.push(t.errorCode);
  }
  if (values.ephemeral) await session.close();
  return {
    totalMs,
    modelMs,
    toolMs,
    overheadMs: totalMs - modelMs - toolMs,
    toolErrors,
    turns: result.state.turns,
  };
}

function stats() {
  const cpu = process.cpuUsage(cpu0);
  global.gc?.();
  const mem = process.memoryUsage();
  const resources = {};
  for (const r of process.getActiveResourcesInfo()) resources[r] = (resources[r] ?? 0) + 1;
  return {
    loopP99Ms: loop.percentile(99) / 1e6,
    loopMaxMs: loop.max / 1e6,
    liveSessions: live.size,
    cpuUsPerTurn: turnsRun === 0 ? 0 : (cpu.user + cpu.system) / turnsRun,
    heapPerSessionBytes: live.size === 0 ? 0 : (mem.heapUsed - baseline.heapUsed) / live.size,
    rssPerSessionBytes: live.size === 0 ? 0 : (mem.rss - baseline.rss) / live.size,
    heapUsedMb: mem.heapUsed / 2 ** 20,
    rssMb: mem.rss / 2 ** 20,
    resources,
  };
}

process.on('message', (message) => {
  switch (message.type) {
    case 'turn':
      turn(message).then(
        (r) => process.send({ type: 'done', seq: message.seq, ok: true, ...r }),
        (err) =>
          process.send({
            type: 'done',
            seq: message.seq,
            ok: false,
            kind: err?.code ?? err?.name ?? 'Error',
            message: String(err?.message ?? err).slice(0, 200),
          }),
      );
      break;
    case 'stats':
      process.send({ type: 'stats', ...stats() });
      break;
    case 'close':
      Promise.all([...live.values()].map((s) => s.close())).then(async () => {
        live.clear();
        await new Promise((r) => setTimeout(r, 50));
        const after = stats();
        await store.close?.();
        process.send({ type: 'closed', resources: after.resources });
      });
      break;
  }
});
// As a host would before taking traffic (docs/session.md, "The first turn: warmUp"): the turn's code
// run and optimized in this process, so turn 1 of the first sessions does not run it cold.
const warmUpTurns = Number(values['warm-up']);
const warmed = warmUpTurns > 0 ? await warmUp({ turns: warmUpTurns }) : undefined;
if (warmed !== undefined) {
  // The run's figures start after it: its CPU, heap and loop delay are start-up's, not a turn's.
  global.gc?.();
  baseline = process.memoryUsage();
  cpu0 = process.cpuUsage();
  loop.reset();
}
process.send({ type: 'ready', warmUpMs: warmed?.ms ?? 0 });
