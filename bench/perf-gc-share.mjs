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
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    sessions: { type: 'string', default: '1000' },
    seconds: { type: 'string', default: '15' },
    side: { type: 'string', default: 'engine' },
    'node-flags': { type: 'string', default: '' },
  },
});
const seconds = Number(values.seconds);
const sessions = Number(values.sessions);
if (!Number.isInteger(sessions) || sessions < 1 || sessions > 10_000)
  throw new Error('--sessions must be an integer in 1..10000');
if (!Number.isInteger(seconds) || seconds < 2 || seconds > 120)
  throw new Error('--seconds must be an integer in 2..120');
if (!['engine', 'bare'].includes(values.side)) throw new Error('--side must be engine or bare');
if (spawnSync('perf', ['--version']).status !== 0)
  throw new Error('perf is not installed (Debian: apt-get install -y linux-perf)');

const work = mkdtempSync(join(tmpdir(), 'perf-gc-'));
const data = join(work, 'perf.data');
// Turns per session so that the measured phase outlasts the recording by a few seconds: at the
// offered 1,000 turns/s, each of N sessions starts a turn every N/1,000 s.
const turns = String(Math.max(10, Math.ceil(((seconds + 5) * 1000) / sessions)));
const bench = spawn(
  process.execPath,
  [
    ...values['node-flags'].split(' ').filter((flag) => flag !== ''),
    '--perf-basic-prof',
    join(here, 'turn-http.bench.mjs'),
    ...['--sessions', String(sessions), '--only', values.side, '--turns', turns],
  ],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
let recorded;
let mainTid;
let printed = '';
bench.stdout.setEncoding('utf8');
bench.stdout.on('data', (text) => {
  printed += text;
  // Announced after the untimed first run of the phase (JIT and pools settle).
  const pid = /measured phase starts \(pid (\d+)\)/.exec(printed)?.[1];
  if (pid === undefined || recorded !== undefined) return;
  mainTid = pid;
  // 1 s in, so the phase's start (sessions made, first turns) is not in the sample.
  recorded = new Promise((resolve) => setTimeout(resolve, 1000)).then(
    () =>
      new Promise((resolve, reject) => {
        const perf = spawn(
          'perf',
          ['record', '-e', 'cpu-clock', '-F', '2000', '-g', '-p', pid, '-o', data, '--'],
          { stdio: ['ignore', 'ignore', 'pipe'] },
        );
        perf.stderr.resume();
        setTimeout(() => perf.kill('SIGINT'), seconds * 1000);
        perf.on('exit', () => resolve());
        perf.on('error', reject);
      }),
  );
});
const benchDone = new Promise((resolve) => bench.on('exit', resolve));
while (recorded === undefined) {
  if (bench.exitCode !== null)
    throw new Error(`turn-http ended before its measured phase:\n${printed}`);
  await new Promise((resolve) => setTimeout(resolve, 200));
}
await recorded;
bench.kill();
await benchDone;

const script = spawnSync('perf', ['script', '-i', data, '-F', 'tid,ip,sym'], {
  encoding: 'utf8',
  maxBuffer: 1 << 30,
});
rmSync(work, { recursive: true, force: true });
if (script.status !== 0) throw new Error(`perf script failed: ${script.stderr}`);

// A sample is the collector's if any frame of its stack is; V8's helper threads run little else.
const GC =
  /v8::internal::(Heap::|Scavenge|MarkCompact|MinorMarkCompact|IncrementalMarking|ConcurrentMarking|MarkingVisitor|MarkingBarrier|MarkingWorklist|Sweeper|ArrayBufferSweeper|MemoryAllocator::Unmapper|GCTracer|FullEvacuator|Evacuat|RememberedSet|PagedSpace::RefillFreeList|PointersUpdating|RememberedSetUpdating|StringTableCleaner)/;
const COMPILER = /v8::internal::(compiler::|maglev::|OptimizingCompileDispatcher|Compiler::)/;
const threads = new Map(); // tid → { samples, gc, compiler }
for (const sample of script.stdout.split('\n\n')) {
  const lines = sample.trim().split('\n');
  const tid = lines[0]?.trim().split(/\s+/)[0];
  if (tid === undefined || tid === '') continue;
  const t = threads.get(tid) ?? { samples: 0, gc: 0, compiler: 0 };
  threads.set(tid, t);
  t.samples++;
  const frames = lines.slice(1);
  if (frames.some((f) => GC.test(f))) t.gc++;
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
  `\n${values.side}, N = ${sessions}, ${seconds} s of the measured phase: ${all} samples of CPU time ` +
    `(2,000 per CPU-second), main thread ${pct(main.samples, all)}, other threads ${pct(others, all)}`,
);
console.log(
  `  the collector: ${pct(main.gc, main.samples)} of the main thread's CPU, ` +
    `${others === 0 ? '-' : pct(sum('gc') - main.gc, others)} of the other threads', ` +
    `${pct(sum('gc'), all)} of the whole process`,
);
console.log(`  the optimizing compiler: ${pct(sum('compiler'), all)} of the whole process`);
