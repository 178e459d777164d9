/**
 * Issue 43 (workflows): the attack re-run through a session. A model argument at the 256 KiB cap
 * fed to a quadratic CEL expression and to a JMESPath filter ends each call with the typed
 * `expression_budget` error; the session goes on. Asserts the error, not the time.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { createSession } from '../../src/session/create-session.js';
import { ScriptedModel } from '../../src/testing.js';

// The 50 ms time slice reads performance.now(). Where a test tells result_too_large from
// expression_budget it is frozen, so the outcome never depends on how loaded the machine is;
// the quadratic attacks keep the real clock, because the time slice is what bounds them.
afterEach(() => {
  vi.useRealTimers();
});

function expressionTool(
  name: string,
  expression: unknown,
  input: { name: string; type: string } = { name: 'l', type: 'array' },
): Record<string, unknown> {
  return {
    type: 'context',
    context: {
      task: {
        type: 'expression',
        id: name,
        tool: { name },
        inputs: [input],
        expression,
      },
    },
    tool: {
      type: 'function',
      function: { name: `${name}_def`, parameters: { type: 'object', properties: {} } },
    },
  };
}

/** `[1,1,…]` just under the 256 KiB argument cap (with its `{"l":…}` envelope). */
const l = Array.from({ length: (256 * 1024 - 64) / 2 }, () => 1);

describe('workflow expressions at the argument cap', () => {
  it('CEL (quadratic) and JMESPath (linear, long) end in expression_budget; the turn goes on', async () => {
    const tools = await loadTools([
      expressionTool('quadratic', {
        type: 'cel',
        expression: 'inputs.l.map(x, inputs.l.filter(y, y == x).size())',
      }),
      expressionTool('nested', {
        type: 'cel',
        expression: 'inputs.l.//\nmap(a, inputs.l.exists(b, b == a))',
      }),
      expressionTool('count', 'length(inputs.l[?@ > `0`])'),
    ]);
    expect(JSON.stringify({ l }).length).toBeLessThan(256 * 1024);
    const model = new ScriptedModel(
      [
        {
          tool_calls: [
            { name: 'quadratic', args: { l } },
            { name: 'nested', args: { l } },
            { name: 'count', args: { l } },
          ],
        },
        { text: 'done' },
      ],
      { record: true },
    );
    const r = await createSession({ tools, model }).run('go');
    expect(r.traces.map((t) => t.errorCode)).toEqual([
      'expression_budget',
      'expression_budget',
      'expression_budget',
    ]);
    expect(r.content).toBe('done');
  });
});

describe('CEL string functions over a model argument at the cap (issue 46 item 8)', () => {
  it('end in expression_budget or result_too_large, never a long block', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const input = { name: 's', type: 'string' };
    const tools = await loadTools([
      expressionTool(
        'expand',
        { type: 'cel', expression: "inputs.s.replace('a', inputs.s)" },
        input,
      ),
      expressionTool('grow', { type: 'cel', expression: "inputs.s.replace('a', 'aaaaa')" }, input),
      expressionTool(
        'joined',
        { type: 'cel', expression: "inputs.s.split('').map(c, inputs.s).join()" },
        input,
      ),
    ]);
    const s = 'a'.repeat(256 * 1024 - 64);
    const model = new ScriptedModel(
      [
        {
          tool_calls: [
            { name: 'expand', args: { s } },
            { name: 'grow', args: { s } },
            { name: 'joined', args: { s } },
          ],
        },
        { text: 'done' },
      ],
      { record: true },
    );
    const r = await createSession({ tools, model }).run('go');
    expect(r.traces.map((t) => t.errorCode)).toEqual([
      'expression_budget',
      'result_too_large',
      'expression_budget',
    ]);
    expect(r.content).toBe('done');
  });
});
