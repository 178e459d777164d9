/**
 * Issue 43 (workflows): the attack re-run through a session. A model argument at the 256 KiB cap
 * fed to a quadratic CEL expression and to a JMESPath filter ends each call with the typed
 * `expression_budget` error; the session goes on. Asserts the error, not the time.
 */
import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { createSession } from '../../src/session/create-session.js';
import { ScriptedModel } from '../../src/testing.js';

function expressionTool(name: string, expression: unknown): Record<string, unknown> {
  return {
    type: 'context',
    context: {
      task: {
        type: 'expression',
        id: name,
        tool: { name },
        inputs: [{ name: 'l', type: 'array' }],
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
