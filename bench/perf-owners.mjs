// Where a paced turn's main-thread CPU goes, with every JavaScript frame named by the code that ran
// (jitdump, see perf-record.mjs). Linux `perf` samples the main thread of one side of turn-http
// (N = 1,000 at 1,000 turns/s by default) for --seconds of its measured phase. Each sample goes to
// an owner: the package of the innermost JavaScript frame on its stack (switchboard, undici, node,
// bench), or `gc`, `kernel` or `native` when its stack has no JavaScript frame. Builtins, the
// runtime and the kernel work that a JavaScript function asks for count as its owner's.
// Reported in µs per turn (samples × 500 µs ÷ turns, with 1,000 turns per recorded second, the
// offered rate that both sides keep): per owner, split by the kind of code in its samples, and
// switchboard's functions. Also: how many samples ran code that was not optimized (a function
// stuck in the interpreter would show here).
// Diagnostic, not part of `npm run bench`; needs `perf` (Debian: linux-perf) and the right to use
// it (root, or kernel.perf_event_paranoid ≤ 1).
//   node bench/perf-owners.mjs [--side engine|bare] [--sessions 1000] [--seconds 15] [--top 25]
//     [--node-flags=--no-allocation-site-pretenuring]   # V8 or Node flags for the measured process
import { positive } from './args.mjs';
import { GC_FRAME, perfOptions, recordTurnHttp, requirePerf, samples } from './perf-record.mjs';

const { sessions, seconds, side, nodeFlags, values } = perfOptions({
  top: { type: 'string', default: '25' },
});
const top = positive('top', values.top, 1000);
requirePerf();
const { script, mainTid } = await recordTurnHttp({ side, sessions, seconds, nodeFlags, jit: true });

const OFFERED_PER_SECOND = 1000; // turn-http's default rate; both sides keep it at N = 1,000
const US_PER_SAMPLE = 1_000_000 / 2000; // perf samples at 2,000 per CPU-second
const turns = seconds * OFFERED_PER_SECOND;

const isKernel = (frame) => frame.includes('[kernel.kallsyms]');
const isJs = (frame) => frame.startsWith('JS:');
const ownerOf = (frame) => {
  if (frame.includes('/dist/')) return 'switchboard';
  if (frame.includes('/undici/')) return 'undici';
  if (frame.includes('/bench/')) return 'bench';
  if (frame.includes('node:')) return 'node';
  return 'other JavaScript';
};
const kindOf = (frame) => {
  if (isKernel(frame)) return 'kernel';
  if (GC_FRAME.test(frame)) return 'gc';
  if (isJs(frame)) return 'JavaScript';
  if (/^(Builtin:|Builtins_)/.test(frame)) return 'builtin';
  return 'native';
};

const count = (map, key) => map.set(key, (map.get(key) ?? 0) + 1);
const owners = new Map();
const kinds = new Map(); // owner → kind → samples
const functions = new Map();
let main = 0;
let jsSamples = 0;
let unoptimized = 0;
let unoptimizedOurs = 0;
for (const { tid, frames } of samples(script)) {
  if (tid !== mainTid || frames.length === 0) continue;
  main++;
  const js = frames.find(isJs);
  let owner;
  if (js !== undefined) owner = ownerOf(js);
  else if (frames.some((f) => GC_FRAME.test(f))) owner = 'gc';
  else owner = isKernel(frames[0]) ? 'kernel' : 'native';
  count(owners, owner);
  const byKind = kinds.get(owner) ?? new Map();
  kinds.set(owner, byKind);
  count(byKind, kindOf(frames[0]));
  if (js !== undefined) {
    jsSamples++;
    // V8's prefixes: `*` optimized (TurboFan), `^` baseline (Sparkplug), `~` interpreted.
    if (!js.startsWith('JS:*')) {
      unoptimized++;
      if (owner === 'switchboard') unoptimizedOurs++;
    }
  }
  if (owner === 'switchboard')
    count(
      functions,
      js
        .replace(/^JS:\W?/, '')
        .replace(/file:\/\/\S*\/dist\//, '')
        .replace(/ \([^)]*\)$/, ''),
    );
}
if (main === 0) throw new Error('perf recorded no samples of the main thread');
if (jsSamples === 0)
  throw new Error('no sample named a JavaScript frame: perf inject --jit found no jitdump');

const perTurn = (n) => (n * US_PER_SAMPLE) / turns;
const us = (n) => `${perTurn(n).toFixed(1).padStart(6)} µs`;
console.log(
  `\n${side}, N = ${sessions}, ${seconds} s of the measured phase: main thread ${us(main)} per turn ` +
    `(${main} samples; ${turns} turns at the offered rate)`,
);
console.log('by owner (the innermost JavaScript frame), and the kind of code in its samples:');
for (const [owner, n] of [...owners].sort((a, b) => b[1] - a[1])) {
  const split = [...kinds.get(owner)]
    .sort((a, b) => b[1] - a[1])
    .map(([kind, k]) => `${kind} ${perTurn(k).toFixed(1)}`)
    .join(', ');
  console.log(`  ${us(n)}  ${owner.padEnd(16)} ${split}`);
}
console.log(
  `samples whose innermost JavaScript frame was not optimized: ${unoptimized} of ${jsSamples} ` +
    `(switchboard's: ${unoptimizedOurs})`,
);
console.log(`switchboard's functions (the innermost switchboard frame; top ${top}):`);
for (const [name, n] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, top))
  console.log(`  ${us(n)}  ${name}`);
