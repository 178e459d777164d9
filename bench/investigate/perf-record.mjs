// Linux `perf` on turn-http's measured phase, for the diagnostics that read it (perf-gc-share.mjs,
// perf-owners.mjs): runs one side of `bench/turn-http.bench.mjs` in a child process, attaches
// `perf record -e cpu-clock -F 2000 -g` to it 1 s after the measured phase starts, for `seconds`,
// and returns `perf script`'s samples and the main thread's id.
//
// JavaScript frames are named one of two ways. `--perf-basic-prof` writes an append-only map of
// code addresses; when V8 moves or frees code, a later function at the same address is reported
// under an earlier name (seventeenth round). With `jit: true` the child runs with `--perf-prof`
// instead, which writes every code object to a jitdump file, and `perf inject --jit` names each
// sample by the code that was at that address when it was taken.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));

/**
 * The diagnostics' shared options, checked: --sessions (1000), --seconds (15), --side
 * (engine|bare), --node-flags (V8 or Node flags for the measured process), and `extra` (parseArgs
 * options of the caller's own). Returns `{ sessions, seconds, side, nodeFlags, values }`.
 */
export function perfOptions(extra = {}) {
  const { values } = parseArgs({
    options: {
      sessions: { type: 'string', default: '1000' },
      seconds: { type: 'string', default: '15' },
      side: { type: 'string', default: 'engine' },
      'node-flags': { type: 'string', default: '' },
      ...extra,
    },
  });
  const seconds = Number(values.seconds);
  const sessions = Number(values.sessions);
  if (!Number.isInteger(sessions) || sessions < 1 || sessions > 10_000)
    throw new Error('--sessions must be an integer in 1..10000');
  if (!Number.isInteger(seconds) || seconds < 2 || seconds > 120)
    throw new Error('--seconds must be an integer in 2..120');
  if (!['engine', 'bare'].includes(values.side)) throw new Error('--side must be engine or bare');
  const nodeFlags = values['node-flags'].split(' ').filter((flag) => flag !== '');
  return { sessions, seconds, side: values.side, nodeFlags, values };
}

/** A stack frame of V8's collector: any heap, scavenge, marking, sweeping or evacuation frame. */
export const GC_FRAME =
  /v8::internal::(Heap::|Scavenge|MarkCompact|MinorMarkCompact|IncrementalMarking|ConcurrentMarking|MarkingVisitor|MarkingBarrier|MarkingWorklist|Sweeper|ArrayBufferSweeper|MemoryAllocator::Unmapper|GCTracer|FullEvacuator|Evacuat|RememberedSet|PagedSpace::RefillFreeList|PointersUpdating|RememberedSetUpdating|StringTableCleaner)/;

/** Throws with how to get `perf` when it is not installed. */
export function requirePerf() {
  if (spawnSync('perf', ['--version']).status !== 0)
    throw new Error('perf is not installed (Debian: apt-get install -y linux-perf)');
}

/**
 * Records `seconds` of one side's measured phase at N = `sessions` (offered 1,000 turns/s), with
 * `nodeFlags` for the child. Returns `{ script, mainTid }`: `perf script`'s text (`tid,ip,sym`;
 * read it with `samples`) and the main thread's id (the child's pid).
 */
export async function recordTurnHttp({ side, sessions, seconds, nodeFlags = [], jit = false }) {
  // Not under /tmp/perf-: perf reads any file there as a `perf-PID.map`, jitted code included.
  const work = mkdtempSync(join(tmpdir(), 'switchboard-perf-'));
  try {
    const data = join(work, 'perf.data');
    // Turns per session so that the measured phase outlasts the recording by a few seconds: at the
    // offered 1,000 turns/s, each of N sessions starts a turn every N/1,000 s.
    const turns = String(Math.max(10, Math.ceil(((seconds + 5) * 1000) / sessions)));
    const naming = jit
      ? ['--perf-prof', '--interpreted-frames-native-stack']
      : ['--perf-basic-prof'];
    const bench = spawn(
      process.execPath,
      [
        ...nodeFlags,
        ...naming,
        join(here, '..', 'turn-http.bench.mjs'),
        ...['--sessions', String(sessions), '--only', side, '--turns', turns],
      ],
      // --perf-prof writes its jitdump file into the working directory.
      { stdio: ['ignore', 'pipe', 'inherit'], cwd: work },
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
              [
                'record',
                ...(jit ? ['-k', 'mono'] : []),
                // -N: no copy of every jitted code file in perf's build-id cache (~/.debug).
                ...['-N', '-e', 'cpu-clock', '-F', '2000', '-g', '-p', pid, '-o', data],
                ...['--', 'sleep', String(seconds)],
              ],
              { stdio: ['ignore', 'ignore', 'pipe'] },
            );
            perf.stderr.resume();
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
    // The jitdump file is buffered: a killed process leaves its last code objects unwritten, and
    // their samples unnamed. The phase ends on its own a few seconds after the recording.
    if (!jit) bench.kill();
    await benchDone;

    let input = data;
    if (jit) {
      input = join(work, 'perf.jit.data');
      const inject = spawnSync('perf', ['inject', '--jit', '-i', data, '-o', input], {
        encoding: 'utf8',
      });
      if (inject.status !== 0) throw new Error(`perf inject failed: ${inject.stderr}`);
    }
    const script = spawnSync('perf', ['script', '-i', input, '-F', 'tid,ip,sym,dso'], {
      encoding: 'utf8',
      maxBuffer: 2 ** 31 - 1,
    });
    if (script.status !== 0) throw new Error(`perf script failed: ${script.stderr}`);
    return { script: script.stdout, mainTid };
  } finally {
    rmSync(work, { recursive: true, force: true });
    // perf's build-id cache keeps a copy of every jitted code file it read (about 100 MB a run).
    rmSync(join(homedir(), '.debug', work), { recursive: true, force: true });
  }
}

/** `perf script`'s samples as `{ tid, frames }`, innermost frame first, addresses stripped. */
export function* samples(script) {
  for (const sample of script.split('\n\n')) {
    const lines = sample.trim().split('\n');
    const tid = lines[0]?.trim().split(/\s+/)[0];
    if (tid === undefined || tid === '') continue;
    const frames = lines.slice(1).map((line) => line.trim().replace(/^[0-9a-f]+ /, ''));
    yield { tid, frames };
  }
}
