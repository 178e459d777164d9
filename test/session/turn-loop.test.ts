import { describe, expect, it } from 'vitest';
import { createSession } from '../../src/session/create-session.js';
import { ScriptedModel } from '../../src/models/scripted.js';
import type { SessionEvent } from '../../src/session/types.js';
import { toolSet } from './helpers.js';

const tools = toolSet(
  { name: 'lookup', properties: { city: { type: 'string' } }, required: ['city'] },
  { name: 'hangup', result: { status: 'bye' } },
);

describe('turn loop', () => {
  it('runs a tool call then answers', async () => {
    const model = new ScriptedModel([
      { tool_calls: [{ name: 'lookup', args: { city: 'Bronx' } }] },
      { text: 'It is sunny.' },
    ]);
    const session = createSession({ tools, model, actions: { lookup: (args) => ({ weather: 'sunny', city: args['city'] }) } });
    const stream = session.send('weather?');
    const seen: SessionEvent['type'][] = [];
    for await (const e of stream) seen.push(e.type);
    const result = await stream.result;
    expect(result.content).toBe('It is sunny.');
    expect(seen).toEqual(['turn-start', 'tool-call', 'action', 'tool-result', 'text-delta', 'turn-end']);
    expect(result.traces).toHaveLength(1);
    expect(result.traces[0]).toMatchObject({ tool: 'lookup', args: { city: 'Bronx' }, output: { weather: 'sunny', city: 'Bronx' }, isError: false });
    expect(result.state.history.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    model.assertComplete();
    expect(model.calls[1]?.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_1_0', content: '{"weather":"sunny","city":"Bronx"}' });
  });
});
