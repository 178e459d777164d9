// Summarises a V8 .cpuprofile (from `node --cpu-prof`): the top functions by self time and the
// garbage collector's share of the CPU time (its self time ÷ every sample except `(idle)`).
//   node bench/cpu-profile-top.mjs <file.cpuprofile> [count]
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { selfTimes } from '../cpu-profile-time.mjs';

const [file, countText] = process.argv.slice(2);
if (file === undefined) {
  console.error('usage: node bench/cpu-profile-top.mjs <file.cpuprofile> [count]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = selfTimes(profile); // node id → µs
const byFunction = new Map();
let total = 0;
let idle = 0;
for (const [id, us] of self) {
  const { callFrame } = byId.get(id);
  const name = callFrame.functionName || '(anonymous)';
  total += us;
  if (name === '(idle)') {
    idle += us;
    continue;
  }
  const where = callFrame.url
    ? `${relative(process.cwd(), callFrame.url.replace(/^file:\/\//, ''))}:${callFrame.lineNumber + 1}`
    : '';
  const key = `${name} ${where}`.trim();
  byFunction.set(key, (byFunction.get(key) ?? 0) + us);
}
const busy = total - idle;
const gc = byFunction.get('(garbage collector)') ?? 0;
console.log(
  `busy ${(busy / 1000).toFixed(0)} ms of ${(total / 1000).toFixed(0)} ms sampled; ` +
    `GC ${(gc / 1000).toFixed(0)} ms = ${((gc / busy) * 100).toFixed(1)}% of busy time`,
);
const top = [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, Number(countText ?? 25));
for (const [key, us] of top)
  console.log(
    `${((us / busy) * 100).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${key}`,
  );
