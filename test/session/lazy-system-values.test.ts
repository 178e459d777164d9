// `vars.session.*` are computed when a round first reads them, once per round, and not at all
// in a round whose prompt, tool descriptions and call templates name none of them (issue 17).
import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { createSession } from '../../src/session/create-session.js';
import { ScriptedModel } from '../../src/testing.js';
import { def } from '../definition/helpers.js';

/** Options whose `systemValues.timezone` counts how often the session computes its values. */
function counted(): { reads: () => number; systemValues: { readonly timezone: string } } {
  let reads = 0;
  return {
    reads: () => reads,
    systemValues: {
      get timezone(): string {
        reads++;
        return 'UTC';
      },
    },
  };
}

const script = [{ tool_calls: [{ name: 'note', args: { city: 'hi' } }] }, { text: 'Noted.' }];

describe('system values computed on first read', () => {
  it('are not computed when no prompt, description or template names them', async () => {
    const tools = await loadTools([def({}, 'note')]);
    const clock = counted();
    const notes: unknown[] = [];
    const session = createSession({
      tools,
      model: new ScriptedModel(script),
      prompt: 'You take notes.',
      systemValues: clock.systemValues,
      actions: { note: (args) => void notes.push(args) },
    });
    const result = await session.run('note hi');
    expect(result.content).toBe('Noted.');
    expect(notes).toEqual([{ city: 'hi' }]);
    expect(clock.reads()).toBe(0);
  });

  it('are computed once per round that reads them, with the values a template expects', async () => {
    const tools = await loadTools([
      def({ defaults: { id: '{vars.session.date} {vars.session.id}' } }, 'note'),
    ]);
    const clock = counted();
    const notes: Record<string, unknown>[] = [];
    const model = new ScriptedModel(script, { record: true });
    const now = Date.UTC(2026, 10, 24, 9, 30, 0);
    const session = createSession({
      id: 's-1',
      tools,
      model,
      // Read by the prompt and by the call's template in the first round: computed once there.
      prompt: 'Today is {{vars.session.day_of_week}}.',
      systemValues: clock.systemValues,
      actions: { note: (args) => void notes.push(args) },
      _internal: { now: () => now },
    });
    await session.run('note hi');
    expect(notes).toEqual([{ city: 'hi', id: '2026-11-24 s-1' }]);
    expect(model.calls[0]?.messages[0]).toEqual({ role: 'system', content: 'Today is Tuesday.' });
    expect(model.calls[1]?.messages[0]).toEqual({ role: 'system', content: 'Today is Tuesday.' });
    // Two rounds (the call, then the answer), each computing them once.
    expect(clock.reads()).toBe(2);
  });
});
