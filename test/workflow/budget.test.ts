/**
 * Issue 43, item 2: CEL and JMESPath evaluation under a step budget and a time slice; CEL nesting
 * counted on the parsed tree. Every budget here is decided by steps or by an injected clock, never
 * by how fast the machine is.
 */
import { describe, expect, it } from 'vitest';
import { ToolError } from '../../src/errors.js';
import { checkResultSize } from '../../src/expressions/budget.js';
import { compileExpression, type CompiledExpression } from '../../src/expressions/expression.js';
import { cel, freezeTimeSlice, STEPS_ONLY } from './expression-helpers.js';

freezeTimeSlice();

function jmes(expression: string): CompiledExpression {
  const c = compileExpression(expression);
  if (!c.ok) throw new Error(c.message);
  return c.expression;
}

/** The ToolError `run` throws (fails the test when it returns). */
function thrown(run: () => unknown): ToolError {
  try {
    run();
  } catch (err) {
    if (err instanceof ToolError) return err;
    throw err;
  }
  throw new Error('expected a ToolError');
}

/** Digits filling about `bytes` of JSON: `[1,1,1,…]`. */
function ones(bytes: number): number[] {
  return Array.from({ length: Math.floor(bytes / 2) - 1 }, () => 1);
}

describe('CEL comprehension nesting is counted on the parsed tree', () => {
  it('a comment cannot hide a comprehension (3 deep is refused at load)', () => {
    const c = compileExpression({
      type: 'cel',
      expression: 'inputs.l.//\nmap(a, inputs.l.//\nmap(b, inputs.l.map(c, c)))',
    });
    expect(c).toEqual({
      ok: false,
      message: 'CEL comprehensions nest 3 deep; at most 2 are allowed',
    });
  });

  it('chained comprehensions do not nest', () => {
    const e = cel('inputs.l.map(x, x + 1).filter(y, y > 1).map(z, z * 2)');
    expect(e.evaluate({ inputs: { l: [1, 2, 3] } })).toEqual([4, 6, 8]);
  });
});

describe('CEL evaluation budget', () => {
  it('a quadratic comprehension at the argument cap ends with expression_budget', () => {
    const e = cel('inputs.l.map(x, inputs.l.filter(y, y == x).size())');
    const error = thrown(() => e.evaluate({ inputs: { l: ones(256 * 1024 - 64) } }));
    expect(error.code).toBe('expression_budget');
    expect(error.message).toMatch(/^CEL expression `inputs\.l\.map\(x, .*` (took|ran)/);
  });

  it('counts steps: 400 × 400 is refused, 100 × 100 is answered', () => {
    const e = cel('inputs.l.all(a, inputs.l.exists(b, b == a))');
    const l = (n: number) => Array.from({ length: n }, (_, i) => i);
    expect(thrown(() => e.evaluate({ inputs: { l: l(400) } }, STEPS_ONLY)).message).toMatch(
      /took more than 100000 steps/,
    );
    expect(e.evaluate({ inputs: { l: l(100) } }, STEPS_ONLY)).toBe(true);
  });

  it('an error value cannot be discarded by || to go on past the budget', () => {
    const e = cel('inputs.l.all(x, inputs.l.all(y, y >= 0) || true)');
    const l = Array.from({ length: 400 }, (_, i) => i);
    expect(thrown(() => e.evaluate({ inputs: { l } }, STEPS_ONLY)).code).toBe('expression_budget');
  });

  it('checks the time slice at every step (injected clock)', () => {
    let t = 0;
    const now = () => (t += 1);
    const e = cel('inputs.l.map(x, x)');
    const error = thrown(() =>
      e.evaluate({ inputs: { l: Array.from({ length: 1000 }, () => 0) } }, { now }),
    );
    expect(error.message).toMatch(/ran longer than its 50 ms time slice/);
    expect(t).toBeLessThan(60);
  });

  it('a pause before the first steps does not end a small evaluation', () => {
    let t = 0;
    // Every clock read jumps 1 s (a collector pause, a starved machine).
    const now = () => (t += 1000);
    expect(cel('inputs.a + inputs.b').evaluate({ inputs: { a: 1, b: 2 } }, { now })).toBe(3);
  });

  it('charges matches by subject × pattern size before it runs', () => {
    const e = cel("inputs.s.matches('^[a-z]+$')");
    expect(e.evaluate({ inputs: { s: 'abc' } }, STEPS_ONLY)).toBe(true);
    const s = 'a'.repeat(256 * 1024);
    expect(thrown(() => e.evaluate({ inputs: { s } }, STEPS_ONLY)).code).toBe('expression_budget');
  });

  it('charges in over a list by its length: a chain of scans is stopped by steps', () => {
    const scans = Array.from({ length: 32 }, (_, i) => `-${i + 1} in x`).join(' || ');
    const e = cel(`[inputs.l].map(x, ${scans})`);
    const l = ones(256 * 1024 - 64);
    expect(thrown(() => e.evaluate({ inputs: { l } }, STEPS_ONLY)).code).toBe('expression_budget');
    expect(e.evaluate({ inputs: { l: l.slice(0, 1000) } }, STEPS_ONLY)).toEqual([false]);
    expect(cel('2 in inputs.l && !(3 in inputs.l)').evaluate({ inputs: { l: [1, 2.0] } })).toBe(
      true,
    );
  });

  it('map builds a flat list: reading a long map result neither overflows nor goes quadratic', () => {
    const e = cel('inputs.l.map(x, x).exists(y, y == 14999)');
    const l = Array.from({ length: 15_000 }, (_, i) => i);
    expect(e.evaluate({ inputs: { l } }, STEPS_ONLY)).toBe(true);
  });

  it('a result over 1 MiB is result_too_large, refused before it is built', () => {
    // The 62 KB argument: 1,000 × a 60 KB string.
    const e = cel('inputs.l.map(x, inputs.s)');
    const inputs = { l: Array.from({ length: 1000 }, () => 0), s: 'x'.repeat(60_000) };
    const error = thrown(() => e.evaluate({ inputs }, STEPS_ONLY));
    expect(error.code).toBe('result_too_large');
    expect(error.message).toMatch(/exceeds 1048576 bytes/);
  });
});

describe('JMESPath evaluation budget', () => {
  it('a filter over a list at the argument cap pays one step per element read', () => {
    const e = jmes('length(inputs.l[?@ > `0`])');
    const l = ones(256 * 1024 - 64);
    expect(thrown(() => e.evaluate({ inputs: { l } }, STEPS_ONLY)).code).toBe('expression_budget');
    expect(e.evaluate({ inputs: { l: l.slice(0, 1000) } }, STEPS_ONLY)).toBe(1000);
  });

  it('a result over 1 MiB is result_too_large', () => {
    const e = jmes('[inputs.s, inputs.s, inputs.s, inputs.s, inputs.s]');
    const error = thrown(() => e.evaluate({ inputs: { s: 'x'.repeat(250_000) } }, STEPS_ONLY));
    expect(error.code).toBe('result_too_large');
  });

  it('returns plain JSON (no proxies) for objects it selects', () => {
    const value = jmes('inputs.o').evaluate({ inputs: { o: { a: [1, { b: 2 }] } } });
    expect(value).toEqual({ a: [1, { b: 2 }] });
    expect(structuredClone(value)).toEqual(value);
  });
});

describe('the result depth cap', () => {
  const lists = (n: number): unknown => {
    let value: unknown = 1;
    for (let i = 0; i < n; i++) value = [value];
    return value;
  };
  it('is exact: a value inside 64 lists passes, inside 65 it is result_too_large', () => {
    expect(() => checkResultSize('the value', lists(64))).not.toThrow();
    expect(() => checkResultSize('the value', lists(65))).toThrow(/nests deeper than 64 levels/);
  });
});

describe('what a step is, exactly (docs: a variable read, a comprehension iteration)', () => {
  it('each variable read is one step, and the step limit is exact', () => {
    const e = cel('inputs.a + inputs.b');
    const data = { inputs: { a: 1, b: 2 } };
    expect(e.evaluate(data, { maxSteps: 2, now: () => 0 })).toBe(3);
    expect(thrown(() => e.evaluate(data, { maxSteps: 1, now: () => 0 })).message).toMatch(
      /took more than 1 steps/,
    );
  });

  it('each comprehension iteration is one step, even when its body reads nothing', () => {
    // One read of `inputs`, then one step per item: 6 steps over 5 items.
    const e = cel('inputs.l.map(x, 0)');
    const data = { inputs: { l: [1, 2, 3, 4, 5] } };
    expect(e.evaluate(data, { maxSteps: 6, now: () => 0 })).toEqual([0, 0, 0, 0, 0]);
    expect(thrown(() => e.evaluate(data, { maxSteps: 5, now: () => 0 })).code).toBe(
      'expression_budget',
    );
  });

  it('the time slice applies from the 17th step on, not before', () => {
    const reads = (n: number) => cel(`[${Array.from({ length: n }, () => 'inputs.a').join(', ')}]`);
    let t = 0;
    // Every clock read jumps 1 s: the slice is over from the first step on.
    const now = () => (t += 1000);
    expect(reads(16).evaluate({ inputs: { a: 1 } }, { now })).toHaveLength(16);
    t = 0;
    expect(thrown(() => reads(17).evaluate({ inputs: { a: 1 } }, { now })).message).toMatch(
      /ran longer than its 50 ms time slice/,
    );
  });
});

describe('nesting hidden in what a comprehension iterates over', () => {
  it('a 3-deep nest in the range of another comprehension is refused at load', () => {
    const c = compileExpression({
      type: 'cel',
      expression: 'inputs.l.map(a, inputs.l.map(b, inputs.l.map(c, c))).map(z, z)',
    });
    expect(c).toEqual({
      ok: false,
      message: 'CEL comprehensions nest 3 deep; at most 2 are allowed',
    });
  });
});

describe('caps on computed results, in both languages', () => {
  const lists = (n: number): unknown => {
    let value: unknown = 1;
    for (let i = 0; i < n; i++) value = [value];
    return value;
  };
  const o = lists(64);

  it('CEL: a result nesting 64 levels is used, one nesting 65 (list or map) is result_too_large', () => {
    expect(cel('inputs.o').evaluate({ inputs: { o } })).toEqual(o);
    for (const source of ['[inputs.o]', "{'a': inputs.o}"]) {
      const error = thrown(() => cel(source).evaluate({ inputs: { o } }));
      expect(error.code, source).toBe('result_too_large');
      expect(error.message, source).toMatch(/nests deeper than 64 levels/);
    }
  });

  it('JMESPath: a result nesting 64 levels is used, one nesting 65 is result_too_large', () => {
    expect(jmes('inputs.o').evaluate({ inputs: { o } })).toEqual(o);
    expect(thrown(() => jmes('[inputs.o]').evaluate({ inputs: { o } })).message).toMatch(
      /nests deeper than 64 levels/,
    );
    expect(thrown(() => jmes('{a: inputs.o}').evaluate({ inputs: { o } })).code).toBe(
      'result_too_large',
    );
  });

  it("CEL: a map's keys count toward the 1 MiB cap", () => {
    const e = cel("{inputs.s + 'a': 1, inputs.s + 'b': 1, inputs.s + 'c': 1, inputs.s + 'd': 1}");
    const error = thrown(() => e.evaluate({ inputs: { s: 'x'.repeat(300_000) } }, STEPS_ONLY));
    expect(error.code).toBe('result_too_large');
  });

  it('a key named __proto__ in a result stays an own data key (CEL and JMESPath)', () => {
    const fromCel = cel("{'__proto__': {'polluted': true}}").evaluate({}) as object;
    const o = JSON.parse('{"__proto__": {"polluted": true}}') as unknown;
    const fromJmes = jmes('inputs.o').evaluate({ inputs: { o } }) as object;
    for (const value of [fromCel, fromJmes]) {
      expect(Object.keys(value)).toEqual(['__proto__']);
      expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
      expect((value as { polluted?: unknown }).polluted).toBeUndefined();
    }
  });
});

describe('checkResultSize (tool results of a workflow call)', () => {
  const MiB = 1024 * 1024;
  it('is exact: a string of exactly 1 MiB as JSON passes, one byte more is refused', () => {
    expect(() => checkResultSize('the value', 'x'.repeat(MiB - 2))).not.toThrow();
    expect(() => checkResultSize('the value', 'x'.repeat(MiB - 1))).toThrow(
      /exceeds 1048576 bytes/,
    );
  });

  it('counts UTF-8 bytes, not UTF-16 units: 400,000 × "€" is 1.2 MB', () => {
    expect(() => checkResultSize('the value', '€'.repeat(400_000))).toThrow(/exceeds/);
  });

  it("counts an object's keys and a list's numbers", () => {
    expect(() => checkResultSize('the value', { ['k'.repeat(MiB)]: 1 })).toThrow(/exceeds/);
    expect(() => checkResultSize('the value', Array(200_000).fill(123456789))).toThrow(/exceeds/);
  });
});

describe('results as JSON, and run-time errors as nothing', () => {
  it('CEL bytes come back as base64 text', () => {
    expect(cel("[b'abc', b'', bytes('é')]").evaluate({})).toEqual(['YWJj', '', 'w6k=']);
  });

  it('a JMESPath run-time error (wrong operand type) yields nothing, never an exception', () => {
    expect(jmes('length(inputs.n)').evaluate({ inputs: { n: 5 } })).toBeUndefined();
    expect(jmes('sort(inputs.l)').evaluate({ inputs: { l: [1, 'a'] } })).toBeUndefined();
  });
});
