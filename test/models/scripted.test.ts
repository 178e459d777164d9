import { describe, expect, it } from 'vitest';
import type { ModelStreamPart } from '../../src/models/types.js';
import { ScriptedModel } from '../../src/testing.js';

async function collect(
  m: ScriptedModel,
  signal = new AbortController().signal,
): Promise<ModelStreamPart[]> {
  const out: ModelStreamPart[] = [];
  for await (const p of m.stream({ messages: [{ role: 'user', content: 'q' }], tools: [], signal }))
    out.push(p);
  return out;
}

describe('ScriptedModel', () => {
  it('replays steps, encoding object args and keeping raw strings verbatim', async () => {
    const m = new ScriptedModel(
      [
        {
          text: 'a',
          tool_calls: [
            { name: 't', args: { x: 1 } },
            { name: 'u', args: '{bad', id: 'mine' },
          ],
        },
      ],
      { record: true },
    );
    expect(await collect(m)).toEqual([
      { type: 'text-delta', text: 'a' },
      { type: 'tool-call', call: { id: 'call_1_0', name: 't', arguments: '{"x":1}' } },
      { type: 'tool-call', call: { id: 'mine', name: 'u', arguments: '{bad' } },
      { type: 'finish', usage: { inputTokens: 0, outputTokens: 0 } },
    ]);
    expect(m.calls[0]?.messages).toEqual([{ role: 'user', content: 'q' }]);
    m.assertComplete();
  });
  it('fails loudly beyond the script, and assertComplete names unused steps', async () => {
    const m = new ScriptedModel([{ text: 'one' }, { text: 'two' }], { record: true });
    expect(() => m.assertComplete()).toThrow(/2 scripted step\(s\) never used/);
    await collect(m);
    // One step left is still a step never used.
    expect(() => m.assertComplete()).toThrow(/1 scripted step\(s\) never used \(used 1 of 2\)/);
    await collect(m);
    m.assertComplete();
    await expect(collect(m)).rejects.toThrow(/called 3 time\(s\) but the script has only 2/);
    expect(m.calls.map((c) => c.step)).toEqual([0, 1, -1]);
  });
  it('honours abort during a delay', async () => {
    const m = new ScriptedModel([{ text: 'late', delayMs: 10_000 }], { record: true });
    const c = new AbortController();
    setTimeout(() => c.abort(), 10);
    await expect(collect(m, c.signal)).rejects.toMatchObject({ name: 'AbortError' });
  });
  it('without delays: abort and error before the first part, abort between text chunks, empty chunks skipped', async () => {
    const aborted = new AbortController();
    aborted.abort();
    await expect(collect(new ScriptedModel([{ text: 'x' }]), aborted.signal)).rejects.toMatchObject(
      { name: 'AbortError' },
    );
    // A step with no text: the abort is still seen before its calls, and before its error.
    await expect(
      collect(new ScriptedModel([{ tool_calls: [{ name: 't' }] }]), aborted.signal),
    ).rejects.toMatchObject({ name: 'AbortError' });
    await expect(
      collect(new ScriptedModel([{ error: 'boom' }]), aborted.signal),
    ).rejects.toMatchObject({ name: 'AbortError' });
    await expect(collect(new ScriptedModel([{ error: 'boom' }]))).rejects.toMatchObject({
      name: 'ModelError',
      code: 'http_status',
      status: 500,
    });
    const midway = new AbortController();
    const m = new ScriptedModel([{ text: ['a', '', 'b', 'c'] }]);
    const seen: ModelStreamPart[] = [];
    await expect(
      (async () => {
        for await (const p of m.stream({ messages: [], tools: [], signal: midway.signal })) {
          seen.push(p);
          if (p.type === 'text-delta' && p.text === 'b') midway.abort();
        }
      })(),
    ).rejects.toMatchObject({ name: 'AbortError' });
    expect(seen).toEqual([
      { type: 'text-delta', text: 'a' },
      { type: 'text-delta', text: 'b' },
    ]);
    // Leaving early ends the stream; it yields nothing more.
    const early = new ScriptedModel([{ text: ['a', 'b'], tool_calls: [{ name: 't' }] }]);
    const stream = early.stream({ messages: [], tools: [], signal: new AbortController().signal });
    for await (const p of stream) {
      expect(p).toEqual({ type: 'text-delta', text: 'a' });
      break;
    }
    expect(await stream[Symbol.asyncIterator]().next()).toEqual({ done: true, value: undefined });
  });
});

describe('ScriptedModel script shape', () => {
  const make = (steps: unknown): ScriptedModel =>
    new ScriptedModel(steps as ConstructorParameters<typeof ScriptedModel>[0]);

  it('names a camelCase tool_calls at its step, with the field it meant', () => {
    expect(() => make([{ text: 'hi' }, { toolCalls: [{ name: 'hangup' }] }])).toThrow(
      'scripted: step 1: unknown field `toolCalls` (did you mean `tool_calls`?)',
    );
  });

  it("names a call's OpenAI-style `arguments` as `args`", () => {
    expect(() => make([{ tool_calls: [{ name: 'book', arguments: '{}' }] }])).toThrow(
      'scripted: step 0, tool_calls[0]: unknown field `arguments` (did you mean `args`?)',
    );
  });

  it('refuses a call without a name, text of the wrong type and a negative delay', () => {
    expect(() => make([{ tool_calls: [{ args: {} }] }])).toThrow(
      'step 0, tool_calls[0]: name must be a non-empty string',
    );
    expect(() => make([{ tool_calls: [{ name: 'x', args: [1] }] }])).toThrow(
      'step 0, tool_calls[0]: args must be an object or a JSON string',
    );
    expect(() => make([{ text: 3 }])).toThrow('step 0: text must be a string or an array');
    expect(() => make([{ delayMs: -1 }])).toThrow('step 0: delayMs must be a finite number ≥ 0');
    expect(() => make({ text: 'x' })).toThrow('the script must be an array of steps');
  });

  it('accepts every documented field', () => {
    const model = make([
      { text: ['a', 'b'], delayMs: 0, usage: { inputTokens: 1, outputTokens: 2 } },
      {
        tool_calls: [
          { name: 'x', args: '{}', id: 'c1' },
          { name: 'y', args: { a: 1 } },
        ],
      },
      { error: 'boom' },
    ]);
    expect(model.remaining).toBe(3);
  });
});
