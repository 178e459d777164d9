// Diagnostic (not part of `npm run bench`): the heap one engine turn holds while it waits for a
// connection, measured, not sampled, and independent of the machine's load. N sessions (default
// 5,000) each run a first turn, then start their second at once on the capped shared pool (100 connections per origin) against
// a loopback server that answers after 10 s, so after a moment every turn is parked: 100 on the
// wire, the rest in the pool's queue. Then two full GCs and the heap is read; the heap of the same
// N sessions idle (after their first turn) is subtracted: what is left, per turn, is what a burst turn
// holds through its wait, and what a burst copies and promotes per turn (docs/benchmarks.md,
// "Targets not met"). Bare undici's same POST (dispatch, capped Agent) is measured the same way.
// Each side runs in a process of its own (the upstream never answers in time; the process exits).
// --top K adds a heap snapshot before and during, and prints the K kinds of object (V8's node type
// and constructor name) that grew most, per turn.
//   node --expose-gc bench/investigate/in-flight-heap.mjs [--dist dist] [--sessions 5000] [--side engine|bare] [--top 40]
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Session } from 'node:inspector/promises';
import { parseArgs } from 'node:util';
import { Agent } from 'undici';
import { positive } from '../args.mjs';
import { dispatchJson } from '../bare-dispatch.mjs';
import {
  ORDER_TEXT,
  orderDefinition,
  orderPlaced,
  orderRequest,
  orderScript,
  startUpstream,
} from '../order-tool.mjs';

const { values } = parseArgs({
  options: {
    dist: { type: 'string', default: 'dist' },
    sessions: { type: 'string', default: '5000' },
    side: { type: 'string', default: 'engine' },
    settle: { type: 'string', default: '1500' },
    top: { type: 'string', default: '0' },
  },
});
const top = Number(values.top);
let snapBefore;
const N = positive('sessions', values.sessions, 50_000);
const settleMs = positive('settle', values.settle, 9_000);
if (global.gc === undefined) throw new Error('run with --expose-gc');
const gc = () => {
  global.gc();
  global.gc();
};
/** Heap snapshot, summed per node type and constructor name: name → [self bytes, count]. */
async function snapshotByName() {
  const s = new Session();
  s.connect();
  const chunks = [];
  s.on('HeapProfiler.addHeapSnapshotChunk', (m) => chunks.push(m.params.chunk));
  await s.post('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  s.disconnect();
  const snap = JSON.parse(chunks.join(''));
  const f = snap.snapshot.meta.node_fields;
  const nf = f.length;
  const types = snap.snapshot.meta.node_types[0];
  const iType = f.indexOf('type'),
    iName = f.indexOf('name'),
    iSize = f.indexOf('self_size');
  const out = new Map();
  const nodes = snap.nodes;
  const strings = snap.strings;
  for (let i = 0; i < nodes.length; i += nf) {
    const t = types[nodes[i + iType]];
    let name = strings[nodes[i + iName]];
    if (t === 'string' || t === 'concatenated string' || t === 'sliced string') name = '(string)';
    if (t === 'number') name = '(number)';
    const key = `${t}:${name.slice(0, 60)}`;
    const e = out.get(key) ?? [0, 0];
    e[0] += nodes[i + iSize];
    e[1]++;
    out.set(key, e);
  }
  return out;
}

const pause = (ms) => new Promise((r) => setTimeout(r, ms));

const { upstream, origin } = await startUpstream(10_000);
const heap = () => process.memoryUsage().heapUsed;
let before;
let parked;
if (values.side === 'bare') {
  const { DEFAULT_CONNECTIONS_PER_ORIGIN } = await import(
    pathToFileURL(resolve(values.dist, 'index.js')).href
  );
  const agent = new Agent({ connections: DEFAULT_CONNECTIONS_PER_ORIGIN });
  const ORDER = orderRequest(origin);
  gc();
  before = heap();
  parked = Array.from({ length: N }, () => dispatchJson(agent, ORDER, orderPlaced));
} else {
  const { createSession, loadTools } = await import(
    pathToFileURL(resolve(values.dist, 'index.js')).href
  );
  const { ScriptedModel } = await import(pathToFileURL(resolve(values.dist, 'testing.js')).href);
  // Each session's first turn calls a server answering at once, so what a session makes on its
  // first call (its handlers) exists before `before`; the second turn's call is the one parked.
  const fast = await startUpstream(0);
  const tools = await loadTools([
    orderDefinition(fast.origin),
    orderDefinition(origin, 'place_slowly'),
  ]);
  const steps = [
    { tool_calls: [{ name: 'place_order', args: { ref: 'r' } }] },
    { text: 'placed' },
    { tool_calls: [{ name: 'place_slowly', args: { ref: 'r' } }] },
    { text: 'placed' },
  ];
  const sessions = Array.from({ length: N }, () =>
    createSession({ tools, model: new ScriptedModel(steps) }),
  );
  await Promise.all(sessions.map((s) => s.run(ORDER_TEXT)));
  fast.upstream.kill();
  gc();
  before = heap();
  if (top > 0) snapBefore = await snapshotByName();
  parked = sessions.map((s) => s.run(ORDER_TEXT));
}
// Every turn started and parked (none can finish before the upstream's 10 s).
await pause(settleMs);
gc();
const during = heap();
console.log(
  `${values.side} (${values.dist}): ${N} turns parked on the capped pool hold ` +
    `${((during - before) / N).toFixed(0)} B each (heap ${(before / 1e6).toFixed(1)} → ${(during / 1e6).toFixed(1)} MB)`,
);
void parked;
if (top > 0) {
  // What the parked turns hold, by kind: bytes and objects per turn.
  const after = await snapshotByName();
  const rows = [];
  for (const [k, [size, count]] of after) {
    const [s0, c0] = snapBefore.get(k) ?? [0, 0];
    rows.push([k, (size - s0) / N, (count - c0) / N]);
  }
  rows.sort((a, b) => b[1] - a[1]);
  for (const [k, b, c] of rows.slice(0, top))
    console.log(`${b.toFixed(0).padStart(6)} B ${c.toFixed(2).padStart(6)}x  ${k}`);
}
upstream.kill();
process.exit(0);
