import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { MarkerParser, type MarkerPiece } from '../../src/models/marker-parser.js';
import {
  INVALID_TOOL_CALL_NAME,
  markerToCall,
  toMarkerMessages,
  withTextMarkers,
} from '../../src/models/text-markers.js';
import type { ModelStreamPart } from '../../src/models/types.js';
import { createSession } from '../../src/session/create-session.js';
import { ScriptedModel } from '../../src/testing.js';

function parseChunks(chunks: readonly string[]): {
  text: string;
  markers: string[];
  unterminated: string[];
} {
  const p = new MarkerParser();
  const pieces: MarkerPiece[] = [];
  for (const c of chunks) pieces.push(...p.push(c));
  pieces.push(...p.end());
  return {
    text: pieces.map((x) => (x.type === 'text' ? x.text : '')).join(''),
    markers: pieces.flatMap((x) => (x.type === 'marker' ? [x.body] : [])),
    unterminated: pieces.flatMap((x) => (x.type === 'unterminated' ? [x.body] : [])),
  };
}

/** Splits text into chunks at the given cut points. */
function cut(text: string, points: number[]): string[] {
  const sorted = [...new Set(points.map((p) => p % (text.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let last = 0;
  for (const p of sorted) {
    out.push(text.slice(last, p));
    last = p;
  }
  out.push(text.slice(last));
  return out;
}

const sample =
  'Let me check. <tool>{"name":"get_weather","input":{"city":"a</tool>b"}}</tool> And <b>bold</b> a < b <to';

describe('MarkerParser', () => {
  it('finds markers and text however the stream is split', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(200), { maxLength: 12 }), (points) => {
        const r = parseChunks(cut(sample, points));
        expect(r.markers).toEqual(['{"name":"get_weather","input":{"city":"a</tool>b"}}']);
        expect(r.text).toBe('Let me check.  And <b>bold</b> a < b <to');
        expect(r.unterminated).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('handles one character per chunk', () => {
    const r = parseChunks([...sample]);
    expect(r.markers).toHaveLength(1);
    expect(r.text).not.toContain('<tool>');
  });

  it('never emits marker text before the marker is known not to be one', () => {
    const p = new MarkerParser();
    expect(p.push('Hi <to')).toEqual([{ type: 'text', text: 'Hi ' }]);
    expect(p.push('ol>{"name":"x"}</to')).toEqual([]);
    expect(p.push('ol>!')).toEqual([
      { type: 'marker', body: '{"name":"x"}' },
      { type: 'text', text: '!' },
    ]);
  });

  it('reports an unterminated marker at the end of the stream', () => {
    const r = parseChunks(['ok <tool>{"name":"x","input":{']);
    expect(r.unterminated).toEqual(['{"name":"x","input":{']);
    expect(r.text).toBe('ok ');
  });

  it('parses two markers back to back', () => {
    const r = parseChunks(['<tool>{"name":"a"}</tool><tool>{"name":"b"}</tool>']);
    expect(r.markers).toEqual(['{"name":"a"}', '{"name":"b"}']);
    expect(r.text).toBe('');
  });
});

describe('markerToCall', () => {
  it('reads name and input (or arguments)', () => {
    expect(markerToCall('{"name":"a","input":{"x":1}}', false, 'i')).toEqual({
      id: 'i',
      name: 'a',
      arguments: '{"x":1}',
    });
    expect(markerToCall('{"name":"a","arguments":{"x":1}}', false, 'i').arguments).toBe('{"x":1}');
    expect(markerToCall('{"name":"a"}', false, 'i').arguments).toBe('{}');
  });
  it('surfaces malformed markers as calls that will fail with a readable tool error', () => {
    expect(markerToCall("{'name':'a'}", false, 'i')).toEqual({
      id: 'i',
      name: INVALID_TOOL_CALL_NAME,
      arguments: "{'name':'a'}",
    });
    expect(markerToCall('{"name":"a","input":{"x":1,}}', false, 'i')).toEqual({
      id: 'i',
      name: 'a',
      arguments: '{"name":"a","input":{"x":1,}}',
    });
    expect(markerToCall('{"name":"a","input":{', true, 'i').name).toBe('a');
    expect(markerToCall('[1]', false, 'i').name).toBe(INVALID_TOOL_CALL_NAME);
  });
});

describe('toMarkerMessages', () => {
  it('puts tools in the system prompt and converts calls and results to text', () => {
    const out = toMarkerMessages(
      [
        { role: 'system', content: 'Be nice.' },
        { role: 'user', content: 'hi' },
        {
          role: 'assistant',
          content: 'Checking.',
          tool_calls: [
            { id: 'c1', type: 'function', function: { name: 'a', arguments: '{"x":1}' } },
            { id: 'c2', type: 'function', function: { name: 'b', arguments: 'bad' } },
          ],
        },
        { role: 'tool', tool_call_id: 'c1', content: '{"ok":1}' },
        { role: 'tool', tool_call_id: 'c2', content: 'err' },
      ],
      [
        {
          type: 'function',
          function: { name: 'a', description: 'A tool', parameters: { type: 'object' } },
        },
      ],
      'TOOLS: {{tools}}',
    );
    expect(out[0]).toEqual({
      role: 'system',
      content:
        'Be nice.\n\nTOOLS: [{"name":"a","description":"A tool","parameters":{"type":"object"}}]',
    });
    expect(out[2]).toEqual({
      role: 'assistant',
      content:
        'Checking.\n<tool>{"name":"a","input":{"x":1}}</tool>\n<tool>{"name":"b","input":"bad"}</tool>',
    });
    expect(out[3]).toEqual({
      role: 'user',
      content: 'Tool result for a (c1):\n{"ok":1}\n\nTool result for b (c2):\nerr',
    });
    expect(out.every((m) => m.role !== 'tool')).toBe(true);
  });
});

describe('withTextMarkers in a session', () => {
  it('runs marker calls, never speaks markers, never sends tools natively', async () => {
    const tools = await loadTools([
      {
        type: 'log',
        tool: {
          type: 'function',
          function: {
            name: 'note',
            parameters: { type: 'object', properties: { text: { type: 'string' } } },
          },
        },
      },
    ]);
    const inner = new ScriptedModel(
      [
        { text: ['Sure. <to', 'ol>{"name":"note","in', 'put":{"text":"hi"}}</t', 'ool>'] },
        { text: ['<tool>{"name":"note","input":{"text":"x",}}</tool>'] },
        { text: 'Done.' },
      ],
      { record: true },
    );
    const model = withTextMarkers(inner, {
      generateId: (() => {
        let n = 0;
        return () => `m${++n}`;
      })(),
    });
    const s = createSession({ tools, model, prompt: 'System.' });
    const r = await s.run('note hi');
    const spoken = r.events.flatMap((e) => (e.type === 'text-delta' ? [e.text] : [])).join('');
    expect(spoken).toBe('Sure. Done.');
    expect(r.traces.map((t) => [t.callId, t.errorCode ?? 'ok'])).toEqual([
      ['m1', 'ok'],
      ['m2', 'invalid_arguments'],
    ]);
    expect(inner.calls.every((c) => c.tools.length === 0)).toBe(true);
    const second = inner.calls[1]?.messages ?? [];
    expect((second[0] as { content: string }).content).toContain('"name":"note"');
    expect(second.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect((second[3] as { content: string }).content).toBe(
      'Tool result for note (m1):\n{"status":"logged"}',
    );
    inner.assertComplete();
  });

  it('passes native tool calls of the wrapped model through', async () => {
    const inner = new ScriptedModel([{ tool_calls: [{ name: 'x', id: 'n1' }] }], { record: true });
    const parts: ModelStreamPart[] = [];
    for await (const p of withTextMarkers(inner).stream({
      messages: [],
      tools: [],
      signal: new AbortController().signal,
    }))
      parts.push(p);
    expect(parts[0]).toEqual({ type: 'tool-call', call: { id: 'n1', name: 'x', arguments: '{}' } });
  });
});
