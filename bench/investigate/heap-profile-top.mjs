// Sums a sampling heap profile written by turn-http's `--heap-prof-out` per allocating function:
// bytes per turn (the samples' sizes × counts ÷ the phase's turns), top first.
//   node bench/investigate/heap-profile-top.mjs <file.heapprofile> [count]
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

const [file, countText] = process.argv.slice(2);
if (file === undefined) {
  console.error('usage: node bench/investigate/heap-profile-top.mjs <file.heapprofile> [count]');
  process.exit(2);
}
const { turns, profile } = JSON.parse(readFileSync(file, 'utf8'));
const byFunction = new Map();
let total = 0;
const visit = (node) => {
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url
    ? `${relative(process.cwd(), url.replace(/^file:\/\//, ''))}:${lineNumber + 1}`
    : '';
  const key = `${functionName || '(anonymous)'} ${where}`.trim();
  // selfSize: the sampled bytes this frame allocated itself (an estimate scaled by the sampler).
  byFunction.set(key, (byFunction.get(key) ?? 0) + node.selfSize);
  total += node.selfSize;
  for (const child of node.children) visit(child);
};
visit(profile.head);
console.log(`${turns} turns: ${(total / turns).toFixed(0)} B per turn sampled`);
const top = [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, Number(countText ?? 30));
for (const [key, bytes] of top) console.log(`${(bytes / turns).toFixed(0).padStart(7)} B  ${key}`);
