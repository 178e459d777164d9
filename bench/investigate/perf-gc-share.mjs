// The collector's share of the CPU, measured from outside the process: Linux `perf` samples every
// thread of an engine-only turn-http run (N = 1,000 by default) from the kernel, at a fixed rate of
// CPU time, for --seconds of the measured phase, and each sample is classed by its stack: the
// collector (any V8 heap, scavenge, marking or sweeping frame), the optimizing compiler, or the
// rest. Reported: CPU by thread, and the collector's share on the main thread and in the whole
// process. A V8 CPU profile (`--cpu-prof-out`) sees the main thread only and, on a busy machine,
// only part of its time (turn-http prints how much); this does not depend on V8's sampler.
// Diagnostic, not part of `npm run bench`; needs `perf` (Debian: linux-perf) and the right to use
// it (root, or kernel.perf_event_paranoid ≤ 1).
//   node bench/perf-gc-share.mjs [--sessions 1000] [--seconds 15] [--side engine|bare]
//     [--node-flags=--max-semi-space-size=32]   # V8 or Node flags for the measured process
import { GC_FRAME, perfOptions, recordTurnHttp, requirePerf, samples } from './perf-record.mjs';

const { sessions, seconds, side, nodeFlags } = perfOptions();
requirePerf();
const { script, mainTid } = await recordTurnHttp({ side, sessions, seconds, nodeFlags });

// A sample is the collector's if any frame of its stack is (GC_FRAME); V8's helper threads run
// little else.
const COMPILER = /v8::internal::(compiler::|maglev::|OptimizingCompileDispatcher|Compiler::)/;
const threads = new Map(); // tid → { samples, gc, compiler }
for (const { tid, frames } of samples(script)) {
  const t = threads.get(tid) ?? { samples: 0, gc: 0, compiler: 0 };
  threads.set(tid, t);
  t.samples++;
  if (frames.some((f) => GC_FRAME.test(f))) t.gc++;
  else if (frames.some((f) => COMPILER.test(f))) t.compiler++;
}
const sum = (key) => [...threads.values()].reduce((n, t) => n + t[key], 0);
const all = sum('samples');
if (all === 0) throw new Error('perf recorded no samples');
// The main thread's tid is the process id.
const main = threads.get(mainTid) ?? { samples: 0, gc: 0, compiler: 0 };
const others = all - main.samples;
const pct = (a, b) => `${((a / b) * 100).toFixed(1)}%`;
console.log(
  `\n${side}, N = ${sessions}, ${seconds} s of the measured phase: ${all} samples of CPU time ` +
    `(2,000 per CPU-second), main thread ${pct(main.samples, all)}, other threads ${pct(others, all)}`,
);
console.log(
  `  the collector: ${pct(main.gc, main.samples)} of the main thread's CPU, ` +
    `${others === 0 ? '-' : pct(sum('gc') - main.gc, others)} of the other threads', ` +
    `${pct(sum('gc'), all)} of the whole process`,
);
console.log(`  the optimizing compiler: ${pct(sum('compiler'), all)} of the whole process`);
