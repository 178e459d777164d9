// `npm run load`: the switchboard load harness (docs/load.md). Starts an upstream server in a
// child process, a Redis when the store is redis (or uses REDIS_URL), and 1..N engine worker
// processes; drives N sessions at voice cadence on a fixed schedule (latency counts from the
// scheduled time, so a slow engine cannot slow the load down); prints a table and writes JSON.
import { fork } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createClient } from 'redis';
import { RedisSessionStore } from '../../dist/entries/redis.js';
import { startRedisServer } from './redis-server.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    sessions: { type: 'string', default: '1000' },
    duration: { type: 'string', default: '60' },
    interval: { type: 'string', default: '3' },
    workers: { type: 'string', default: '1' },
    store: { type: 'string', default: 'memory' },
    latency: { type: 'string', default: '20' },
    'slow-latency': { type: 'string', default: '10000' },
    'slow-share': { type: 'string', default: '0' },
    'fault-rate': { type: 'string', default: '0' },
    'model-latency': { type: 'string', default: '0' },
    'kill-worker': { type: 'boolean', default: false },
    'warm-up': { type: 'string', default: '0' },
    route: { type: 'string' },
    out: { type: 'string', default: 'load-report.json' },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  console.log(`npm run load -- [--sessions 1000] [--duration 60] [--interval 3] [--workers 1]
  [--store memory|redis] [--latency 20] [--slow-share 0.33] [--slow-latency 10000]
  [--fault-rate 0] [--model-latency 0] [--kill-worker] [--route sticky|random] [--warm-up 0]
  [--out file]`);
  process.exit(0);
}
const sessions = bounded('sessions', 1, 20_000);
const durationS = bounded('duration', 1, 600);
const intervalS = Number(values.interval);
const workerCount = bounded('workers', 1, 16);
const slowShare = Number(values['slow-share']);
const route = values.route ?? 'sticky';
// Synthetic turns each worker runs with `warmUp` before it reports ready (0: a cold process).
const warmUpTurns = bounded('warm-up', 0, 100_000);
if (values.store === 'memory' && workerCount > 1) fail('--workers > 1 needs --store redis');
if (values['kill-worker'] && workerCount < 2) fail('--kill-worker needs --workers 2 or more');

function bounded(name, min, max) {
  const n = Number(values[name]);
  if (!Number.isInteger(n) || n < min || n > max)
    fail(`--${name} must be an integer in ${min}..${max}`);
  return n;
}
function fail(message) {
  console.error(`load: ${message}`);
  process.exit(2);
}

// --- processes ---------------------------------------------------------------------------------
const upstream = fork(join(here, 'upstream.mjs'), [
  '--latency',
  values.latency,
  '--slow-latency',
  values['slow-latency'],
  '--fault-rate',
  values['fault-rate'],
]);
const { port } = await once(upstream, 'ready');
let redis;
let redisUrl = process.env.REDIS_URL;
if (values.store === 'redis' && !redisUrl) {
  redis = await startRedisServer();
  redisUrl = redis.url;
}
const keyPrefix = `load:${Date.now()}:`;

/** Scripts Redis ran (EVALSHA + EVAL calls, from INFO commandstats): one round trip each. */
async function redisScriptCalls() {
  const client = createClient({ url: redisUrl });
  client.on('error', () => undefined);
  await client.connect();
  const info = await client.info('commandstats');
  await client.close();
  let calls = 0;
  for (const m of info.matchAll(/^cmdstat_(evalsha|eval):calls=(\d+)/gm)) calls += Number(m[2]);
  return calls;
}
const scriptCalls0 = values.store === 'redis' ? await redisScriptCalls() : 0;
const workers = [];
for (let i = 0; i < workerCount; i++) {
  const child = fork(
    join(here, 'worker.mjs'),
    [
      '--port',
      String(port),
      '--store',
      values.store,
      '--key-prefix',
      keyPrefix,
      '--model-latency',
      values['model-latency'],
      '--warm-up',
      String(warmUpTurns),
      ...(redisUrl ? ['--redis-url', redisUrl] : []),
      ...(route === 'random' ? ['--ephemeral'] : []),
    ],
    { execArgv: ['--expose-gc'] },
  );
  const w = { child, alive: true, pending: new Map(), index: i };
  child.on('message', (m) => {
    if (m.type === 'done') {
      const p = w.pending.get(m.seq);
      w.pending.delete(m.seq);
      p?.(m);
    }
  });
  child.on('error', () => undefined);
  child.on('exit', () => {
    w.alive = false;
    for (const [, resolve] of w.pending) resolve({ ok: false, kind: 'worker_killed' });
    w.pending.clear();
  });
  workers.push(w);
}
const readies = await Promise.all(workers.map((w) => once(w.child, 'ready')));
const warmUpMs = Math.max(...readies.map((m) => m.warmUpMs ?? 0));

function once(child, type) {
  return new Promise((resolve) => {
    const on = (m) => {
      if (m.type === type) {
        child.off('message', on);
        resolve(m);
      }
    };
    child.on('message', on);
  });
}

// --- schedule ----------------------------------------------------------------------------------
let seq = 0;
const records = [];
const owner = new Map(); // session → worker index (sticky routing)
const live = () => workers.filter((w) => w.alive && w.child.connected);
function pick(id, i) {
  const alive = live();
  if (route === 'random') return alive[Math.floor(Math.random() * alive.length)];
  let w = workers[owner.get(id) ?? i % workerCount];
  if (!w.alive || !w.child.connected) {
    w = alive[i % alive.length];
    owner.set(id, w.index);
  }
  return w;
}

const started = performance.now();
const endAt = started + durationS * 1000;
const spacing = (intervalS * 1000) / sessions;
const inflight = new Set();
let killedAt;
for (let i = 0; i < sessions; i++) {
  const id = `s${i}`;
  const slow = i < Math.round(sessions * slowShare);
  const first = started + i * spacing;
  let k = 0;
  const fire = () => {
    const scheduled = first + k * intervalS * 1000;
    if (scheduled >= endAt) return;
    k++;
    const w = pick(id, i);
    const mySeq = ++seq;
    const sent = performance.now();
    const p = new Promise((resolve) => {
      if (!w.child.connected) return resolve({ ok: false, kind: 'worker_killed' });
      w.pending.set(mySeq, resolve);
      w.child.send({ type: 'turn', seq: mySeq, id, slow, text: `turn ${k}` });
    }).then((m) => {
      records.push({
        id,
        slow,
        turn: k,
        worker: w.index,
        latencyMs: performance.now() - scheduled,
        lagMs: sent - scheduled,
        ...m,
      });
    });
    inflight.add(p);
    p.finally(() => inflight.delete(p));
    const next = first + k * intervalS * 1000;
    setTimeout(fire, Math.max(0, next - performance.now()));
  };
  setTimeout(fire, Math.max(0, first - performance.now()));
}
if (values['kill-worker']) {
  setTimeout(
    () => {
      killedAt = (performance.now() - started) / 1000;
      workers[0].alive = false;
      workers[0].child.kill('SIGKILL');
    },
    (durationS * 1000) / 2,
  );
}
await new Promise((r) => setTimeout(r, durationS * 1000 + 50));
while (inflight.size > 0) await Promise.race([...inflight]);
const wallS = (performance.now() - started) / 1000;

// --- collect -----------------------------------------------------------------------------------
// Before the verification pass, which reads every session back.
const scriptCalls = values.store === 'redis' ? (await redisScriptCalls()) - scriptCalls0 : 0;
const workerStats = await Promise.all(
  live().map(async (w) => {
    const p = once(w.child, 'stats');
    w.child.send({ type: 'stats' });
    const s = await p;
    const c = once(w.child, 'closed');
    w.child.send({ type: 'close' });
    return { worker: w.index, ...s, resourcesAfterClose: (await c).resources };
  }),
);
const up = await new Promise((resolve) => {
  upstream.once('message', resolve);
  upstream.send({ type: 'stats' });
});

let verification;
if (values.store === 'redis') {
  const store = await RedisSessionStore.connect({ url: redisUrl, keyPrefix });
  let missing = 0,
    answeredTwice = 0,
    unanswered = 0,
    outcomeUnknown = 0,
    invalid = 0;
  for (let i = 0; i < sessions; i++) {
    let state;
    try {
      state = await store.get(`s${i}`);
    } catch {
      invalid++;
      continue;
    }
    if (state === undefined) {
      if (records.some((r) => r.id === `s${i}` && r.ok)) missing++;
      continue;
    }
    const answers = new Map();
    for (const m of state.history)
      if (m.role === 'tool') answers.set(m.tool_call_id, (answers.get(m.tool_call_id) ?? 0) + 1);
    for (const m of state.history) {
      if (m.role !== 'assistant') continue;
      for (const c of m.tool_calls ?? []) {
        const n = answers.get(c.id) ?? 0;
        if (n === 0) unanswered++;
        if (n > 1) answeredTwice++;
      }
    }
    for (const m of state.history)
      if (m.role === 'tool' && m.content.includes('"outcome_unknown"')) outcomeUnknown++;
  }
  await store.close();
  // A session is lost when its last turn failed and no later turn succeeded.
  const lastOk = new Map();
  for (const r of records) if (r.ok) lastOk.set(r.id, Math.max(lastOk.get(r.id) ?? 0, r.turn));
  const lastTurn = new Map();
  for (const r of records) lastTurn.set(r.id, Math.max(lastTurn.get(r.id) ?? 0, r.turn));
  let lost = 0;
  for (const [id, t] of lastTurn) if ((lastOk.get(id) ?? 0) < t) lost++;
  verification = {
    sessionsLost: lost,
    statesMissing: missing,
    statesInvalid: invalid,
    callsAnsweredTwice: answeredTwice,
    callsUnanswered: unanswered,
    outcomeUnknownAnswers: outcomeUnknown,
  };
}

for (const w of workers) if (w.alive) w.child.disconnect();
upstream.disconnect();
await redis?.stop();

// --- report ------------------------------------------------------------------------------------
function pct(xs, p) {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
}
const ok = records.filter((r) => r.ok);
const errors = {};
for (const r of records) {
  if (!r.ok) errors[`turn:${r.kind}`] = (errors[`turn:${r.kind}`] ?? 0) + 1;
  for (const code of r.toolErrors ?? []) errors[`tool:${code}`] = (errors[`tool:${code}`] ?? 0) + 1;
}
const group = (rs) => ({
  turns: rs.length,
  overheadP50Ms: pct(
    rs.map((r) => r.overheadMs),
    50,
  ),
  overheadP99Ms: pct(
    rs.map((r) => r.overheadMs),
    99,
  ),
  latencyP50Ms: pct(
    rs.map((r) => r.latencyMs),
    50,
  ),
  latencyP99Ms: pct(
    rs.map((r) => r.latencyMs),
    99,
  ),
});
const byTurn = [];
for (const t of [1, 2, 3, 4, 5, 10, 20, 100, 250, 500].filter((t) =>
  ok.some((r) => r.turn === t),
)) {
  byTurn.push({ turn: t, ...group(ok.filter((r) => r.turn === t)) });
}
// Turn 1 against the steady state: the overhead p50 of turns 5 and later (turn 1 of every session
// falls in the worker's first interval; turns from 5 on after the process has run thousands).
const steadyP50Ms = pct(
  ok.filter((r) => r.turn >= 5).map((r) => r.overheadMs),
  50,
);
const turn1P50Ms = pct(
  ok.filter((r) => r.turn === 1).map((r) => r.overheadMs),
  50,
);
const report = {
  config: {
    sessions,
    durationS,
    intervalS,
    workers: workerCount,
    store: values.store,
    route,
    latencyMs: Number(values.latency),
    slowShare,
    slowLatencyMs: Number(values['slow-latency']),
    faultRate: Number(values['fault-rate']),
    modelLatencyMs: Number(values['model-latency']),
    killWorker: values['kill-worker'],
    killedAtS: killedAt ?? null,
    warmUpTurns,
  },
  warmUpMs,
  wallS,
  // Turns completed per second of the whole run (drain included): the throughput when the offered
  // rate (sessions ÷ interval) is above what the engine can do.
  turnsPerSec: ok.length / wallS,
  // Store scripts per turn (Redis): each is one round trip (EVALSHA, or EVAL on a script's first use).
  redisScriptsPerTurn:
    values.store === 'redis' && records.length > 0 ? scriptCalls / records.length : null,
  turnsScheduled: records.length,
  turnsOk: ok.length,
  successRate: records.length === 0 ? 0 : ok.length / records.length,
  overall: group(ok),
  fast: group(ok.filter((r) => !r.slow)),
  slow: group(ok.filter((r) => r.slow)),
  byTurn,
  steadyP50Ms,
  // None when the run has no turn 5 (too short) or no turn 1 (every session resumed).
  turn1OverSteady: turn1P50Ms === null || !steadyP50Ms ? null : turn1P50Ms / steadyP50Ms,
  errors,
  workers: workerStats,
  upstream: {
    requests: up.requests,
    distinctRefs: up.refs,
    dispatchedTwice: up.twice.length,
    twiceSample: up.twice.slice(0, 5),
  },
  ...(verification === undefined ? {} : { verification }),
};
writeFileSync(values.out, JSON.stringify(report, null, 2));

const f = (x) =>
  x === null || x === undefined
    ? '-'
    : typeof x === 'number'
      ? Number.isInteger(x)
        ? String(x)
        : x.toFixed(2)
      : String(x);
const rows = [
  ['sessions × workers', `${sessions} × ${workerCount} (${values.store}, ${route})`],
  [
    'turns ok / scheduled',
    `${ok.length} / ${records.length} (${(report.successRate * 100).toFixed(2)}%)`,
  ],
  ['turns/s completed (wall incl. drain)', f(report.turnsPerSec)],
  ...(report.redisScriptsPerTurn === null
    ? []
    : [['Redis round trips (scripts) per turn', f(report.redisScriptsPerTurn)]]),
  [
    'engine overhead p50 / p99 ms',
    `${f(report.overall.overheadP50Ms)} / ${f(report.overall.overheadP99Ms)}`,
  ],
  [
    'turn latency p50 / p99 ms',
    `${f(report.overall.latencyP50Ms)} / ${f(report.overall.latencyP99Ms)}`,
  ],
  ...(slowShare > 0
    ? [
        ['fast sessions latency p99 ms', f(report.fast.latencyP99Ms)],
        ['fast sessions overhead p99 ms', f(report.fast.overheadP99Ms)],
        ['slow sessions latency p50 ms', f(report.slow.latencyP50Ms)],
      ]
    : []),
  ...byTurn.map((b) => [
    `overhead p50 / p99 ms at turn ${b.turn}`,
    `${f(b.overheadP50Ms)} / ${f(b.overheadP99Ms)}`,
  ]),
  [
    'turn 1 p50 ÷ steady p50 (turns ≥ 5)',
    `${f(report.turn1OverSteady)} (${f(turn1P50Ms)} / ${f(steadyP50Ms)} ms; target ≤ 2)` +
      (warmUpTurns > 0
        ? `, after warmUp(${warmUpTurns}) in ${warmUpMs.toFixed(0)} ms`
        : ', cold process'),
  ],
  ...workerStats.map((w) => [
    `worker ${w.worker}: CPU µs per turn (GC, store client incl.)`,
    f(w.cpuUsPerTurn),
  ]),
  ...workerStats.map((w) => [
    `worker ${w.worker}: loop p99 ms, heap/RSS KiB per session`,
    `${f(w.loopP99Ms)}, ${f(w.heapPerSessionBytes / 1024)} / ${f(w.rssPerSessionBytes / 1024)} (${w.liveSessions} live)`,
  ]),
  ...workerStats.map((w) => [
    `worker ${w.worker}: handles in run → after close`,
    `${fmtRes(w.resources)} → ${fmtRes(w.resourcesAfterClose)}`,
  ]),
  [
    'errors',
    Object.keys(errors).length === 0
      ? 'none'
      : Object.entries(errors)
          .map(([k, v]) => `${k} ${v}`)
          .join(', '),
  ],
  ['upstream requests / dispatched twice', `${up.requests} / ${up.twice.length}`],
  ...(verification === undefined ? [] : Object.entries(verification).map(([k, v]) => [k, f(v)])),
];
function fmtRes(r) {
  return Object.entries(r)
    .map(([k, v]) => `${k} ${v}`)
    .join(' ');
}
const width = Math.max(...rows.map((r) => r[0].length));
for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`);
console.log(`\nJSON report: ${values.out}`);
process.exit(0);
