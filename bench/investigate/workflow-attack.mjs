// The issue-43 workflow attack, re-run: CEL, JMESPath and mustache over model data at the
// 256 KiB argument cap. Part 1 times each evaluation alone (what the budget bounds); part 2 runs
// each through a session and reports the longest event-loop gap seen by a 1 ms interval, next to
// two trivial expressions over the same argument (the turn's own cost of a 256 KiB argument).
// Run: npm run build && node bench/investigate/workflow-attack.mjs
import { cpus, loadavg } from 'node:os';
import { createSession, loadTools } from '../../dist/index.js';
import { ScriptedModel } from '../../dist/testing.js';
import { compileExpression } from '../../dist/entries/transform.js';

const CAP = 256 * 1024 - 64;
const ones = Array.from({ length: CAP / 2 - 1 }, () => 1);
const DATA = {
  l: { l: ones },
  s: { s: 'a'.repeat(CAP - 16) },
  ls: { l: Array.from({ length: 1000 }, () => 0), s: 'x'.repeat(CAP - 4096) },
};
const cel = (expression) => ({ expression: { type: 'cel', expression } });
const ATTACKS = [
  ['baseline_cel', cel('inputs.l.size()'), 'l'],
  ['baseline_jp', { expression: 'length(inputs.l)' }, 'l'],
  ['cel_quadratic', cel('inputs.l.map(x, inputs.l.filter(y, y == x).size())'), 'l'],
  ['cel_comment', cel('inputs.l.//\nmap(a, inputs.l.map(b, inputs.l.size()))'), 'l'],
  ['cel_all_exists', cel('inputs.l.all(a, inputs.l.exists(b, b != a))'), 'l'],
  ['cel_in', cel('inputs.l.map(x, -x in inputs.l)'), 'l'],
  [
    'cel_in_chain',
    cel(
      `[inputs.l].map(x, ${Array.from({ length: 12 }, (_, i) => `-${i + 1} in x`).join(' || ')})`,
    ),
    'l',
  ],
  ['cel_spread', cel('inputs.l.map(x, inputs.s)'), 'ls'],
  ['cel_concat', cel(Array.from({ length: 8 }, () => 'inputs.s').join(' + ')), 's'],
  ['cel_matches', cel("inputs.s.matches('^[a-z]+$')"), 's'],
  ['jp_filter', { expression: 'length(inputs.l[?@ > `0`])' }, 'l'],
  ['jp_join', { expression: 'join(`,`, inputs.l[*].to_string(@))' }, 'l'],
  ['jp_sort', { expression: 'sort(inputs.l)' }, 'l'],
  ['jp_multi', { expression: '[inputs.s, inputs.s, inputs.s, inputs.s, inputs.s]' }, 's'],
  ['mustache_section', { output: '{{#inputs.l}}{{inputs.s}}{{/inputs.l}}' }, 'ls'],
  ['mustache_nested', { output: '{{#inputs.l}}{{#inputs.l}}{{/inputs.l}}{{/inputs.l}}' }, 'l'],
];

console.log(`node ${process.version}, ${cpus().length} cores, load ${loadavg()[0].toFixed(1)}`);
console.log('\n1. one evaluation, alone (ms, best and worst of 3)');
let worstEval = 0;
for (const [name, spec, kind] of ATTACKS) {
  if (spec.expression === undefined) continue;
  const c = compileExpression(spec.expression);
  if (!c.ok) throw new Error(`${name}: ${c.message}`);
  const times = [];
  let outcome = '';
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    try {
      const v = c.expression.evaluate({ inputs: DATA[kind] });
      outcome = `ok, ${JSON.stringify(v)?.length ?? 0} B`;
    } catch (e) {
      outcome = e.code ?? String(e);
    }
    times.push(performance.now() - t);
  }
  if (!name.startsWith('baseline')) worstEval = Math.max(worstEval, ...times);
  console.log(
    `  ${name.padEnd(17)} ${outcome.padEnd(18)} ${Math.min(...times).toFixed(1)} / ${Math.max(...times).toFixed(1)}`,
  );
}
console.log(`  worst attack evaluation: ${worstEval.toFixed(1)} ms`);

console.log('\n2. through a session: longest event-loop gap per tool (ms, over 3 runs)');
const tools = await loadTools(
  ATTACKS.map(([name, spec]) => ({
    type: 'context',
    context: {
      task: {
        type: 'expression',
        id: name,
        tool: { name },
        inputs: [
          { name: 'l', type: 'array', required: false },
          { name: 's', type: 'string', required: false },
        ],
        ...spec,
      },
    },
    tool: {
      type: 'function',
      function: { name: `${name}_def`, parameters: { type: 'object', properties: {} } },
    },
  })),
);
let last = performance.now();
let gap = 0;
const timer = setInterval(() => {
  const t = performance.now();
  gap = Math.max(gap, t - last);
  last = t;
}, 1);
const pause = (ms) => new Promise((r) => setTimeout(r, ms));
const gaps = new Map();
const codes = new Map();
for (let run = 0; run < 3; run++) {
  for (const [name, , kind] of ATTACKS) {
    await pause(5);
    last = performance.now();
    gap = 0;
    const model = new ScriptedModel([{ tool_calls: [{ name, args: DATA[kind] }] }, { text: 'ok' }]);
    const r = await createSession({ tools, model }).run('go');
    await pause(5);
    gaps.set(name, Math.max(gaps.get(name) ?? 0, gap));
    codes.set(name, r.traces[0].errorCode ?? 'ok');
  }
}
clearInterval(timer);
for (const [name] of ATTACKS)
  console.log(`  ${name.padEnd(17)} ${codes.get(name).padEnd(18)} ${gaps.get(name).toFixed(0)}`);
