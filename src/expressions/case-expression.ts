/**
 * Syllable's `CaseExpression` (`{"case": [ConditionalValue, …]}`): ordered branches, each
 * `{ "if"?, "value"? | "valueFrom"? }`. Syllable's SDK reserves it "for future runtime support";
 * switchboard evaluates it as its shape reads (docs/workflows.md): the first branch whose `if`
 * holds (a branch without `if` always holds) gives its `value` or the value of its `valueFrom`;
 * no branch holding gives `undefined` (a condition then is false, a value `null`).
 *
 * The compile function of the other forms is passed in: expression.ts imports this module.
 */
import { isPlainObject } from '../own-data.js';
import { isTruthy } from './truthiness.js';
import type { CompiledExpression, CompileResult, RawExpression } from './expression-types.js';

/** Most branches of one case expression. */
export const MAX_CASE_BRANCHES = 64;
/** Deepest nesting of case expressions inside case branches. */
export const MAX_CASE_NESTING = 4;

const BRANCH_KEYS = new Set(['if', 'value', 'valueFrom', 'value_from']);

interface Branch {
  readonly if?: CompiledExpression;
  readonly from?: CompiledExpression;
  readonly value?: unknown;
}

/** Compiles `{ case: [...] }`; `compile` compiles a nested expression one level deeper. */
export function compileCase(
  branches: readonly unknown[],
  depth: number,
  compile: (raw: RawExpression, depth: number) => CompileResult,
): CompileResult {
  if (depth > MAX_CASE_NESTING)
    return { ok: false, message: `case expressions nest deeper than ${MAX_CASE_NESTING} levels` };
  if (branches.length > MAX_CASE_BRANCHES)
    return {
      ok: false,
      message: `a case expression has ${branches.length} branches; at most ${MAX_CASE_BRANCHES} are allowed`,
    };
  const compiled: Branch[] = [];
  for (let i = 0; i < branches.length; i++) {
    const raw = branches[i];
    const fail = (why: string): CompileResult => ({ ok: false, message: `case[${i}]: ${why}` });
    if (!isPlainObject(raw)) return fail('expected {"if"?, "value"? | "valueFrom"?}');
    const unknown = Object.keys(raw).find((k) => !BRANCH_KEYS.has(k));
    if (unknown !== undefined) return fail(`unknown field "${unknown}"`);
    const fromKey = Object.hasOwn(raw, 'valueFrom') ? 'valueFrom' : 'value_from';
    const fromRaw = raw[fromKey];
    const hasFrom = fromRaw !== undefined && fromRaw !== null;
    // Syllable's API writes the unset one of the pair as null (OptionalNullable).
    if (hasFrom && raw['value'] !== undefined && raw['value'] !== null)
      return fail('"value" and "valueFrom" are mutually exclusive');
    const branch: { if?: CompiledExpression; from?: CompiledExpression; value?: unknown } = {};
    for (const [key, slot] of [
      ['if', 'if'],
      [fromKey, 'from'],
    ] as const) {
      const part = raw[key];
      if (part === undefined || part === null) continue;
      if (!isRawExpression(part)) return fail(`${key}: expected an expression`);
      const r = compile(part, depth + 1);
      if (!r.ok) return fail(`${key}: ${r.message}`);
      branch[slot] = r.expression;
    }
    if (!hasFrom && raw['value'] !== undefined) branch.value = structuredClone(raw['value']);
    compiled.push(branch);
  }
  // Each branch runs in its own language; the label (for messages) is the first one's.
  const first = compiled.map((b) => b.if ?? b.from).find((e) => e !== undefined);
  return {
    ok: true,
    expression: {
      language: first?.language ?? 'jmespath',
      source: JSON.stringify({ case: branches }),
      evaluate: (data, budget) => {
        for (const b of compiled) {
          if (b.if !== undefined && !isTruthy(b.if.evaluate(data, budget))) continue;
          if (b.from !== undefined) return b.from.evaluate(data, budget);
          return b.value === undefined ? undefined : structuredClone(b.value);
        }
        return undefined;
      },
    },
  };
}

function isRawExpression(value: unknown): value is RawExpression {
  if (typeof value === 'string') return true;
  if (!isPlainObject(value)) return false;
  if (Object.hasOwn(value, 'case')) return Array.isArray(value['case']);
  const t = value['type'];
  return (
    typeof value['expression'] === 'string' &&
    Object.keys(value).every((k) => k === 'type' || k === 'expression') &&
    (t === undefined || t === 'cel' || t === 'jp' || t === 'jmespath')
  );
}
