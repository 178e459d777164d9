// Diagnostic (not part of `npm run bench`): every allocation of a turn, counted, not sampled. The
// session-level benchmark's turn (a scripted `place_order` call to a loopback server, then the
// answer) runs in N sessions side by side; after a warm-up (the JIT settled), V8's sampling heap
// profiler runs with a 1-byte interval, which takes every allocation, for a few turns per
// session. Reported: bytes allocated per turn, and per function (the frame that allocated, inlined
// frames included) its bytes and the sizes it allocated, "528x2.0" meaning two allocations of 528
// bytes per turn. One allocation can be several objects made together: an `await` is one of 200
// bytes (its closures and their context), an async function's call one holding its saved frame
// (parameters and registers) and its promise, with what the optimizing compiler folds in. Unlike
// CPU time, these counts hardly depend on the machine's load: two copies of one build measured in
// one process differ by about 1% (--dists a,b compares builds).
//   node bench/turn-allocs.mjs [--dists dist] [--sessions 20] [--turns 20] [--top 30] [--calls]
//
// --calls counts function calls instead (V8's precise coverage with call counts, over the same
// turns): per turn, the calls and the distinct functions run, by owner (switchboard, undici,
// node, other), and switchboard's per file with each function's calls. Like the allocations they
// do not depend on the machine's load; with the paced turn's CPU they measure how much code a turn
// runs (docs/benchmarks.md, nineteenth round). A call V8 inlined still counts.
import { Session } from 'node:inspector/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { everyAllocation } from './every-allocation.mjs';
import { distList, positive } from '../args.mjs';
import {
  checkOrderTurn,
  ORDER_TEXT,
  orderDefinition,
  orderScript,
  startUpstream,
} from '../order-tool.mjs';

const { values } = parseArgs({
  options: {
    dists: { type: 'string', default: 'dist' },
    sessions: { type: 'string', default: '20' },
    turns: { type: 'string', default: '20' },
    top: { type: 'string', default: '30' },
    calls: { type: 'boolean', default: false },
  },
});
const sessions = positive('sessions', values.sessions, 1000);
const turns = positive('turns', values.turns, 200);
const top = positive('top', values.top, 1000);
// Enough turns per session for the optimizing compiler to have done its work (turn-http's note).
const WARM_TURNS = 1500;

const { upstream, origin } = await startUpstream(0);
const inspector = new Session();
inspector.connect();

const label = ({ functionName, url, lineNumber }) =>
  `${functionName || '(anonymous)'} ${url.replace(/^file:\/\/.*?\/(dist|node_modules|bench)\//, '$1/')}:${lineNumber + 1}`;

/** The package a script belongs to. */
const ownerOf = (url) =>
  url.includes('/dist/')
    ? 'switchboard'
    : url.includes('/undici/')
      ? 'undici'
      : url.startsWith('node:')
        ? 'node'
        : 'other';

/** Function calls of `run()`: V8's precise coverage with call counts (a count per function). */
async function everyCall(run) {
  await inspector.post('Profiler.enable');
  await inspector.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
  await inspector.post('Profiler.takePreciseCoverage'); // counts from here on
  await run();
  const { result } = await inspector.post('Profiler.takePreciseCoverage');
  await inspector.post('Profiler.stopPreciseCoverage');
  await inspector.post('Profiler.disable');
  return result;
}

/** Calls per turn: by owner (calls and distinct functions) and switchboard's by file. */
function callCensus(coverage) {
  const owners = new Map();
  const files = new Map();
  for (const script of coverage) {
    const owner = ownerOf(script.url);
    for (const fn of script.functions) {
      const count = fn.ranges[0]?.count ?? 0;
      if (count === 0) continue;
      const o = owners.get(owner) ?? { calls: 0, functions: 0 };
      owners.set(owner, { calls: o.calls + count, functions: o.functions + 1 });
      if (owner !== 'switchboard') continue;
      const file = script.url.replace(/^.*\/dist\//, '');
      const f = files.get(file) ?? { calls: 0, functions: [] };
      f.calls += count;
      f.functions.push([fn.functionName || '(anonymous)', count]);
      files.set(file, f);
    }
  }
  return { owners, files };
}

/** Allocations per turn of the build in `dist`: total bytes and, per function, bytes and sizes. */
async function census(dist) {
  const url = (file) => pathToFileURL(resolve(dist, file)).href;
  const { createSession, loadTools } = await import(url('index.js'));
  const { ScriptedModel } = await import(url('testing.js'));
  const tools = await loadTools([orderDefinition(origin)]);
  const script = orderScript(WARM_TURNS + turns);
  const live = Array.from({ length: sessions }, () =>
    createSession({ tools, model: new ScriptedModel(script) }),
  );
  // Each turn in a function of its own: a caller's frame holding the result until the next turn
  // is the caller's allocation pattern, not the turn's.
  const turn = async (session) => checkOrderTurn(await session.run(ORDER_TEXT));
  const run = (count) =>
    Promise.all(
      live.map(async (session) => {
        for (let t = 0; t < count; t++) await turn(session);
      }),
    );
  await run(WARM_TURNS);
  if (values.calls) {
    const calls = callCensus(await everyCall(() => run(turns)));
    await Promise.all(live.map((session) => session.close()));
    return { calls };
  }
  const profile = await everyAllocation(inspector, () => run(turns));
  await Promise.all(live.map((session) => session.close()));

  const frames = new Map();
  const pending = [profile.head];
  while (pending.length > 0) {
    const node = pending.pop();
    frames.set(node.id, label(node.callFrame));
    pending.push(...node.children);
  }
  const byFunction = new Map();
  let total = 0;
  for (const { nodeId, size } of profile.samples) {
    const name = frames.get(nodeId) ?? '(unknown)';
    let entry = byFunction.get(name);
    if (entry === undefined) byFunction.set(name, (entry = { bytes: 0, sizes: new Map() }));
    entry.bytes += size;
    entry.sizes.set(size, (entry.sizes.get(size) ?? 0) + 1);
    total += size;
  }
  return { total: total / (sessions * turns), byFunction };
}

const perTurn = sessions * turns;
const results = [];
for (const dist of distList(values.dists)) {
  if (values.calls) {
    const { owners, files } = (await census(dist)).calls;
    const total = [...owners.values()].reduce((sum, o) => sum + o.calls, 0) / perTurn;
    results.push({ dist, total });
    console.log(
      `\n${dist}: ${total.toFixed(0)} function calls per turn (${sessions} sessions × ${turns} turns)`,
    );
    for (const [owner, o] of [...owners].sort((a, b) => b[1].calls - a[1].calls))
      console.log(
        `  ${owner.padEnd(12)} ${(o.calls / perTurn).toFixed(0).padStart(5)} calls, ${o.functions} functions`,
      );
    const rows = [...files].sort((a, b) => b[1].calls - a[1].calls).slice(0, top);
    for (const [file, f] of rows) {
      const named = f.functions
        .sort((a, b) => b[1] - a[1])
        .map(([name, count]) =>
          count === perTurn
            ? name
            : `${name}×${(count / perTurn).toFixed(Number.isInteger(count / perTurn) ? 0 : 1)}`,
        )
        .join(' ');
      console.log(`  ${(f.calls / perTurn).toFixed(0).padStart(5)}  ${file}: ${named}`);
    }
    continue;
  }
  const { total, byFunction } = await census(dist);
  results.push({ dist, total });
  console.log(
    `\n${dist}: ${total.toFixed(0)} bytes allocated per turn (${sessions} sessions × ${turns} turns)`,
  );
  const rows = [...byFunction].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, top);
  for (const [name, { bytes, sizes }] of rows) {
    const shown = [...sizes]
      .sort((a, b) => b[0] * b[1] - a[0] * a[1])
      .slice(0, 10)
      .map(([size, count]) => `${size}x${(count / perTurn).toFixed(1)}`)
      .join(' ');
    console.log(`  ${(bytes / perTurn).toFixed(0).padStart(6)} B  ${name}  | ${shown}`);
  }
}
if (results.length > 1) {
  const [first, ...rest] = results;
  for (const r of rest)
    console.log(
      `\n${r.dist}: ${r.total.toFixed(0)} vs ${first.total.toFixed(0)} ${values.calls ? 'calls' : 'bytes'} per turn (${(r.total - first.total).toFixed(0)})`,
    );
}
inspector.disconnect();
upstream.kill();
