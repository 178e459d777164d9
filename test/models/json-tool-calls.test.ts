import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import {
  JSON_NO_TOOL,
  parseJsonReply,
  splitReply,
  toJsonMessages,
  withJsonToolCalls,
} from '../../src/models/json-tool-calls.js';
import { INVALID_TOOL_CALL_NAME } from '../../src/models/text-markers.js';
import type { Model, ModelStreamPart } from '../../src/models/types.js';
import { createSession } from '../../src/session/create-session.js';
import { ScriptedModel } from '../../src/testing.js';

const ids = () => {
  let n = 0;
  return () => `j${++n}`;
};

async function partsOf(model: Model): Promise<ModelStreamPart[]> {
  const out: ModelStreamPart[] = [];
  for await (const p of model.stream({
    messages: [{ role: 'user', content: 'hi' }],
    tools: [],
    signal: new AbortController().signal,
  }))
    out.push(p);
  return out;
}

describe('parseJsonReply', () => {
  it('reads a call and an answer', () => {
    expect(parseJsonReply('{"tool":"a","input":{"x":1}}', ids())).toEqual({
      type: 'call',
      call: { id: 'j1', name: 'a', arguments: '{"x":1}' },
    });
    expect(parseJsonReply('{"tool":"a","arguments":{"x":1}}', ids())).toMatchObject({
      call: { arguments: '{"x":1}' },
    });
    expect(parseJsonReply('{"tool":"a"}', ids())).toMatchObject({ call: { arguments: '{}' } });
    expect(parseJsonReply(' {"tool":"none","response":"Hi."} ', ids())).toEqual({
      type: 'text',
      text: 'Hi.',
    });
    expect(JSON_NO_TOOL).toBe('none');
  });

  it('takes off one code fence', () => {
    expect(parseJsonReply('```json\n{"tool":"a","input":{}}\n```', ids())).toMatchObject({
      type: 'call',
      call: { name: 'a' },
    });
  });

  it('answers: absent response is nothing, a non-string is its JSON', () => {
    expect(parseJsonReply('{"tool":"none"}', ids())).toEqual({ type: 'text', text: '' });
    expect(parseJsonReply('{"tool":"none","response":{"a":1}}', ids())).toEqual({
      type: 'text',
      text: '{"a":1}',
    });
  });

  it('handles malformed replies as text markers handle theirs', () => {
    // Opens an object but does not parse: the name recovered, the raw reply as arguments.
    expect(parseJsonReply('{"tool":"a","input":{,}}', ids())).toEqual({
      type: 'call',
      call: { id: 'j1', name: 'a', arguments: '{"tool":"a","input":{,}}' },
    });
    // No tool named: invalid_tool_call, answered by the session with unknown_tool.
    expect(parseJsonReply('{"input":{}}', ids())).toMatchObject({
      call: { name: INVALID_TOOL_CALL_NAME, arguments: '{"input":{}}' },
    });
    expect(parseJsonReply("{'tool':'a'}", ids())).toMatchObject({
      call: { name: INVALID_TOOL_CALL_NAME },
    });
    // A nested "tool" never chooses the tool.
    expect(parseJsonReply('{"input":{"tool":"a"}}', ids())).toMatchObject({
      call: { name: INVALID_TOOL_CALL_NAME },
    });
    // Not a JSON object at all: text, as text outside markers is.
    expect(parseJsonReply('Hello there.', ids())).toEqual({ type: 'text', text: 'Hello there.' });
    expect(parseJsonReply('[1,2]', ids())).toEqual({ type: 'text', text: '[1,2]' });
  });
});

describe('withJsonToolCalls', () => {
  it('buffers the reply: JSON is never a text-delta, however it is split', async () => {
    const inner = new ScriptedModel([
      { text: ['{"tool":', '"none","resp', 'onse":"Hi ', 'there."}'] },
      { text: ['{"tool":"a",', '"input":{"x":1}}'] },
    ]);
    const model = withJsonToolCalls(inner, { generateId: ids() });
    const first = await partsOf(model);
    expect(first.filter((p) => p.type !== 'finish')).toEqual([
      { type: 'text-delta', text: 'Hi there.' },
    ]);
    expect(first.at(-1)?.type).toBe('finish');
    const second = await partsOf(model);
    expect(second.filter((p) => p.type !== 'finish')).toEqual([
      { type: 'tool-call', call: { id: 'j1', name: 'a', arguments: '{"x":1}' } },
    ]);
  });

  it('text around the object is text, as around a marker; the object is never spoken', async () => {
    const inner = new ScriptedModel([
      { text: 'Let me check.\n```json\n{"tool":"a","input":{"x":"}"}}\n```' },
      { text: '{"tool":"none","response":"Sunny."} Anything else?' },
    ]);
    const model = withJsonToolCalls(inner, { generateId: ids() });
    expect((await partsOf(model)).filter((p) => p.type !== 'finish')).toEqual([
      { type: 'text-delta', text: 'Let me check.\n' },
      { type: 'tool-call', call: { id: 'j1', name: 'a', arguments: '{"x":"}"}' } },
    ]);
    expect((await partsOf(model)).filter((p) => p.type !== 'finish')).toEqual([
      { type: 'text-delta', text: 'Sunny.' },
      { type: 'text-delta', text: ' Anything else?' },
    ]);
    expect(splitReply('no json {"name":"x"} here')).toEqual({
      lead: '',
      body: 'no json {"name":"x"} here',
      trail: '',
    });
  });

  it('passes native tool calls of the wrapped model through', async () => {
    const inner = new ScriptedModel([{ tool_calls: [{ id: 'n1', name: 'a', args: { x: 1 } }] }]);
    const parts = await partsOf(withJsonToolCalls(inner));
    expect(parts.filter((p) => p.type === 'tool-call')).toEqual([
      { type: 'tool-call', call: { id: 'n1', name: 'a', arguments: '{"x":1}' } },
    ]);
  });

  it('states the contract even without tools, and writes history back as JSON', () => {
    const out = toJsonMessages(
      [
        { role: 'user', content: 'hi' },
        {
          role: 'assistant',
          content: 'Checking.',
          tool_calls: [
            { id: 'c1', type: 'function', function: { name: 'a', arguments: '{"x":1}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'c1', content: '{"ok":1}' },
        { role: 'assistant', content: 'Done.' },
      ],
      [],
      'RULES {{tools}}',
    );
    expect(out).toEqual([
      { role: 'system', content: 'RULES []' },
      { role: 'user', content: 'hi' },
      {
        role: 'assistant',
        content: '{"tool":"none","response":"Checking."}\n{"tool":"a","input":{"x":1}}',
      },
      { role: 'user', content: 'Tool result for a (c1):\n{"ok":1}' },
      { role: 'assistant', content: '{"tool":"none","response":"Done."}' },
    ]);
  });

  it('runs in a session: calls, a malformed call corrected, the answer spoken', async () => {
    const tools = await loadTools([
      {
        type: 'log',
        tool: {
          type: 'function',
          function: {
            name: 'note',
            description: 'Write a note',
            parameters: { type: 'object', properties: { text: { type: 'string' } } },
          },
        },
      },
    ]);
    const inner = new ScriptedModel(
      [
        { text: '{"tool":"note","input":{"text":"x",}}' },
        { text: '{"tool":"note","input":{"text":"hi"}}' },
        { text: '{"tool":"none","response":"Noted."}' },
      ],
      { record: true },
    );
    const model = withJsonToolCalls(inner, { generateId: ids() });
    const s = createSession({ tools, model, prompt: 'System.' });
    const r = await s.run('note hi');
    expect(r.content).toBe('Noted.');
    const spoken = r.events.flatMap((e) => (e.type === 'text-delta' ? [e.text] : [])).join('');
    expect(spoken).toBe('Noted.');
    expect(r.traces.map((t) => [t.callId, t.tool, t.errorCode ?? 'ok'])).toEqual([
      ['j1', 'note', 'invalid_arguments'],
      ['j2', 'note', 'ok'],
    ]);
    expect(inner.calls.every((c) => c.tools.length === 0)).toBe(true);
    const system = String(inner.calls[0]!.messages[0]!.content);
    expect(system).toMatch(/^System\.\n\nReply with exactly one JSON object/);
    expect(system).toContain('"name":"note","description":"Write a note"');
    const third = inner.calls[2]!.messages;
    expect(third.map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
    ]);
    expect(third[4]).toEqual({
      role: 'assistant',
      content: '{"tool":"note","input":{"text":"hi"}}',
    });
  });
});
