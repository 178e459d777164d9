// Cold start: how long a fresh Node process takes to import the package, and to answer
// `switchboard --version` / `--help`, against baselines measured in the same run. Each sample is
// a whole process (spawned, timed to its exit); the sides alternate so the machine's load moves
// them alike. Reports median and spread of the per-pair ratios, and RSS after the import. For the
// imports it also reports the ratio of the processes' CPU time (user + system, as each process
// saw it), which a loaded machine moves far less than wall time.
//
//   node bench/cold-start.bench.mjs [--pairs 15]
// Targets: import('switchboard') ≤ 1.5× import('ai'); --version and --help ≤ 2.5× `node -e 0`.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { positive } from './args.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { pairs: { type: 'string', default: '15' } } });
const pairs = positive('pairs', values.pairs, 200);

/** Imports `specifier`, then prints `<rss bytes> <cpu ms>` of the process. */
const rssAfter = (specifier) =>
  `import(${JSON.stringify(specifier)}).then(() => { const u = process.cpuUsage(); ` +
  `process.stdout.write(process.memoryUsage().rss + ' ' + (u.user + u.system) / 1000); })`;
const cpuOf = (out) => Number(out.split(' ')[1]);

/** One whole process: wall time in ms from spawn to exit, and what it printed. */
function time(args) {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} failed:\n${r.stderr}`);
  return { ms, out: r.stdout };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Alternates engine and baseline `pairs` times (order swapped each pair). */
function compare(name, engineArgs, baseArgs, target) {
  time(engineArgs); // warm the file cache for both sides
  time(baseArgs);
  const ratios = [];
  const cpuRatios = [];
  const engine = [];
  const base = [];
  for (let i = 0; i < pairs; i++) {
    const first = i % 2 === 0;
    const a = first ? time(engineArgs) : time(baseArgs);
    const b = first ? time(baseArgs) : time(engineArgs);
    const e = first ? a : b;
    const o = first ? b : a;
    engine.push(e.ms);
    base.push(o.ms);
    ratios.push(e.ms / o.ms);
    if (e.out !== '' && o.out !== '') cpuRatios.push(cpuOf(e.out) / cpuOf(o.out));
  }
  const r = median(ratios);
  const spread = `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}`;
  console.log(
    `${name}: ${median(engine).toFixed(0)} ms vs ${median(base).toFixed(0)} ms; ` +
      `ratio median ${r.toFixed(2)}× (spread ${spread}, ${pairs} pairs); target ≤ ${target}×: ` +
      (r <= target ? 'met' : 'MISSED'),
  );
  if (cpuRatios.length > 0)
    console.log(
      `  CPU time ratio median ${median(cpuRatios).toFixed(2)}× ` +
        `(spread ${Math.min(...cpuRatios).toFixed(2)}–${Math.max(...cpuRatios).toFixed(2)})`,
    );
  return r <= target;
}

const main = join(root, 'dist', 'index.js');
const cli = join(root, 'dist', 'cli', 'main.js');
let ok = true;
ok =
  compare('import switchboard vs import ai', ['-e', rssAfter(main)], ['-e', rssAfter('ai')], 1.5) &&
  ok;
ok = compare('switchboard --version vs node -e 0', [cli, '--version'], ['-e', '0'], 2.5) && ok;
ok = compare('switchboard --help vs node -e 0', [cli, '--help'], ['-e', '0'], 2.5) && ok;

const rss = (spec) => Number(time(['-e', rssAfter(spec)]).out.split(' ')[0]) / 2 ** 20;
console.log(
  `RSS after import: switchboard ${rss(main).toFixed(1)} MiB, ai ${rss('ai').toFixed(1)} MiB, ` +
    `node alone ${(Number(time(['-e', 'process.stdout.write(String(process.memoryUsage().rss))']).out) / 2 ** 20).toFixed(1)} MiB`,
);
for (const entry of ['testing', 'redis', 'realtime', 'import']) {
  const file = join(root, 'dist', `${entry}.js`);
  try {
    console.log(`import switchboard/${entry}: ${time(['-e', rssAfter(file)]).ms.toFixed(0)} ms`);
  } catch {
    // entry not built (older layout)
  }
}
// A missed target is reported, not fatal: cold start depends on the machine's file cache.
void ok;
