// Session-level benchmark (docs/benchmarks.md): N concurrent sessions, each turn a scripted model
// call that asks for one `post` endpoint tool, the endpoint call to a loopback server in a child
// process answering after a fixed 20 ms (bench/load/upstream.mjs), then the model's answer; versus
// bare undici making the same HTTP calls (same body, same concurrency, same pacing) from this
// process with the same undici. Pacing: an offered rate (--rate, default 1,000 turns/s in all:
// each session starts a turn every N/rate s, latency counted from the scheduled start), and a
// saturation run (--saturate N: closed loop without pause, as many turns as the CPU allows).
//
// The bare side uses undici's `dispatch` handler API with a fresh Agent (the leanest undici path:
// no body stream per call; the engine uses it too) and parses the JSON answer, which is what an
// application needs at least. Engine and bare phases alternate (bare first, then engine, and the
// reverse), so both see the same machine; ratios are per pair, the median is reported.
//
// Reported per N: turns/s and the ratio to bare, CPU per turn (process.cpuUsage over the phase ÷
// turns; includes GC and undici), turn latency p50/p99, event-loop delay p99
// (monitorEventLoopDelay sampling every 1 ms for the whole phase), file descriptors per live
// session (/proc/self/fd entries minus the baseline minus the shared pool's connected sockets) and
// heap per live session (measured in one more engine phase of its own, with gc() before and after:
// a forced full GC right before a timed phase put its aftermath, concurrent sweeping and a shrunken
// young generation, into that phase's CPU, the more so the larger the heap). Timed phases start
// after a short pause, so what the previous phase left running ends outside them. Then an fd check with 5,000 sessions, and turn 1,000 of
// long sessions versus turn 10 of fresh sessions measured alongside (engine time per turn = turn
// time − the endpoint call's time; the same sessions' turn 10 from the start is printed too).
//
// Bounded: every phase is a fixed number of turns; loopback only. Selection:
//   node bench/run.mjs turn-http                      # N = 100 and 1000, fd check, long sessions
//   node --expose-gc bench/turn-http.bench.mjs --sessions 1000 --only engine \
//     --cpu-prof-out engine.cpuprofile                 # one side, profiled during the phase only
//     [--cpu-prof-interval 250]                        #   sampling interval in µs
//   (or --heap-prof-out engine.heapprofile: every allocation sampled, collected ones included, or
//   with --heap-prof-promoted only what outlived the young generation;
//   bench/investigate/heap-profile-top.mjs sums it per function; --burst 5000 with --only
//   profiles the burst)
// Options (or env): --sessions (TURN_HTTP_SESSIONS, "100,1000"; "0" skips the paced runs), --rate (TURN_HTTP_RATE, 1000;
// 0 = no pause), --saturate (TURN_HTTP_SATURATE, "1000"; "0" skips), --turns (turns per session
// per phase; default about 5 s of the offered rate, or 10,000/N (at least 10) when saturating), --pairs (TURN_HTTP_PAIRS, 3), --fd-sessions
// (TURN_HTTP_FD_SESSIONS, 5000; 0 skips), --long-sessions (TURN_HTTP_LONG_SESSIONS, 20; 0 skips),
// --long-turns (1000), --burst (TURN_HTTP_BURST, "5000"; "0" skips: a closed loop against bare
// undici capped at the engine's connections per origin), --only engine|bare (skips the comparison, fd
// check and long run).
import { readdirSync, readFileSync } from 'node:fs';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Agent } from 'undici';
import {
  connectionPools,
  createSession,
  DEFAULT_CONNECTIONS_PER_ORIGIN,
  loadTools,
} from '../dist/index.js';
import { ScriptedModel } from '../dist/testing.js';
import { dispatchJson } from './bare-dispatch.mjs';
import { busyUs } from './cpu-profile-time.mjs';
import {
  checkOrderTurn,
  ORDER_TEXT,
  orderDefinition,
  orderPlaced,
  orderRequest,
  orderScript,
  pacer,
  startUpstream,
} from './order-tool.mjs';

const { values } = parseArgs({
  options: {
    sessions: { type: 'string', default: process.env.TURN_HTTP_SESSIONS ?? '100,1000' },
    turns: { type: 'string' },
    pairs: { type: 'string', default: process.env.TURN_HTTP_PAIRS ?? '3' },
    'fd-sessions': { type: 'string', default: process.env.TURN_HTTP_FD_SESSIONS ?? '5000' },
    'long-sessions': { type: 'string', default: process.env.TURN_HTTP_LONG_SESSIONS ?? '20' },
    'long-turns': { type: 'string', default: '1000' },
    only: { type: 'string' },
    'cpu-prof-out': { type: 'string' },
    'heap-prof-promoted': { type: 'boolean', default: false },
    'cpu-prof-interval': { type: 'string', default: '250' },
    'heap-prof-out': { type: 'string' },
    latency: { type: 'string', default: '20' },
    rate: { type: 'string', default: process.env.TURN_HTTP_RATE ?? '1000' },
    saturate: { type: 'string', default: process.env.TURN_HTTP_SATURATE ?? '1000' },
    burst: { type: 'string', default: process.env.TURN_HTTP_BURST ?? '5000' },
  },
});
const bound = (name, text, min, max) => {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new Error(`--${name} must be an integer in ${min}..${max}`);
  return n;
};
const sizes = values.sessions
  .split(',')
  .filter((x) => x !== '' && x !== '0')
  .map((s) => bound('sessions', s, 1, 10_000));
const pairs = bound('pairs', values.pairs, 1, 5);
const fdSessions = bound('fd-sessions', values['fd-sessions'], 0, 10_000);
const longSessions = bound('long-sessions', values['long-sessions'], 0, 100);
const longTurns = bound('long-turns', values['long-turns'], 20, 2000);
const rate = bound('rate', values.rate, 0, 100_000);
const saturateAt = values.saturate
  .split(',')
  .filter((x) => x !== '' && x !== '0')
  .map((x) => bound('saturate', x, 1, 10_000));
// Burst: a closed loop at N = 5,000 (each session sends its next turn as soon as the last ends),
// the bare side's Agent capped at the engine's default connections per origin, so both queue on
// the same number of sockets (docs/handlers.md).
const burstAt = values.burst
  .split(',')
  .filter((x) => x !== '' && x !== '0')
  .map((x) => bound('burst', x, 1, 20_000));
const only = values.only;
if (only !== undefined && only !== 'engine' && only !== 'bare')
  throw new Error('--only must be engine or bare');

// --- upstream: a child process, fixed latency ------------------------------------------------
const { upstream, origin } = await startUpstream(values.latency);

// --- engine side -----------------------------------------------------------------------------
const tools = await loadTools([orderDefinition(origin)]);
// One script shared by every session (a session only keeps its position in it).
const scripts = new Map();
// A sub-millisecond clock, so a trace's duration can be subtracted from a turn's time.
const now = () => performance.timeOrigin + performance.now();
const newSession = (turns) => {
  let steps = scripts.get(turns);
  if (steps === undefined) scripts.set(turns, (steps = orderScript(turns)));
  return createSession({ tools, model: new ScriptedModel(steps), _internal: { now } });
};

async function engineLoop(session, turns, latencies, pace) {
  for (let t = 0; t < turns; t++) {
    const started = pace === undefined ? performance.now() : await pace.next();
    checkOrderTurn(await session.run(ORDER_TEXT));
    latencies.push(performance.now() - started);
  }
}

// --- bare side: undici dispatch, the same POST, JSON parsed ------------------------------------
let bareAgent = new Agent();
const ORDER = orderRequest(origin);
const bareCall = () => dispatchJson(bareAgent, ORDER, orderPlaced);
async function bareLoop(turns, latencies, pace) {
  for (let t = 0; t < turns; t++) {
    const started = await pace.next();
    await bareCall();
    latencies.push(performance.now() - started);
  }
}

// --- measuring ---------------------------------------------------------------------------------
const fdCount = () => readdirSync('/proc/self/fd').length;
// CPU ticks (user, system) from /proc/self/task (Linux only; 10 ms ticks): the main thread, and
// the others together (V8's helpers: parallel scavenge, concurrent marking, compiler; libuv's).
function threadTicks() {
  const out = { main: [0, 0], other: [0, 0] };
  let tasks;
  try {
    tasks = readdirSync('/proc/self/task');
  } catch {
    return undefined;
  }
  for (const tid of tasks) {
    let stat;
    try {
      stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    } catch {
      continue; // the thread ended
    }
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const kind = tid === String(process.pid) ? 'main' : 'other';
    out[kind][0] += Number(fields[11]);
    out[kind][1] += Number(fields[12]);
  }
  return out;
}
const ticksSince = (a, b) =>
  a === undefined || b === undefined
    ? undefined
    : Object.fromEntries(Object.keys(a).map((k) => [k, [b[k][0] - a[k][0], b[k][1] - a[k][1]]]));
// Not with --only (a profiling run): a forced full GC would count in the profile's GC share.
const gc = () => {
  if (only !== undefined) return;
  global.gc?.();
  global.gc?.();
};
function pct(xs, p) {
  if (xs.length === 0) return NaN;
  const s = Float64Array.from(xs).sort();
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}
const median = (xs) => pct(xs, 50);
/** Connected sockets of an undici Agent (all origins). */
function socketsOf(agent) {
  let n = 0;
  for (const s of Object.values(agent.stats ?? {})) n += s.connected ?? 0;
  return n;
}
function sharedSockets() {
  // The engine's default pool: the shared Agent for the default policy (docs/handlers.md).
  const pool = connectionPools.poolFor({ policy: {}, maxHeaderBytes: 16 * 1024 });
  return socketsOf(pool.dispatcher);
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs one side with n concurrent loops of `turns` each; returns its figures. With `heap`, the
 * heap per live session is measured (gc() before and after); otherwise it is not, and the phase
 * starts after a pause instead.
 */
async function phase(side, n, turns, rate, heap = false) {
  if (!scripts.has(turns)) scripts.set(turns, orderScript(turns));
  if (heap) gc();
  else await pause(500);
  const heap0 = process.memoryUsage().heapUsed;
  const fd0 = fdCount();
  const sockets0 = side === 'engine' ? sharedSockets() : socketsOf(bareAgent);
  const sessions = side === 'engine' ? Array.from({ length: n }, () => newSession(turns)) : [];
  const latencies = [];
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  const cpu0 = process.cpuUsage();
  const ticks0 = threadTicks();
  const t0 = performance.now();
  // Connected sockets, sampled every 50 ms: the most the phase had open at once.
  const socketsNow = () => (side === 'engine' ? sharedSockets() : socketsOf(bareAgent));
  let maxSockets = socketsNow();
  const sampler = setInterval(() => (maxSockets = Math.max(maxSockets, socketsNow())), 50);
  await Promise.all(
    Array.from({ length: n }, (_, i) =>
      side === 'engine'
        ? engineLoop(sessions[i], turns, latencies, pacer(i, n, rate))
        : bareLoop(turns, latencies, pacer(i, n, rate)),
    ),
  );
  const wallMs = performance.now() - t0;
  clearInterval(sampler);
  const cpu = process.cpuUsage(cpu0);
  const ticks = ticksSince(ticks0, threadTicks());
  loop.disable();
  const total = n * turns;
  // Per live session: the sessions are still referenced here (each holding `turns` turns).
  const fds = fdCount();
  const sockets = side === 'engine' ? sharedSockets() : socketsOf(bareAgent);
  if (heap) gc();
  const heap1 = process.memoryUsage().heapUsed;
  const out = {
    side,
    n,
    rate,
    turns: total,
    perSec: total / (wallMs / 1000),
    cpuUsPerTurn: (cpu.user + cpu.system) / total,
    userUsPerTurn: cpu.user / total,
    systemUsPerTurn: cpu.system / total,
    // Clock ticks are 10 ms on Linux: µs per turn by thread kind, user + system.
    threads:
      ticks === undefined
        ? undefined
        : Object.fromEntries(
            Object.entries(ticks).map(([k, [u, sy]]) => [
              k,
              [(u * 1e4) / total, (sy * 1e4) / total],
            ]),
          ),
    p50: median(latencies),
    p99: pct(latencies, 99),
    loopP99: loop.percentile(99) / 1e6,
    heapPerSession: side === 'engine' && heap ? (heap1 - heap0) / n : NaN,
    fdsPerSession: side === 'engine' ? (fds - fd0 - (sockets - sockets0)) / n : NaN,
    sockets,
    maxSockets: Math.max(maxSockets, sockets),
  };
  sessions.length = 0;
  return out;
}

const f1 = (x) => (Number.isFinite(x) ? x.toFixed(1) : '-');
const f2 = (x) => (Number.isFinite(x) ? x.toFixed(2) : '-');
function show(r) {
  console.log(
    `  ${r.side.padEnd(6)} N=${r.n}: ${r.perSec.toFixed(0)} turns/s, CPU ${r.cpuUsPerTurn.toFixed(0)} µs/turn ` +
      `(user ${r.userUsPerTurn.toFixed(0)}, system ${r.systemUsPerTurn.toFixed(0)}` +
      (r.threads === undefined
        ? ''
        : `; main thread ${r.threads.main.map((x) => x.toFixed(0)).join('+')}, other threads ${r.threads.other.map((x) => x.toFixed(0)).join('+')}`) +
      `), ` +
      `p50 ${f1(r.p50)} ms, p99 ${f1(r.p99)} ms, loop p99 ${f2(r.loopP99)} ms` +
      (r.side === 'engine'
        ? `${Number.isFinite(r.heapPerSession) ? `, heap ${f1(r.heapPerSession / 1024)} KiB/session` : ''}, fds ${f2(r.fdsPerSession)}/session (pool sockets ${r.sockets})`
        : `, sockets ${r.sockets}`),
  );
}

// Paced: about 5 s per phase at the offered rate; saturated: 5,000 turns per phase.
const turnsFor = (n, rate) =>
  values.turns !== undefined
    ? bound('turns', values.turns, 1, 2000)
    : Math.max(rate === 0 ? 10 : 5, Math.ceil(rate === 0 ? 10_000 / n : (5 * rate) / n));

/**
 * Engine and bare phases, alternating order per pair; medians and per-pair ratios. `cap`: the bare
 * Agent's connections per origin (the engine's are always capped at its default).
 */
async function compare(n, rate, cap = undefined) {
  const turns = turnsFor(n, rate);
  await bareAgent.close();
  bareAgent = cap === undefined ? new Agent() : new Agent({ connections: cap });
  console.log(
    `\nN = ${n} sessions × ${turns} turns per phase, ${rate === 0 ? 'closed loop without pause (saturation)' : `offered ${rate} turns/s (a turn every ${(n / rate).toFixed(2)} s per session)`}, upstream ${values.latency} ms`,
  );
  // One untimed phase per side first, as the timed ones run: both pools open to this concurrency
  // (no phase pays for connecting), and the code this pacing runs (timers, session set-up) is
  // optimized before anything is timed. Measured, a steady state, as a long-running server is.
  await phase('bare', n, turns, rate);
  await phase('engine', n, turns, rate);
  const ratios = { perSec: [], cpu: [] };
  const rows = { engine: [], bare: [] };
  const maxSockets = { engine: 0, bare: 0 };
  for (let p = 0; p < pairs; p++) {
    const order = p % 2 === 0 ? ['bare', 'engine'] : ['engine', 'bare'];
    const got = {};
    for (const side of order) {
      got[side] = await phase(side, n, turns, rate);
      show(got[side]);
      maxSockets[side] = Math.max(maxSockets[side], got[side].maxSockets);
      rows[side].push(got[side]);
    }
    ratios.perSec.push(got.engine.perSec / got.bare.perSec);
    ratios.cpu.push(got.engine.cpuUsPerTurn / got.bare.cpuUsPerTurn);
  }
  // Heap per live session: one more engine phase, untimed, with gc() before and after.
  const heapPerSession = (await phase('engine', n, turns, rate, true)).heapPerSession;
  // A fresh bare Agent for the next comparison, as the engine's shared pool keeps its sockets.
  await bareAgent.close();
  bareAgent = new Agent();
  const m = (side, key) => median(rows[side].map((r) => r[key]));
  return {
    n,
    rate,
    cap,
    maxSockets,
    throughputRatio: median(ratios.perSec),
    cpuRatio: median(ratios.cpu),
    engine: {
      perSec: m('engine', 'perSec'),
      cpu: m('engine', 'cpuUsPerTurn'),
      p50: m('engine', 'p50'),
      p99: m('engine', 'p99'),
      loopP99: m('engine', 'loopP99'),
      heap: heapPerSession,
      fds: m('engine', 'fdsPerSession'),
    },
    bare: {
      perSec: m('bare', 'perSec'),
      cpu: m('bare', 'cpuUsPerTurn'),
      p50: m('bare', 'p50'),
      p99: m('bare', 'p99'),
      loopP99: m('bare', 'loopP99'),
    },
  };
}

// Warm-up: the JIT and both pools. A function that runs once per turn is optimized only after
// tens of thousands of turns; with 2,000 turns of warm-up the timed phases still ran much of the
// engine unoptimized and compiled it (on other threads) while timed. 20,000 turns per side.
// Code that runs once per session (createSession, the session's constructor) was still compiled
// during the first timed N = 1,000 phases, after some 2,000 sessions: 4,000 more sessions of two
// turns each, paced at 5,000 turns/s (about 100 in flight, so the pool stays small). A server
// pays that compile once; the timed phases measure the steady state.
await phase('bare', 50, 400, 0);
await phase('engine', 50, 400, 0);
for (let k = 0; k < 4; k++) await phase('engine', 1000, 2, 5000);

if (only !== undefined) {
  // --cpu-prof-out: a CPU profile of the measured phases only (no start-up, no warm-up), for
  // bench/cpu-profile-top.mjs.
  const out = values['cpu-prof-out'];
  // Untimed first, as in a comparison: the profile is of the steady state. Paced sizes, then the
  // burst's (closed loop, the bare side's Agent capped as in the comparison).
  const runs = [
    ...sizes.map((n) => ({ n, pace: rate })),
    ...burstAt.map((n) => ({ n, pace: 0, cap: DEFAULT_CONNECTIONS_PER_ORIGIN })),
  ];
  for (const { n, pace, cap } of runs) {
    if (only === 'bare' && cap !== undefined) {
      await bareAgent.close();
      bareAgent = new Agent({ connections: cap });
    }
    await phase(only, n, turnsFor(n, pace), pace);
  }
  const { Session } = await import('node:inspector/promises');
  const heapOut = values['heap-prof-out'];
  const inspector = out === undefined && heapOut === undefined ? undefined : new Session();
  inspector?.connect();
  if (out !== undefined) {
    await inspector.post('Profiler.enable');
    await inspector.post('Profiler.setSamplingInterval', {
      interval: bound('cpu-prof-interval', values['cpu-prof-interval'], 10, 10_000),
    });
    await inspector.post('Profiler.start');
  }
  // Allocations, not what is alive: samples of objects a scavenge or a full GC collected are kept.
  if (heapOut !== undefined)
    await inspector.post('HeapProfiler.startSampling', {
      samplingInterval: 1024,
      includeObjectsCollectedByMajorGC: true,
      // --heap-prof-promoted: only what survived the young generation (promoted, or still young
      // and alive at the end): what the scavenger copied.
      includeObjectsCollectedByMinorGC: values['heap-prof-promoted'] !== true,
    });
  let turns = 0;
  // Main-thread CPU of the measured phases (µs), to say how much of it the profile's samples saw.
  let mainUs = 0;
  // For a sampler outside the process (bench/perf-gc-share.mjs attaches `perf` on this line).
  console.log(`measured phase starts (pid ${process.pid})`);
  for (const { n, pace } of runs) {
    const r = await phase(only, n, turnsFor(n, pace), pace);
    turns += r.turns;
    if (r.threads !== undefined) mainUs += (r.threads.main[0] + r.threads.main[1]) * r.turns;
    show(r);
  }
  if (out !== undefined) {
    const { profile } = await inspector.post('Profiler.stop');
    (await import('node:fs')).writeFileSync(out, JSON.stringify(profile));
    console.log(`CPU profile of the measured phase: ${out}`);
    // The profile's busy time against the main thread's CPU time: on the project's machine the
    // busy samples covered a fifth of it, and a share read off such a profile is not a share of
    // the CPU (docs/benchmarks.md, "fifteenth round").
    const busy = busyUs(profile);
    if (mainUs > 0)
      console.log(
        `  the profile's busy samples cover ${(busy / 1000).toFixed(0)} ms of the main thread's ` +
          `${(mainUs / 1000).toFixed(0)} ms of CPU (${((busy / mainUs) * 100).toFixed(0)}%)`,
      );
  }
  if (heapOut !== undefined) {
    const { profile } = await inspector.post('HeapProfiler.stopSampling');
    (await import('node:fs')).writeFileSync(heapOut, JSON.stringify({ turns, profile }));
    console.log(`allocation profile of the measured phase (${turns} turns): ${heapOut}`);
  }
} else {
  const summary = [];
  for (const n of sizes) summary.push(await compare(n, rate));
  for (const n of saturateAt) summary.push(await compare(n, 0));
  for (const n of burstAt) summary.push(await compare(n, 0, DEFAULT_CONNECTIONS_PER_ORIGIN));
  for (const r of summary) {
    if (r.cap !== undefined) {
      console.log(
        `\nN=${r.n}, burst: closed loop, bare undici capped at ${r.cap} connections like the engine (median of ${pairs} pairs): ` +
          `throughput engine ${r.engine.perSec.toFixed(0)} vs bare ${r.bare.perSec.toFixed(0)} turns/s → ${(r.throughputRatio * 100).toFixed(1)}% (target ≥ 85%) ${r.throughputRatio >= 0.85 ? 'OK' : 'MISSED'}`,
      );
      console.log(
        `  CPU per turn engine ${r.engine.cpu.toFixed(0)} µs vs bare ${r.bare.cpu.toFixed(0)} µs → ${r.cpuRatio.toFixed(2)}× (target ≤ 1.6×) ${r.cpuRatio <= 1.6 ? 'OK' : 'MISSED'}; ` +
          `sockets at most engine ${r.maxSockets.engine}, bare ${r.maxSockets.bare} (cap ${r.cap}) ${r.maxSockets.engine <= r.cap ? 'OK' : 'MISSED'}`,
      );
      console.log(
        `  latency p50/p99 engine ${f1(r.engine.p50)}/${f1(r.engine.p99)} ms, bare ${f1(r.bare.p50)}/${f1(r.bare.p99)} ms`,
      );
      continue;
    }
    const label = r.rate === 0 ? 'saturation (no pause)' : `offered ${r.rate} turns/s`;
    console.log(
      `\nN=${r.n}, ${label} (median of ${pairs} pairs): throughput engine ${r.engine.perSec.toFixed(0)} vs bare ${r.bare.perSec.toFixed(0)} turns/s → ` +
        `${(r.throughputRatio * 100).toFixed(1)}% (target ≥ 85% at N=1000)${r.n === 1000 ? (r.throughputRatio >= 0.85 ? ' OK' : ' MISSED') : ''}`,
    );
    console.log(
      `  CPU per turn engine ${r.engine.cpu.toFixed(0)} µs vs bare ${r.bare.cpu.toFixed(0)} µs → ${r.cpuRatio.toFixed(2)}× (target ≤ 1.5×) ${r.cpuRatio <= 1.5 ? 'OK' : 'MISSED'}`,
    );
    console.log(
      `  latency p50/p99 engine ${f1(r.engine.p50)}/${f1(r.engine.p99)} ms, bare ${f1(r.bare.p50)}/${f1(r.bare.p99)} ms; ` +
        `loop delay p99 engine ${f2(r.engine.loopP99)} ms, bare ${f2(r.bare.loopP99)} ms`,
    );
    console.log(
      `  per live session: heap ${f1(r.engine.heap / 1024)} KiB, fds ${f2(r.engine.fds)} beyond the shared pool's sockets`,
    );
  }
}

// --- fd check: many live sessions --------------------------------------------------------------
if (only === undefined && fdSessions > 0) {
  gc();
  const fd0 = fdCount();
  const sockets0 = sharedSockets();
  const live = Array.from({ length: fdSessions }, () => newSession(2));
  const t0 = performance.now();
  // Every session runs two turns at once: the shared pool opens what the concurrency needs.
  await Promise.all(live.map((s) => engineLoop(s, 2, [], undefined)));
  const wall = performance.now() - t0;
  const fds = fdCount();
  const sockets = sharedSockets();
  const beyond = fds - fd0 - (sockets - sockets0);
  console.log(
    `\nfd check: ${fdSessions} live sessions × 2 turns in ${(wall / 1000).toFixed(1)} s: fds +${fds - fd0}, ` +
      `shared pool sockets ${sockets0} → ${sockets}; beyond the pool ${beyond} (${(beyond / fdSessions).toFixed(3)} per session) ` +
      `${beyond <= 0 ? 'OK' : 'MISSED'}`,
  );
  live.length = 0;
}

// --- turn 1,000 versus turn 10 ------------------------------------------------------------------
if (only === undefined && longSessions > 0) {
  const sessions = Array.from({ length: longSessions }, () => newSession(longTurns));
  // The measured windows (turns 5–15 and the last 11) run one session's turn at a time, so no
  // turn waits behind another session's work; the turns between run all sessions at once.
  // Engine time of a turn = its time minus its endpoint call's time; CPU = process.cpuUsage().
  // One turn of `session`: engine time (turn time − its endpoint call's time) and CPU.
  const timeTurn = async (session) => {
    const c0 = process.cpuUsage();
    const started = now();
    const r = await session.run('place my order');
    const total = now() - started;
    const c = process.cpuUsage(c0);
    const trace = r.traces[0];
    if (trace === undefined || trace.isError === true) throw new Error('long run: turn failed');
    return { engine: total - trace.duration_secs * 1000, cpu: c.user + c.system };
  };
  // `rounds` turns of every session in `groups`, one session's turn at a time, the groups
  // alternating turn by turn (so they are measured under the same conditions).
  const measure = async (groups, rounds) => {
    const out = groups.map(() => ({ engine: [], cpu: 0 }));
    for (let t = 0; t < rounds; t++)
      for (let i = 0; i < groups[0].length; i++)
        for (let g = 0; g < groups.length; g++) {
          const x = await timeTurn(groups[g][i]);
          out[g].engine.push(x.engine);
          out[g].cpu += x.cpu;
        }
    return out.map((o) => ({ engine: median(o.engine), cpu: o.cpu / (rounds * groups[0].length) }));
  };
  const run = (list, turns) =>
    Promise.all(
      list.map(async (session) => {
        for (let t = 0; t < turns; t++) await session.run('place my order');
      }),
    );
  const t0 = performance.now();
  await run(sessions, 4);
  const [early] = await measure([sessions], 11);
  await run(sessions, longTurns - 11 - 15);
  // Control: fresh sessions' turns 5–15, measured turn by turn alternating with the long sessions'
  // last turns. Comparing with the same sessions' turns 5–15 from 30 s earlier also compares two
  // states of the process (JIT tiers, heap, pooled connections left by the phases before), which
  // moved that ratio between 0.72× and 1.28× with no per-turn cost growing (docs/benchmarks.md).
  const fresh = Array.from({ length: longSessions }, () => newSession(longTurns));
  await run(fresh, 4);
  const [late, control] = await measure([sessions, fresh], 11);
  const ratio = late.engine / control.engine;
  const us = (x) => (x * 1000).toFixed(0);
  console.log(
    `\nlong sessions: ${longSessions} sessions × ${longTurns} turns in ${((performance.now() - t0) / 1000).toFixed(1)} s; ` +
      `engine time per turn (turn − endpoint call, median): turns ${longTurns - 10}–${longTurns} ${us(late.engine)} µs ` +
      `vs fresh sessions' turns 5–15 measured alongside ${us(control.engine)} µs → ${ratio.toFixed(2)}× (target within 10%) ` +
      `${ratio <= 1.1 ? 'OK' : 'MISSED'}; the same sessions' turns 5–15 at the start: ${us(early.engine)} µs ` +
      `(${(late.engine / early.engine).toFixed(2)}×); CPU per turn (whole turn, mean) ${early.cpu.toFixed(0)} at the start, ` +
      `${late.cpu.toFixed(0)} late, ${control.cpu.toFixed(0)} fresh`,
  );
  gc();
}

console.log(
  `\nload average: ${(await import('node:os'))
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')} (figures are noisy on a busy machine)`,
);
await bareAgent.close();
await connectionPools.closeAll();
upstream.disconnect();
