/**
 * Issue 14, items 1 and 6: a hostile or broken model server. Streamed tool-call indices are
 * validated (no prototype pollution, no huge arrays, nothing silently dropped), and a text-marker
 * call takes its tool name only from the marker's top level.
 */
import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import type { ModelError } from '../../src/models/errors.js';
import { MAX_STREAMED_CALLS, openaiModel } from '../../src/models/openai.js';
import { withTextMarkers, markerToCall } from '../../src/models/text-markers.js';
import type { ModelStreamPart } from '../../src/models/types.js';
import { createSession } from '../../src/session/create-session.js';
import { ScriptedModel } from '../../src/testing.js';
import { fn } from './helpers.js';

/** A fetch answering every request with these SSE chunks (no network). */
function sseFetch(chunks: readonly unknown[]): typeof fetch {
  return async () =>
    new Response(
      chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('') + 'data: [DONE]\n\n',
      { status: 200, headers: { 'content-type': 'text/event-stream' } },
    );
}

function toolChunk(index: unknown, name = 'save', args = '{}'): unknown {
  return {
    id: 'x',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm',
    choices: [
      {
        index: 0,
        delta: {
          tool_calls: [{ index, id: `c_${String(index)}`, function: { name, arguments: args } }],
        },
        finish_reason: null,
      },
    ],
  };
}

async function drain(chunks: readonly unknown[]): Promise<ModelStreamPart[]> {
  const model = openaiModel({
    model: 'm',
    apiKey: 'k',
    baseURL: 'http://127.0.0.1:9/v1',
    fetch: sseFetch(chunks),
    maxRetries: 0,
  });
  const parts: ModelStreamPart[] = [];
  for await (const p of model.stream({
    messages: [{ role: 'user', content: 'hi' }],
    tools: [],
    signal: new AbortController().signal,
  }))
    parts.push(p);
  return parts;
}

describe('streamed tool-call indices (item 1)', () => {
  it.each([
    ['"__proto__"', '__proto__'],
    ['"constructor"', 'constructor'],
    ['"0"', '0'],
    ['2e8', 2e8],
    ['4294967294', 4294967294],
    ['-1', -1],
    ['1.5', 1.5],
    ['null', null],
    ['the cap', MAX_STREAMED_CALLS],
  ])('index %s is a bad_response model error, polluting nothing', async (_label, index) => {
    // No wall-clock bound (a loaded machine fails one): the refusal itself shows the index was
    // checked before anything was stored at it.
    const error = (await drain([toolChunk(index)]).catch((e: unknown) => e)) as ModelError;
    expect(error).toMatchObject({ name: 'ModelError', code: 'bad_response' });
    expect(error.message).toMatch(/index/);
    expect(Object.hasOwn(Array.prototype, 'id')).toBe(false);
    expect(Object.hasOwn(Array.prototype, 'name')).toBe(false);
    expect(([] as unknown as { arguments?: unknown }).arguments).toBeUndefined();
  });

  it('valid indices out of order come back in index order, none dropped', async () => {
    const parts = await drain([toolChunk(2, 'c'), toolChunk(0, 'a'), toolChunk(1, 'b')]);
    expect(parts.flatMap((p) => (p.type === 'tool-call' ? [p.call.name] : []))).toEqual([
      'a',
      'b',
      'c',
    ]);
  });

  it('a session gets a model-error, and the next turn works', async () => {
    const tools = await loadTools([{ type: 'action', tool: fn('save') }]);
    const model = openaiModel({
      model: 'm',
      apiKey: 'k',
      baseURL: 'http://127.0.0.1:9/v1',
      fetch: sseFetch([toolChunk('__proto__')]),
      maxRetries: 0,
    });
    const session = createSession({ tools, model, actions: { save: () => 'ok' } });
    await expect(session.run('hi')).rejects.toMatchObject({ code: 'bad_response' });
    expect(Object.hasOwn(Array.prototype, 'id')).toBe(false);
  });
});

describe('text-marker name recovery (item 6)', () => {
  const tools = loadTools([
    { type: 'action', tool: fn('save_contact', { name: { type: 'string' } }) },
    { type: 'action', tool: fn('transfer_to_operator') },
  ]);

  async function runMarker(marker: string) {
    const ran: string[] = [];
    const inner = new ScriptedModel([{ text: marker }, { text: 'done' }]);
    const session = createSession({
      tools: await tools,
      model: withTextMarkers(inner),
      actions: {
        save_contact: () => (ran.push('save_contact'), 'saved'),
        transfer_to_operator: () => (ran.push('transfer_to_operator'), 'transferred'),
      },
    });
    const result = await session.run('hi');
    return { ran, result };
  }

  it('a nested "name" never chooses the tool: "tool" at the top level does', async () => {
    const { ran } = await runMarker(
      '<tool>{"tool":"save_contact","input":{"name":"transfer_to_operator"}}</tool>',
    );
    expect(ran).toEqual(['save_contact']);
  });

  it.each([
    '<tool>{"input":{"name":"transfer_to_operator"}}</tool>',
    '<tool>{"args":{"tool":"transfer_to_operator"}}</tool>',
    '<tool>{"input":{"name":"transfer_to_operator"},}</tool>',
    '<tool>{"x": 1, "name":"transfer_to_operator"</tool>',
    '<tool>{"input":{"name":"transfer_to_operator"}',
  ])('%s runs nothing: unknown_tool', async (marker) => {
    const { ran, result } = await runMarker(marker);
    expect(ran).toEqual([]);
    expect(result.traces[0]?.errorCode).toBe('unknown_tool');
  });

  it('"name" wins over "tool" at the top level; a malformed body keeps a leading name', () => {
    expect(markerToCall('{"name":"a","tool":"b"}', false, 'i').name).toBe('a');
    expect(markerToCall('{"tool":"b","input":{}}', false, 'i').name).toBe('b');
    expect(markerToCall('{"tool":"b","input":{,}}', false, 'i').name).toBe('b');
  });
});
