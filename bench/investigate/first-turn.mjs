// Where a session's first turn goes (issue 49 item 2): engine time (turn − endpoint call) of turn 1
// against turns 2–5 of the same sessions, for sessions created in a process that has already run
// many (warm) — so what is left at turn 1 is per-session work, not the process's first JIT.
//   node bench/investigate/first-turn.mjs [--sessions 200] [--rounds 5]
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { createSession, InMemorySessionStore, loadTools } from '../../dist/index.js';
import { ScriptedModel } from '../../dist/testing.js';
import { orderDefinition, orderScript, startUpstream, ORDER_TEXT } from '../order-tool.mjs';

const { values } = parseArgs({
  options: {
    sessions: { type: 'string', default: '200' },
    rounds: { type: 'string', default: '5' },
    store: { type: 'boolean', default: false },
  },
});
const n = Number(values.sessions);
const { upstream, origin } = await startUpstream(0);
const tools = await loadTools([orderDefinition(origin)]);
const steps = orderScript(5);
const now = () => performance.timeOrigin + performance.now();
const store = values.store ? new InMemorySessionStore() : undefined;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function round() {
  const byTurn = [[], [], [], [], []];
  const creates = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const session = createSession({
      tools,
      model: new ScriptedModel(steps),
      _internal: { now },
      ...(store === undefined ? {} : { store }),
    });
    creates.push((performance.now() - t0) * 1000);
    for (let t = 0; t < 5; t++) {
      const started = t === 0 ? t0 : performance.now();
      const r = await session.run(ORDER_TEXT);
      const call = r.traces[0]?.duration_secs ?? 0;
      byTurn[t].push((performance.now() - started) * 1000 - call * 1e6);
    }
  }
  return [...byTurn.map(median), median(creates)];
}
for (let r = 0; r < Number(values.rounds); r++) {
  const all = await round();
  const m = all.slice(0, 5);
  const create = all[5];
  console.log(
    `round ${r + 1}: engine µs per turn (median, create included in turn 1): ${m.map((x) => x.toFixed(0)).join(' / ')}; turn 1 ÷ turns 2–5 ${(m[0] / median(m.slice(1))).toFixed(2)}×; createSession ${create.toFixed(0)} µs`,
  );
}
upstream.kill();
