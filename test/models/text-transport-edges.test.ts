// Edges of the text transports of tool calls (markers, JSON replies) that a careless change to
// their parsers would break silently: escaped quotes inside strings, empty names, a nested "tool",
// a null response, an unterminated marker.
import { describe, expect, it } from 'vitest';
import { parseJsonReply, splitReply, withJsonToolCalls } from '../../src/models/json-tool-calls.js';
import { MarkerParser } from '../../src/models/marker-parser.js';
import { ScriptedModel } from '../../src/models/scripted.js';
import { INVALID_TOOL_CALL_NAME, markerToCall } from '../../src/models/text-markers.js';
import type { ModelStreamPart } from '../../src/models/types.js';

const ids = () => 'id1';

async function partsOf(text: string): Promise<ModelStreamPart[]> {
  const model = withJsonToolCalls(new ScriptedModel([{ text }]), { generateId: ids });
  const out: ModelStreamPart[] = [];
  for await (const p of model.stream({
    messages: [{ role: 'user', content: 'hi' }],
    tools: [],
    signal: new AbortController().signal,
  }))
    out.push(p);
  return out.filter((p) => p.type !== 'finish');
}

describe('JSON replies', () => {
  it('an escaped quote inside a string does not end it: the object ends at its real brace', () => {
    const object = String.raw`{"tool":"note","input":{"text":"say \"}\" please"}}`;
    expect(splitReply(`Sure. ${object} Done.`)).toEqual({
      lead: 'Sure. ',
      body: object,
      trail: ' Done.',
    });
  });

  it('a "tool" nested in the input of an object that opens the reply never chooses the tool', async () => {
    expect(await partsOf('{"input":{"tool":"transfer"},"tool":"note"}')).toEqual([
      {
        type: 'tool-call',
        call: { id: 'id1', name: 'note', arguments: '{"tool":"transfer"}' },
      },
    ]);
  });

  it('an empty tool name is not a tool: invalid_tool_call with the raw reply', () => {
    const body = '{"tool":"","input":{"a":1}}';
    expect(parseJsonReply(body, ids)).toEqual({
      type: 'call',
      call: { id: 'id1', name: INVALID_TOOL_CALL_NAME, arguments: body },
    });
  });

  it('a string input is passed as the raw arguments, not encoded again', () => {
    expect(parseJsonReply('{"tool":"note","input":"{\\"a\\":1}"}', ids)).toEqual({
      type: 'call',
      call: { id: 'id1', name: 'note', arguments: '{"a":1}' },
    });
  });

  it('a null response is no text, never the word "null"', () => {
    expect(parseJsonReply('{"tool":"none","response":null}', ids)).toEqual({
      type: 'text',
      text: '',
    });
  });
});

describe('text markers', () => {
  it('an escaped quote inside an argument does not end the string: "</tool>" after it is data', () => {
    const body = String.raw`{"name":"note","input":{"text":"say \"</tool>\" ok"}}`;
    const parser = new MarkerParser();
    expect([...parser.push(`<tool>${body}</tool>after`), ...parser.end()]).toEqual([
      { type: 'marker', body },
      { type: 'text', text: 'after' },
    ]);
  });

  it('an unterminated marker keeps its whole body, a held-back "</to" included', () => {
    const parser = new MarkerParser();
    expect(parser.push('<tool>{"name":"a"}</to')).toEqual([]);
    expect(parser.end()).toEqual([{ type: 'unterminated', body: '{"name":"a"}</to' }]);
  });

  it('an empty top-level name is no name: "tool" is read next, else invalid_tool_call', () => {
    expect(markerToCall('{"name":"","tool":"note","input":{}}', false, 'i').name).toBe('note');
    expect(markerToCall('{"name":"","input":{}}', false, 'i')).toEqual({
      id: 'i',
      name: INVALID_TOOL_CALL_NAME,
      arguments: '{"name":"","input":{}}',
    });
  });

  it('a string input is passed as the raw arguments, not encoded again', () => {
    expect(markerToCall('{"name":"note","input":"{\\"a\\":1}"}', false, 'i')).toEqual({
      id: 'i',
      name: 'note',
      arguments: '{"a":1}',
    });
  });

  it('an unterminated marker is malformed even when its body parses: the raw body is the arguments', () => {
    const body = '{"name":"note","input":{"text":"hi"}}';
    expect(markerToCall(body, true, 'i')).toEqual({ id: 'i', name: 'note', arguments: body });
  });
});
