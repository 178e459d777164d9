/**
 * Case expressions (docs/workflows.md §1, "Expressions"), compiled directly: the load bounds are
 * exact, a branch's fields are checked (a misspelt `if` must not make a branch always hold), both
 * spellings of `valueFrom` work, and a branch's `value` is handed out as a copy.
 */
import { describe, expect, it } from 'vitest';
import '../../src/expressions/cel-register.js';
import {
  compileExpression,
  type CompiledExpression,
  type RawExpression,
} from '../../src/expressions/expression.js';

function compiled(raw: unknown): CompiledExpression {
  const c = compileExpression(raw as RawExpression);
  if (!c.ok) throw new Error(c.message);
  return c.expression;
}

function refusal(raw: unknown): string {
  const c = compileExpression(raw as RawExpression);
  if (c.ok) throw new Error('expected a refusal');
  return c.message;
}

describe('case expression bounds are exact', () => {
  it('branches may nest case expressions 4 deep (5 would be refused)', () => {
    const nest = (levels: number): unknown => {
      let raw: unknown = { case: [{ value: 'inner' }] };
      for (let i = 0; i < levels; i++) raw = { case: [{ valueFrom: raw }] };
      return raw;
    };
    expect(compiled(nest(4)).evaluate({})).toBe('inner');
    expect(refusal(nest(5))).toMatch(/nest deeper than 4 levels$/);
  });

  it('64 branches load; 65 are refused', () => {
    const wide = (n: number) => ({
      case: Array.from({ length: n }, (_, i) => ({ if: `x == \`${i}\``, value: i })),
    });
    expect(compiled(wide(64)).evaluate({ x: 63 })).toBe(63);
    expect(refusal(wide(65))).toBe('a case expression has 65 branches; at most 64 are allowed');
  });
});

describe('case branches are checked at load', () => {
  it('a misspelt field is refused, not ignored (an ignored "if" would always hold)', () => {
    expect(refusal({ case: [{ iff: 'x', value: 1 }] })).toBe('case[0]: unknown field "iff"');
  });

  it('an if or valueFrom that is not an expression is refused, naming it', () => {
    expect(refusal({ case: [{ if: { type: 'python', expression: 'x' }, value: 1 }] })).toBe(
      'case[0]: if: expected an expression',
    );
    expect(refusal({ case: [{ value: 1 }, { valueFrom: 42 }] })).toBe(
      'case[1]: valueFrom: expected an expression',
    );
  });
});

describe('the language of each branch', () => {
  // `size(l)` is CEL's length and `length(l)` JMESPath's; in the other language each is an
  // unknown function (nothing, at run time): a branch read in the wrong language gives nothing.
  it.each([
    ['a plain string', 'length(l)'],
    ['type "jp"', { type: 'jp', expression: 'length(l)' }],
    ['type "jmespath"', { type: 'jmespath', expression: 'length(l)' }],
    ['type "cel"', { type: 'cel', expression: 'size(l)' }],
  ])('%s', (_label, expression) => {
    const e = compiled({ case: [{ if: expression, valueFrom: expression }] });
    expect(e.evaluate({ l: [1, 2] })).toBe(2);
  });
  it("the other language's function is a run-time error there: the branch gives nothing", () => {
    const cel = compiled({ case: [{ valueFrom: { type: 'cel', expression: 'length(l)' } }] });
    const jp = compiled({ case: [{ valueFrom: { type: 'jmespath', expression: 'size(l)' } }] });
    expect(cel.evaluate({ l: [1, 2] })).toBeUndefined();
    expect(jp.evaluate({ l: [1, 2] })).toBeUndefined();
  });
});

describe('case branch values', () => {
  it('value_from (the Python spelling) is read like valueFrom', () => {
    const e = compiled({ case: [{ if: 'pick', value_from: 'x' }, { value: 'none' }] });
    expect(e.evaluate({ pick: true, x: 'from x' })).toBe('from x');
    expect(e.evaluate({ pick: false, x: 'from x' })).toBe('none');
  });

  it("hands out a copy of a branch's value: changing one result cannot change the next", () => {
    const e = compiled({ case: [{ value: { tags: ['a'] } }] });
    const first = e.evaluate({}) as { tags: string[] };
    first.tags.push('changed');
    expect(e.evaluate({})).toEqual({ tags: ['a'] });
  });
});
