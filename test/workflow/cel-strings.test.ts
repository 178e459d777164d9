/**
 * Issue 46 item 8: the CEL strings extension is enabled, and each of its functions is charged by
 * the size of its input (and of its output for replace, join and format) before it runs.
 */
import { describe, expect, it } from 'vitest';
import { ToolError } from '../../src/errors.js';
import { cel, freezeTimeSlice, STEPS_ONLY } from './expression-helpers.js';
import { loadTools } from '../../src/definition/load.js';
import { createSession } from '../../src/session/create-session.js';
import { ScriptedModel } from '../../src/testing.js';

freezeTimeSlice();

function thrown(run: () => unknown): ToolError {
  try {
    run();
  } catch (err) {
    if (err instanceof ToolError) return err;
    throw err;
  }
  throw new Error('expected a ToolError');
}

const big = 'a'.repeat(256 * 1024);

describe('CEL strings extension', () => {
  it('answers the common functions', () => {
    const e = cel(
      "[inputs.s.lowerAscii(), inputs.s.upperAscii(), '  x '.trim(), 'a-b-c'.replace('-', '+'), 'a-b-c'.replace('-', '', 1), 'a,b'.split(','), ['x', 'y'].join('/'), 'hello'.substring(1, 3), 'hello'.indexOf('l'), 'hello'.lastIndexOf('l'), 'hello'.charAt(1), strings.quote('a\"b'), '%s=%d'.format(['n', 2])]",
    );
    expect(e.evaluate({ inputs: { s: 'AbC' } })).toEqual([
      'abc',
      'ABC',
      'x',
      'a+b+c',
      'ab-c',
      ['a', 'b'],
      'x/y',
      'el',
      2,
      3,
      'e',
      '"a\\"b"',
      'n=2',
    ]);
  });

  it('a variable named strings stays a variable', () => {
    expect(cel('strings.size()').evaluate({ strings: 'abc' })).toBe(3);
  });

  it('charges each call by its input size: a chain over a 256 KiB string ends in expression_budget', () => {
    for (const call of [
      'lowerAscii()',
      'upperAscii()',
      'trim()',
      "indexOf('b')",
      "lastIndexOf('b')",
      "split('b')",
      "replace('b', 'c')",
    ]) {
      const e = cel(`[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16].map(i, inputs.s.${call})`);
      expect(thrown(() => e.evaluate({ inputs: { s: big } }, STEPS_ONLY)).code, call).toBe(
        'expression_budget',
      );
      expect(e.evaluate({ inputs: { s: 'aba' } }, STEPS_ONLY), call).toHaveLength(16);
    }
  });

  it('charges replace and join by their output before building it', () => {
    // 256 Ki occurrences × a 256 KiB replacement: 64 GiB, refused without being built.
    const replace = cel("inputs.s.replace('a', inputs.s)");
    expect(thrown(() => replace.evaluate({ inputs: { s: big } }, STEPS_ONLY)).code).toBe(
      'expression_budget',
    );
    const join = cel('inputs.l.map(x, inputs.s).join(inputs.s)');
    const inputs = { l: Array.from({ length: 1000 }, () => 0), s: 'x'.repeat(60_000) };
    expect(thrown(() => join.evaluate({ inputs }, STEPS_ONLY)).code).toBe('expression_budget');
    const format = cel(
      "'%s%s%s%s%s%s%s%s'.format([inputs.s, inputs.s, inputs.s, inputs.s, inputs.s, inputs.s, inputs.s, inputs.s])",
    );
    expect(thrown(() => format.evaluate({ inputs: { s: big } }, STEPS_ONLY)).code).toBe(
      'expression_budget',
    );
  });

  it('replace is linear: every occurrence of a 256 KiB string within budget', () => {
    const e = cel("inputs.s.replace('a', 'b').size()");
    expect(e.evaluate({ inputs: { s: big } }, STEPS_ONLY)).toBe(big.length);
    expect(cel("'aaa'.replace('a', 'b', -1)").evaluate({})).toBe('bbb');
    expect(cel("'ab'.replace('', '-')").evaluate({})).toBe('-a-b-');
  });

  it('an output over 1 MiB within the step budget is result_too_large', () => {
    const e = cel("inputs.s.replace('a', 'aaaaa')");
    const error = thrown(() => e.evaluate({ inputs: { s: 'a'.repeat(250_000) } }, STEPS_ONLY));
    expect(error.code).toBe('result_too_large');
  });
});

describe('CEL strings through a workflow expression', () => {
  it("'ABC'.lowerAscii() == 'abc' is true", async () => {
    const tools = await loadTools([
      {
        type: 'context',
        context: {
          task: {
            type: 'expression',
            id: 'lower',
            tool: { name: 'lower' },
            inputs: [{ name: 's', type: 'string' }],
            expression: {
              type: 'cel',
              expression: "'ABC'.lowerAscii() == 'abc' && inputs.s.upperAscii() == 'XY'",
            },
          },
        },
        tool: {
          type: 'function',
          function: { name: 'lower_def', parameters: { type: 'object', properties: {} } },
        },
      },
    ]);
    const model = new ScriptedModel(
      [{ tool_calls: [{ name: 'lower', args: { s: 'xy' } }] }, { text: 'done' }],
      { record: true },
    );
    const r = await createSession({ tools, model }).run('go');
    expect(r.traces.map((t) => t.errorCode)).toEqual([undefined]);
    expect(r.traces[0]?.output).toBe(true);
  });
});

describe('CEL strings: replace and join as documented', () => {
  it('replace: an empty search string matches between characters, never inside one', () => {
    expect(cel("'a😀'.replace('', '-')").evaluate({})).toBe('-a-😀-');
  });

  it('replace: a count of 0 replaces nothing; occurrences never overlap', () => {
    expect(cel("'aaa'.replace('a', 'b', 0)").evaluate({})).toBe('aaa');
    expect(cel("'aaaa'.replace('aa', 'b')").evaluate({})).toBe('bb');
    expect(cel("'aaa'.replace('aa', 'b')").evaluate({})).toBe('ba');
  });

  it('join: a list holding a non-string is an evaluation error (nothing), not its text', () => {
    expect(cel('inputs.l.join(",")').evaluate({ inputs: { l: ['a', 1] } })).toBeUndefined();
  });
});

describe('CEL strings: what each call is charged, exactly', () => {
  it('join pays one step per 32 items before the characters, even for empty strings', () => {
    // One read, then 3,200 / 32 = 100 steps for the items and none for the (empty) output.
    const e = cel('inputs.l.join()');
    const inputs = { l: Array.from({ length: 3200 }, () => '') };
    expect(e.evaluate({ inputs }, { maxSteps: 101, now: () => 0 })).toBe('');
    expect(thrown(() => e.evaluate({ inputs }, { maxSteps: 100, now: () => 0 })).code).toBe(
      'expression_budget',
    );
  });

  it('strings.quote pays for four times its input (the longest escape of a character)', () => {
    // One read, then (4 × 320 + 2) / 32 rounded up = 41 steps.
    const e = cel('strings.quote(inputs.s)');
    const inputs = { s: 'a'.repeat(320) };
    expect(e.evaluate({ inputs }, { maxSteps: 42, now: () => 0 })).toBe(`"${inputs.s}"`);
    expect(thrown(() => e.evaluate({ inputs }, { maxSteps: 41, now: () => 0 })).code).toBe(
      'expression_budget',
    );
  });
});
