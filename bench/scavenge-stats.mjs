// Diagnostic (not part of `npm run bench`): the young generation's collections during turn-http's
// measured phase, from V8's own accounting (`--trace-gc-nvp`, one line per collection). For one
// side (engine or bare) at N sessions: scavenges per 1,000 turns; per scavenge, what it found
// (MB allocated since the last one, MB that survived into the young generation, MB promoted into
// the old one) and its time, on the main thread and on V8's helper threads; from those, the
// scavenges' CPU per turn; and how many full collections (mark-compact) fell in the phase. A
// scavenge's cost follows what is alive when it runs, and how often it runs follows what a turn
// allocates: this says which of the two a change moved, where a CPU figure is too noisy to.
//   node bench/scavenge-stats.mjs [--side engine|bare] [--sessions 1000] [--turns 10]
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { positive } from './args.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    side: { type: 'string', default: 'engine' },
    sessions: { type: 'string', default: '1000' },
    turns: { type: 'string', default: '10' },
  },
});
if (!['engine', 'bare'].includes(values.side)) {
  console.error(`--side must be engine or bare, got ${values.side}`);
  process.exit(2);
}
const sessions = positive('sessions', values.sessions, 10_000);
const turns = positive('turns', values.turns, 1000);

const run = spawnSync(
  process.execPath,
  [
    '--trace-gc-nvp',
    join(here, 'turn-http.bench.mjs'),
    ...['--only', values.side, '--sessions', String(sessions), '--turns', String(turns)],
  ],
  { encoding: 'utf8', maxBuffer: 1 << 28 },
);
if (run.status !== 0) throw new Error(`turn-http failed:\n${run.stderr}`);
const lines = run.stdout.split('\n');
const start = lines.findIndex((l) => l.includes('measured phase starts'));
if (start < 0) throw new Error(`turn-http printed no measured phase:\n${run.stdout}`);

// name=value pairs of one collection's line.
const fields = (line) =>
  Object.fromEntries(
    line
      .split(/\s+/)
      .map((pair) => pair.split('='))
      .filter((kv) => kv.length === 2),
  );
const phase = lines.slice(start + 1);
const scavenges = phase.filter((l) => / gc=s /.test(l)).map(fields);
const fullGcs = phase.filter((l) => / gc=(mc|ms) /.test(l)).length;
const summary = phase.find((l) => new RegExp(`${values.side}\\s+N=`).test(l))?.trim();
const measured = sessions * turns;
const sum = (key) => scavenges.reduce((n, f) => n + Number(f[key] ?? 0), 0);
const per = (key, scale = 1) => (scavenges.length === 0 ? 0 : sum(key) / scavenges.length / scale);
const cpuMs = sum('scavenge') + sum('background.scavenge.parallel');

console.log(summary ?? `${values.side} N=${sessions}: no summary line`);
console.log(
  `  ${scavenges.length} scavenges in ${measured} turns (${((scavenges.length / measured) * 1000).toFixed(2)} per 1,000 turns), ${fullGcs} full collections`,
);
console.log(
  `  per scavenge: ${per('allocated', 1e6).toFixed(2)} MB allocated since the last, ` +
    `${per('new_space_survived', 1e6).toFixed(2)} MB survived, ${per('promoted', 1e6).toFixed(2)} MB promoted; ` +
    `${per('scavenge').toFixed(2)} ms on the main thread, ${per('background.scavenge.parallel').toFixed(2)} ms on helpers`,
);
console.log(`  scavenges' CPU: ${((cpuMs * 1000) / measured).toFixed(1)} µs per turn`);
