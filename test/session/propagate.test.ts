import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { createSession } from '../../src/session/create-session.js';
import { ScriptedModel } from '../../src/testing.js';
import { fn } from './fixtures.js';

describe('options.propagate_tool_result', () => {
  it('marks successful results of such tools, and lists them in the turn result in call order', async () => {
    const tools = await loadTools([
      {
        type: 'action',
        tool: fn('card', { n: { type: 'integer' } }),
        result: { card: 'shown' },
        options: { propagate_tool_result: true },
      },
      { type: 'action', tool: fn('quiet', {}), result: { hidden: true } },
      {
        type: 'action',
        tool: fn('card2', {}),
        result: { second: true },
        options: { propagateToolResult: true },
      },
    ]);
    const model = new ScriptedModel([
      {
        tool_calls: [
          { name: 'card', args: { n: 1 } },
          { name: 'quiet' },
          { name: 'card', args: { n: 'bad' } },
          { name: 'card2' },
        ],
      },
      { text: 'done' },
    ]);
    const r = await createSession({ tools, model }).run('go');
    expect(r.propagated.map((p) => [p.tool, p.output])).toEqual([
      ['card', { card: 'shown' }],
      ['card2', { second: true }],
    ]);
    expect(r.propagated[0]?.callId).toBe(r.traces[0]?.callId);
    const results = r.events.filter((e) => e.type === 'tool-result');
    expect(
      results.map((e) => [e.tool, e.type === 'tool-result' ? e.propagate : undefined]),
    ).toEqual([
      ['card', true],
      ['quiet', undefined],
      ['card2', true],
    ]);
    // A failed call is never propagated.
    expect(r.traces[2]?.isError).toBe(true);
    expect(r.traces[2]?.propagate).toBeUndefined();
  });
});
