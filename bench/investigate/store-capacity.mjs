// The highest turn rate each session store sustains on this machine (issue 49 item 3, measured as
// throughput rather than converted from CPU per turn): `bench/load/main.mjs` at an offered rate R
// (R sessions, one turn a second each, journaled `post` turns against the 20 ms upstream), counted
// as sustained when every scheduled turn completed and the turn latency p99 stayed under
// `--latency-p99` ms. Each store's highest sustained rate is found by bisection, the two stores'
// steps alternating so both see the same machine; the whole box counts (the load driver, the
// upstream, redis-server and the worker share its cores), as it would for a host.
//   node bench/investigate/store-capacity.mjs [--low 400] [--high 3000] [--steps 6] [--duration 10]
//     [--latency-p99 150] [--warm-up 2000]
// Run after `npm run build`, on a quiet machine.
import { execFile } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    low: { type: 'string', default: '400' },
    high: { type: 'string', default: '3000' },
    steps: { type: 'string', default: '6' },
    duration: { type: 'string', default: '10' },
    'latency-p99': { type: 'string', default: '150' },
    'warm-up': { type: 'string', default: '2000' },
  },
});
const main = new URL('../load/main.mjs', import.meta.url).pathname;
const p99Bound = Number(values['latency-p99']);

function run(store, rate) {
  const out = join(tmpdir(), `store-capacity-${process.pid}-${store}.json`);
  const args = [
    main,
    ...['--sessions', String(rate), '--interval', '1', '--duration', values.duration],
    ...['--store', store, '--warm-up', values['warm-up'], '--out', out],
  ];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { maxBuffer: 1 << 24 }, (error) => {
      if (error) return reject(error);
      const r = JSON.parse(readFileSync(out, 'utf8'));
      rmSync(out, { force: true });
      const sustained = r.successRate === 1 && r.overall.latencyP99Ms <= p99Bound;
      resolve({ sustained, turnsPerSec: r.turnsPerSec, p99: r.overall.latencyP99Ms, r });
    });
  });
}

// `hiTested`: the upper bound was run and not sustained (else it is only where the search stopped).
const bounds = {
  memory: { lo: Number(values.low), hi: Number(values.high), hiTested: false },
  redis: { lo: Number(values.low), hi: Number(values.high), hiTested: false },
};
for (let step = 0; step < Number(values.steps); step++) {
  const order = step % 2 === 0 ? ['memory', 'redis'] : ['redis', 'memory'];
  for (const store of order) {
    const b = bounds[store];
    const rate = Math.round((b.lo + b.hi) / 2);
    const got = await run(store, rate);
    if (got.sustained) b.lo = rate;
    else Object.assign(b, { hi: rate, hiTested: true });
    const errors = Object.entries(got.r.errors)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    console.log(
      `step ${step + 1} ${store.padEnd(6)} ${String(rate).padStart(5)} turns/s offered: ` +
        `${got.sustained ? 'sustained' : 'not sustained'} (completed ${got.turnsPerSec.toFixed(0)}/s, ` +
        `latency p99 ${got.p99?.toFixed(1)} ms, ok ${(got.r.successRate * 100).toFixed(2)}%` +
        `${errors ? `; ${errors}` : ''})`,
    );
  }
}
const m = bounds.memory.lo;
const r = bounds.redis.lo;
const above = (b) =>
  b.hiTested ? `${b.hi} not` : `the search's top, ${b.hi}, not tried: raise --high`;
console.log(
  `highest sustained rate: memory ${m} turns/s (${above(bounds.memory)}), ` +
    `redis ${r} turns/s (${above(bounds.redis)}) → Redis ${((r / m) * 100).toFixed(1)}% of memory's`,
);
