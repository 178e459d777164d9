// Summarises an allocation profile from `bench/turn-http.bench.mjs --heap-prof-out` (V8's sampling
// heap profiler with collected objects kept): bytes allocated per turn, by function (the frame
// that allocated) and by the innermost switchboard frame on the stack (what in the engine the
// allocation is for, wherever it happened: undici, Node's streams, a promise).
//   node bench/heap-profile-top.mjs <file.heapprofile> [count]
import { readFileSync } from 'node:fs';

const [file, countText] = process.argv.slice(2);
if (file === undefined) {
  console.error('usage: node bench/heap-profile-top.mjs <file.heapprofile> [count]');
  process.exit(2);
}
const { turns, profile } = JSON.parse(readFileSync(file, 'utf8'));
const count = Number(countText ?? 25);
const ours = (url) => url.includes('/dist/');
const label = ({ functionName, url, lineNumber }) => {
  const where = url.replace(/^file:\/\/.*?\/(dist|node_modules)\//, '$1/');
  return `${functionName || '(anonymous)'}${where === '' ? '' : ` ${where}:${lineNumber + 1}`}`;
};

const bySelf = new Map();
const byOwner = new Map();
let total = 0;
const add = (map, key, bytes) => map.set(key, (map.get(key) ?? 0) + bytes);
// Depth-first with an explicit stack: a profile's tree can be deeper than the call stack allows.
const pending = [[profile.head, '(outside switchboard)']];
while (pending.length > 0) {
  const [node, owner] = pending.pop();
  const here = ours(node.callFrame.url) ? label(node.callFrame) : owner;
  if (node.selfSize > 0) {
    total += node.selfSize;
    add(bySelf, label(node.callFrame), node.selfSize);
    add(byOwner, here, node.selfSize);
  }
  for (const child of node.children) pending.push([child, here]);
}
const perTurn = (bytes) => `${(bytes / turns).toFixed(0).padStart(6)} B/turn`;
const share = (bytes) => `${((bytes / total) * 100).toFixed(1).padStart(5)}%`;
const list = (title, map) => {
  console.log(title);
  for (const [key, bytes] of [...map].sort((a, b) => b[1] - a[1]).slice(0, count))
    console.log(`${perTurn(bytes)} ${share(bytes)}  ${key}`);
};
console.log(`${turns} turns; allocated ${perTurn(total).trim()} (sampled, collected objects kept)`);
list('\nby the function that allocated:', bySelf);
list('\nby the innermost switchboard frame on the stack:', byOwner);
