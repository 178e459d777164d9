// Diagnostic (not part of `npm run bench`): compares builds of the engine turn for turn, the way
// bench/turn-http.bench.mjs runs them (N paced sessions, each turn a scripted model call and a
// `post` endpoint call to a loopback server in a child process answering after 20 ms), in one
// process: the builds' phases alternate (A B B A A B …), so machine noise falls on all alike.
// Separate runs of the turn benchmark vary by 20–30% in CPU per turn on a shared machine, which
// hides the few per cent one change is worth; within one process the ratio between builds holds.
//
// Per build: median CPU per turn (process.cpuUsage ÷ turns) and main-thread GC pause per turn
// (PerformanceObserver `gc` entries), each phase's figures, and the ratio to the first build.
//   node bench/turn-ab.mjs                                   # this checkout's dist, alone
//   node bench/turn-ab.mjs --dists /old/dist,dist --rounds 4 --sessions 1000 --turns 10
import { resolve } from 'node:path';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { distList, positive } from './args.mjs';
import {
  checkOrderTurn,
  ORDER_TEXT,
  orderDefinition,
  orderScript,
  pacer,
  startUpstream,
} from './order-tool.mjs';

const { values } = parseArgs({
  options: {
    dists: { type: 'string', default: 'dist' },
    sessions: { type: 'string', default: '1000' },
    turns: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '4' },
    rate: { type: 'string', default: '1000' },
  },
});
const n = positive('sessions', values.sessions, 10_000);
const turns = positive('turns', values.turns, 1000);
const rounds = positive('rounds', values.rounds, 20);
const rate = positive('rate', values.rate, 100_000);
const dists = distList(values.dists);

const { upstream, origin } = await startUpstream(20);

const builds = [];
for (const dist of dists) {
  const url = (file) => pathToFileURL(resolve(dist, file)).href;
  const { createSession, loadTools } = await import(url('index.js'));
  const { ScriptedModel } = await import(url('testing.js'));
  const tools = await loadTools([orderDefinition(origin)]);
  const scripts = new Map();
  builds.push({
    dist,
    newSession: (length) => {
      let script = scripts.get(length);
      if (script === undefined) scripts.set(length, (script = orderScript(length)));
      return createSession({ tools, model: new ScriptedModel(script) });
    },
    phases: [],
  });
}

let gcMs = 0;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gcMs += e.duration;
}).observe({ entryTypes: ['gc'] });

/** One paced phase of `build`: n sessions × `turns` turns; CPU and GC per turn. */
async function phase(build, sessions, perSession) {
  await new Promise((ok) => setTimeout(ok, 300));
  const live = Array.from({ length: sessions }, () => build.newSession(perSession));
  const gc0 = gcMs;
  const cpu0 = process.cpuUsage();
  await Promise.all(
    live.map(async (session, i) => {
      const pace = pacer(i, sessions, rate);
      for (let t = 0; t < perSession; t++) {
        await pace.next();
        checkOrderTurn(await session.run(ORDER_TEXT));
      }
    }),
  );
  const cpu = process.cpuUsage(cpu0);
  await Promise.all(live.map((s) => s.close()));
  const total = sessions * perSession;
  return { cpu: (cpu.user + cpu.system) / total, gc: ((gcMs - gc0) * 1000) / total };
}

// Warm-up: JIT and the pools of every build.
for (const build of builds) await phase(build, 50, 20);
for (let r = 0; r < rounds; r++) {
  const order = r % 2 === 0 ? builds : [...builds].reverse();
  for (const build of order) build.phases.push(await phase(build, n, turns));
}
upstream.kill();

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};
console.log(
  `N = ${n} sessions × ${turns} turns per phase, ${rate} turns/s offered, ${rounds} rounds`,
);
const base = builds[0];
for (const build of builds) {
  const cpu = median(build.phases.map((p) => p.cpu));
  const gc = median(build.phases.map((p) => p.gc));
  const vs =
    build === base
      ? ''
      : ` → ${((cpu / median(base.phases.map((p) => p.cpu)) - 1) * 100).toFixed(1)}% CPU vs ${base.dist}`;
  console.log(
    `${build.dist}: CPU ${cpu.toFixed(0)} µs/turn, GC pause ${gc.toFixed(1)} µs/turn${vs}` +
      `  (phases: ${build.phases.map((p) => `${p.cpu.toFixed(0)}/${p.gc.toFixed(1)}`).join(' ')})`,
  );
}
