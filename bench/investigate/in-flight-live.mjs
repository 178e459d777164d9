// Diagnostic (not part of `npm run bench`): what an engine turn holds while it waits, at turn-http's
// burst (N sessions in a closed loop on the capped shared pool, so most turns wait in the pool's
// queue for a connection). In a burst a turn lives for a second or more, so whatever it allocated
// before the wait outlives the scavenges in between and is promoted to the old generation: those
// bytes, not the turn's whole allocation, set the collector's share of a burst turn's CPU.
// After two untimed phases, V8's sampling heap profiler (live objects only) runs for a window in
// the middle of a third; what is still alive when it stops — turns in flight, and the history the
// window's turns added — is summed per allocating function, per turn that ended in the window.
//   node bench/investigate/in-flight-live.mjs [--sessions 5000] [--turns 12] [--window 1500] [--top 30]
// To count what is promoted, run turn-http's engine side with V8's GC trace and sum `promoted=`:
//   node --expose-gc --trace-gc-nvp bench/turn-http.bench.mjs --only engine --sessions 5000 --rate 0
import { Session } from 'node:inspector/promises';
import { parseArgs } from 'node:util';
import { createSession, loadTools } from '../../dist/index.js';
import { ScriptedModel } from '../../dist/testing.js';
import { positive } from '../args.mjs';
import {
  checkOrderTurn,
  ORDER_TEXT,
  orderDefinition,
  orderScript,
  startUpstream,
} from '../order-tool.mjs';

const { values } = parseArgs({
  options: {
    sessions: { type: 'string', default: '5000' },
    turns: { type: 'string', default: '12' },
    window: { type: 'string', default: '1500' },
    top: { type: 'string', default: '30' },
  },
});
const N = positive('sessions', values.sessions, 20_000);
const TURNS = positive('turns', values.turns, 1000);
const windowMs = positive('window', values.window, 60_000);
const top = positive('top', values.top, 1000);

const { upstream, origin } = await startUpstream(20);
const tools = await loadTools([orderDefinition(origin)]);
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function phase(probe) {
  const steps = orderScript(TURNS);
  const sessions = Array.from({ length: N }, () =>
    createSession({ tools, model: new ScriptedModel(steps) }),
  );
  let ended = 0;
  const all = Promise.all(
    sessions.map(async (s) => {
      for (let t = 0; t < TURNS; t++) {
        checkOrderTurn(await s.run(ORDER_TEXT));
        ended++;
      }
    }),
  );
  if (probe !== undefined) await probe(() => ended);
  await all;
}

await phase();
await phase();
const inspector = new Session();
inspector.connect();
await phase(async (ended) => {
  // Into the phase, past its start (every session's first call queued at once).
  await pause(4000);
  const ended0 = ended();
  await inspector.post('HeapProfiler.startSampling', { samplingInterval: 128 });
  await pause(windowMs);
  const { profile } = await inspector.post('HeapProfiler.stopSampling');
  const turns = Math.max(1, ended() - ended0);
  const byFunction = new Map();
  let total = 0;
  const pending = [profile.head];
  while (pending.length > 0) {
    const node = pending.pop();
    const f = node.callFrame;
    if (node.selfSize > 0) {
      const label = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/(dist|node_modules|bench)\//, '$1/')}:${f.lineNumber + 1}`;
      byFunction.set(label, (byFunction.get(label) ?? 0) + node.selfSize);
      total += node.selfSize;
    }
    pending.push(...node.children);
  }
  console.log(
    `alive at the end of a ${windowMs} ms window, allocated in it: ${(total / 1e6).toFixed(1)} MB; ` +
      `${turns} turns ended in it: ${(total / turns).toFixed(0)} B per turn`,
  );
  for (const [label, bytes] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${(bytes / turns).toFixed(0).padStart(7)} B  ${label}`);
});
inspector.disconnect();
upstream.kill();
