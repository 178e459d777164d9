import { describe, expect, it } from 'vitest';
import { createSession, SessionEndedError } from '../../src/session/create-session.js';
import { ScriptedModel } from '../../src/testing.js';
import { actionResult } from '../../src/handlers/action-result.js';
import { isModelError } from '../../src/models/errors.js';
import type { ChatMessage } from '../../src/models/types.js';
import type { SessionEvent, SessionOptions } from '../../src/session/types.js';
import { clinicTools } from './fixtures.js';
import { toolSet } from './helpers.js';

const tools = await clinicTools();

/** Every assistant tool_call id is answered by exactly one tool message, right after it. */
function assertHistoryIntegrity(history: readonly ChatMessage[]): void {
  const answered = new Map<string, number>();
  for (let i = 0; i < history.length; i++) {
    const m = history[i];
    if (m?.role !== 'assistant' || m.tool_calls === undefined) continue;
    const ids = m.tool_calls.map((c) => c.id);
    const following = history.slice(i + 1, i + 1 + ids.length);
    expect(
      following.map((t) => (t.role === 'tool' ? t.tool_call_id : `not-a-tool:${t.role}`)),
    ).toEqual(ids);
    for (const id of ids) answered.set(id, (answered.get(id) ?? 0) + 1);
  }
  const toolMessages = history.filter((m) => m.role === 'tool').length;
  expect(toolMessages).toBe([...answered.values()].reduce((a, b) => a + b, 0));
  for (const count of answered.values()) expect(count).toBe(1);
}

function session(
  steps: ConstructorParameters<typeof ScriptedModel>[0],
  extra: Partial<SessionOptions> = {},
) {
  const model = new ScriptedModel(steps, { record: true });
  const s = createSession({ tools, model, vars: { 'vars.hospital': 'Queens Hospital' }, ...extra });
  return { model, s };
}

describe('turn loop', () => {
  it('runs the pipeline: static parameters and defaults applied, trace recorded', async () => {
    const seen: Record<string, unknown>[] = [];
    const { model, s } = session(
      [{ tool_calls: [{ name: 'book', args: { city: 'Bronx' } }] }, { text: 'Booked.' }],
      {
        actions: { book: (args) => (seen.push({ ...args }), { id: 42 }) },
      },
    );
    const r = await s.run('book me');
    expect(r.content).toBe('Booked.');
    expect(seen).toEqual([{ city: 'Bronx', units: 'metric', hospital: 'Queens Hospital' }]);
    expect(r.traces[0]).toMatchObject({
      tool: 'book',
      args: { city: 'Bronx', units: 'metric', hospital: 'Queens Hospital' },
      output: { id: 42 },
      rawArguments: '{"city":"Bronx"}',
      isError: false,
    });
    expect(
      r.traces[0]?.transform.some((t) => t.key === 'hospital' && t.outcome === 'applied'),
    ).toBe(true);
    model.assertComplete();
  });

  it('emits events in the documented order', async () => {
    const { s } = session([
      { text: ['Let me ', 'check.'], tool_calls: [{ name: 'note', args: { text: 'x' } }] },
      { text: 'Done.' },
    ]);
    const stream = s.send('hi');
    const types: SessionEvent['type'][] = [];
    for await (const e of stream) types.push(e.type);
    expect(types).toEqual([
      'turn-start',
      'text-delta',
      'text-delta',
      'tool-call',
      'tool-result',
      'log',
      'text-delta',
      'turn-end',
    ]);
    const r = await stream.result;
    expect(r.events.map((e) => e.type)).toEqual(types);
    expect(r.content).toBe('Done.');
  });

  it('every iterator of a turn stream sees every event: two live at once, and one after the end', async () => {
    const { s } = session([
      { text: ['a', 'b'], tool_calls: [{ name: 'note', args: { text: 'x' } }], delayMs: 5 },
      { text: 'Done.' },
    ]);
    const stream = s.send('hi');
    const collect = async (): Promise<string[]> => {
      const types: string[] = [];
      for await (const e of stream) types.push(e.type);
      return types;
    };
    const [first, second] = await Promise.all([collect(), collect()]);
    const late = await collect();
    expect(first).toEqual((await stream.result).events.map((e) => e.type));
    expect(second).toEqual(first);
    expect(late).toEqual(first);
    expect(first[0]).toBe('turn-start');
    expect(first.at(-1)).toBe('turn-end');
  });

  it('records an answer of tool calls only with content null (never an empty text)', async () => {
    const { model, s } = session([
      { tool_calls: [{ name: 'note', args: { text: 'x' }, id: 'n1' }] },
      { text: 'Done.' },
    ]);
    const r = await s.run('hi');
    const expected = {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'n1', type: 'function', function: { name: 'note', arguments: '{"text":"x"}' } },
      ],
    };
    expect(r.state.history[1]).toEqual(expected);
    expect(model.calls[1]?.messages).toContainEqual(expected);
  });

  it('answers an unknown tool with unknown_tool listing the available names', async () => {
    const { model, s } = session([
      { tool_calls: [{ name: 'constructor', args: {} }] },
      { text: 'Sorry.' },
    ]);
    const r = await s.run('x');
    expect(r.traces[0]).toMatchObject({
      tool: 'constructor',
      isError: true,
      errorCode: 'unknown_tool',
    });
    const content = (model.calls[1]?.messages.at(-1) as { content: string }).content;
    expect(content).toContain('unknown_tool');
    expect(content).toContain('book, slow_action, hangup');
  });

  it('answers schema failures with the path and allowed enum values', async () => {
    const { model, s } = session([
      { tool_calls: [{ name: 'book', args: { city: 'Bronxx' } }] },
      { text: 'Retry.' },
    ]);
    const r = await s.run('x');
    expect(r.traces[0]?.errorCode).toBe('invalid_arguments');
    const content = (model.calls[1]?.messages.at(-1) as { content: string }).content;
    expect(content).toContain('/city');
    expect(content).toContain('Queens');
  });

  it('answers malformed JSON, and the model can retry in the same turn', async () => {
    const calls: unknown[] = [];
    const { s } = session(
      [
        { tool_calls: [{ name: 'book', args: '{"city":"Bronx",}' }] },
        { tool_calls: [{ name: 'book', args: { city: 'Bronx' } }] },
        { text: 'ok' },
      ],
      { actions: { book: (a) => (calls.push(a), 'booked') } },
    );
    const r = await s.run('x');
    expect(r.traces.map((t) => t.errorCode ?? 'ok')).toEqual(['invalid_arguments', 'ok']);
    expect(calls).toHaveLength(1);
    assertHistoryIntegrity(r.state.history);
  });

  it('turns a missing template value into a tool error when asked to', async () => {
    const { s } = session([{ tool_calls: [{ name: 'strict_tpl' }] }, { text: 'ok' }], {
      onMissingTemplateValue: 'error',
    });
    const r = await s.run('x');
    expect(r.traces[0]?.errorCode).toBe('missing_template_value');
  });

  it('never throws when a host action throws', async () => {
    const { s } = session(
      [{ tool_calls: [{ name: 'book', args: { city: 'Bronx' } }] }, { text: 'oops' }],
      {
        actions: {
          book: () => {
            throw new Error('database down');
          },
        },
      },
    );
    const r = await s.run('x');
    expect(r.traces[0]).toMatchObject({ isError: true, errorCode: 'handler_error' });
    expect(r.content).toBe('oops');
  });

  it('runs parallel calls concurrently and appends results in call order', async () => {
    const order: string[] = [];
    const { s } = session(
      [
        {
          tool_calls: [
            { name: 'book', args: { city: 'Bronx' }, id: 'a' },
            { name: 'note', args: { text: 'n' }, id: 'b' },
            { name: 'nope', id: 'c' },
          ],
        },
        { text: 'ok' },
      ],
      {
        actions: {
          book: async () => {
            await new Promise((r) => setTimeout(r, 30));
            order.push('book');
            return 'slow';
          },
        },
      },
    );
    const r = await s.run('x');
    expect(r.traces.map((t) => t.callId)).toEqual(['a', 'b', 'c']);
    const tail = r.state.history.slice(1, 5);
    expect(tail.map((m) => (m.role === 'tool' ? m.tool_call_id : m.role))).toEqual([
      'assistant',
      'a',
      'b',
      'c',
    ]);
    const resultEvents = r.events
      .filter((e) => e.type === 'tool-result' || e.type === 'tool-error')
      .map((e) => ('callId' in e ? e.callId : ''));
    expect(resultEvents).toEqual(['a', 'b', 'c']);
    assertHistoryIntegrity(r.state.history);
  });

  it('replaces duplicate or empty tool call ids so each is answered once', async () => {
    const { s } = session([
      {
        tool_calls: [
          { name: 'note', args: { text: '1' }, id: 'same' },
          { name: 'note', args: { text: '2' }, id: 'same' },
          { name: 'note', args: { text: '3' }, id: '' },
        ],
      },
      { text: 'ok' },
    ]);
    const r = await s.run('x');
    const ids = r.traces.map((t) => t.callId);
    expect(new Set(ids).size).toBe(3);
    expect(ids[0]).toBe('same');
    assertHistoryIntegrity(r.state.history);
  });

  it('stops after maxToolRounds with a max-rounds event, history intact', async () => {
    const loop = Array.from({ length: 3 }, () => ({
      tool_calls: [{ name: 'note', args: { text: 'again' } }],
    }));
    const { model, s } = session(loop, { maxToolRounds: 3 });
    const r = await s.run('x');
    expect(r.events.filter((e) => e.type === 'max-rounds')).toEqual([
      { type: 'max-rounds', rounds: 3 },
    ]);
    expect(r.events.at(-1)?.type).toBe('turn-end');
    expect(r.traces).toHaveLength(3);
    model.assertComplete();
    assertHistoryIntegrity(r.state.history);
    expect(s.toJSON().history.at(-1)?.role).toBe('tool');
  });

  it('with finalAnswerAfterMaxRounds the last answer is shown no tool, and a call it makes anyway is not run', async () => {
    let booked = 0;
    const { model, s } = session(
      [
        { tool_calls: [{ name: 'note', args: { text: 'again' } }] },
        { text: 'Done.', tool_calls: [{ name: 'book', args: { city: 'Bronx' } }] },
      ],
      {
        maxToolRounds: 1,
        finalAnswerAfterMaxRounds: true,
        actions: { book: () => (booked++, { id: 1 }) },
      },
    );
    const r = await s.run('x');
    expect(r.events.filter((e) => e.type === 'max-rounds')).toEqual([
      { type: 'max-rounds', rounds: 1, finalAnswer: true },
    ]);
    expect(model.calls[1]?.tools).toEqual([]);
    expect(booked).toBe(0);
    expect(r.traces[1]).toMatchObject({ tool: 'book', isError: true, errorCode: 'unknown_tool' });
    expect(r.content).toBe('Done.');
    model.assertComplete();
    assertHistoryIntegrity(r.state.history);
  });

  it('applies context effects: language event, say event, vars.session.language', async () => {
    const { model, s } = session(
      [
        { tool_calls: [{ name: 'set_language', args: { language: 'es-us', say: 'Hola' } }] },
        { text: 'Listo' },
      ],
      { languages: ['en-US', 'es-US'], prompt: 'Speak {{vars.session.language}}' },
    );
    const r = await s.run('español');
    const types = r.events.map((e) => e.type);
    expect(types.indexOf('say')).toBeLessThan(types.lastIndexOf('text-delta'));
    expect(r.events).toContainEqual({ type: 'language', from: 'en-US', to: 'es-US' });
    expect(r.events).toContainEqual({
      type: 'say',
      text: 'Hola',
      source: 'tool',
      tool: 'set_language',
      speechId: expect.stringMatching(/^sp_\d+$/),
    });
    expect(r.state.language).toBe('es-US');
    expect(model.calls[0]?.messages[0]).toEqual({ role: 'system', content: 'Speak en-US' });
    expect(model.calls[1]?.messages[0]).toEqual({ role: 'system', content: 'Speak es-US' });
  });

  it('makes a language event only when the language changes', async () => {
    const { s } = session(
      [
        { tool_calls: [{ name: 'set_language', args: { language: 'en-us' } }] },
        {
          // Two switches in one answer: both run before either applies; one change, one event.
          tool_calls: [
            { name: 'set_language', args: { language: 'es-US' } },
            { name: 'set_language', args: { language: 'es-us' } },
          ],
        },
        { text: 'Listo' },
      ],
      { languages: ['en-US', 'es-US'] },
    );
    const r = await s.run('english, then spanish');
    expect(r.traces.map((t) => t.isError)).toEqual([false, false, false]);
    expect(r.events.filter((e) => e.type === 'language')).toEqual([
      { type: 'language', from: 'en-US', to: 'es-US' },
    ]);
    expect(r.state.language).toBe('es-US');
  });

  it('applies language switches of one answer in call order: the last one holds', async () => {
    const { s } = session(
      [
        {
          tool_calls: [
            { name: 'set_language', args: { language: 'es-US' } },
            { name: 'set_language', args: { language: 'en-US' } },
          ],
        },
        { text: 'English it is' },
      ],
      { languages: ['en-US', 'es-US'] },
    );
    const r = await s.run('spanish, no, english');
    expect(r.events.filter((e) => e.type === 'language')).toEqual([
      { type: 'language', from: 'en-US', to: 'es-US' },
      { type: 'language', from: 'es-US', to: 'en-US' },
    ]);
    expect(r.state.language).toBe('en-US');
  });

  it('refuses a language outside the declared ones as a tool error', async () => {
    const { s } = session(
      [{ tool_calls: [{ name: 'set_language', args: { language: 'fr-FR' } }] }, { text: 'no' }],
      { languages: ['en-US'] },
    );
    const r = await s.run('x');
    expect(r.traces[0]?.errorCode).toBe('invalid_language');
    expect(r.state.language).toBe('en-US');
  });

  it('sets vars from an action and renders them in the next prompt', async () => {
    const { model, s } = session([{ tool_calls: [{ name: 'to_billing' }] }, { text: 'ok' }], {
      prompt: 'Account {{vars.account}}',
      actions: { to_billing: () => actionResult({ vars: { account: 'A-1' }, result: 'ok' }) },
    });
    const r = await s.run('x');
    expect(r.events).toContainEqual({ type: 'vars', vars: { account: 'A-1' } });
    expect(r.state.vars['account']).toBe('A-1');
    expect(model.calls[1]?.messages[0]).toEqual({ role: 'system', content: 'Account A-1' });
  });

  it('ends the session when an action says so, without calling the model again', async () => {
    const { model, s } = session([{ text: 'Bye!', tool_calls: [{ name: 'hangup' }] }], {
      actions: { hangup: () => actionResult({ endSession: { reason: 'caller hung up' } }) },
    });
    const r = await s.run('bye');
    expect(r.events.slice(-2)).toEqual([
      { type: 'turn-end', content: 'Bye!', timings: r.timings },
      { type: 'session-end', reason: 'caller hung up' },
    ]);
    expect(s.ended).toBe(true);
    expect(r.state.ended).toBe(true);
    model.assertComplete();
    expect(() => s.send('hello?')).toThrow(SessionEndedError);
  });

  it('when two calls of one answer end the session, the first one’s reason is kept', async () => {
    const { s } = session(
      [
        {
          tool_calls: [
            { name: 'hangup', id: 'h' },
            { name: 'book', args: { city: 'Bronx' }, id: 'b' },
          ],
        },
      ],
      {
        actions: {
          hangup: () => actionResult({ endSession: { reason: 'caller hung up' } }),
          book: () => actionResult({ endSession: { reason: 'booked, nothing left to do' } }),
        },
      },
    );
    const r = await s.run('bye');
    expect(r.events.at(-1)).toEqual({ type: 'session-end', reason: 'caller hung up' });
  });

  it('ends the turn with a model-error event and rejects result with a ModelError', async () => {
    const { s } = session([{ error: 'upstream exploded' }, { text: 'recovered' }]);
    const stream = s.send('x');
    const types: string[] = [];
    for await (const e of stream) types.push(e.type);
    expect(types).toEqual(['turn-start', 'model-error']);
    const err = await stream.result.catch((e: unknown) => e);
    expect(isModelError(err)).toBe(true);
    expect((err as Error).message).toContain('upstream exploded');
    // The session stays usable.
    expect((await s.run('again')).content).toBe('recovered');
  });

  it('the model-error event carries the tokens of the turn’s model calls before the failure', async () => {
    const { s } = session([
      {
        tool_calls: [{ name: 'note', args: { text: 'a' } }],
        usage: { inputTokens: 40, outputTokens: 3 },
      },
      {
        tool_calls: [{ name: 'note', args: { text: 'b' } }],
        usage: { inputTokens: 50, outputTokens: 4 },
      },
      { error: 'upstream exploded' },
    ]);
    const errors: SessionEvent[] = [];
    const stream = s.send('x');
    for await (const e of stream) if (e.type === 'model-error') errors.push(e);
    await stream.result.catch(() => undefined);
    expect(errors).toEqual([
      expect.objectContaining({ code: 'http_status', usage: { inputTokens: 90, outputTokens: 7 } }),
    ]);
  });

  it('a failed turn whose host only iterates raises no unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const record = (reason: unknown): void => {
      unhandled.push(reason);
    };
    process.on('unhandledRejection', record);
    try {
      const { s } = session([{ error: 'upstream exploded' }]);
      const types: string[] = [];
      // The host never looks at `result`.
      for await (const e of s.send('x')) types.push(e.type);
      expect(types).toEqual(['turn-start', 'model-error']);
      // Unhandled rejections are reported after the microtask queue drains.
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', record);
    }
  });

  it('fails loudly when the scripted model is called beyond its script', async () => {
    const { s } = session([{ tool_calls: [{ name: 'note', args: { text: 'x' } }] }]);
    await expect(s.run('x')).rejects.toThrow(/script has only 1 step/);
  });

  it('serialises turns sent concurrently', async () => {
    const { model, s } = session([{ text: 'one', delayMs: 20 }, { text: 'two' }]);
    const [a, b] = await Promise.all([s.run('first'), s.run('second')]);
    expect([a.content, b.content]).toEqual(['one', 'two']);
    expect(model.calls[1]?.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
  });

  it('keeps names like __proto__ and constructor as ordinary tool names', async () => {
    const set = toolSet({ name: '__proto__' }, { name: 'constructor' });
    const model = new ScriptedModel(
      [
        { tool_calls: [{ name: '__proto__' }, { name: 'constructor' }, { name: 'toString' }] },
        { text: 'ok' },
      ],
      { record: true },
    );
    const s = createSession({
      tools: set,
      model,
      actions: new Map([
        ['__proto__', () => 'p'],
        ['constructor', () => 'c'],
      ]),
    });
    const r = await s.run('x');
    expect(r.traces.map((t) => t.output)).toEqual([
      'p',
      'c',
      expect.objectContaining({ error: expect.objectContaining({ code: 'unknown_tool' }) }),
    ]);
  });

  it('sends tools in OpenAI format with static parameters hidden', async () => {
    const { model, s } = session([{ text: 'hi' }]);
    await s.run('x');
    const book = model.calls[0]?.tools.find((t) => t.function.name === 'book');
    expect(book?.function.parameters).not.toHaveProperty('properties.units');
    expect(book?.type).toBe('function');
  });
});

describe('hostile arguments through the whole pipeline', () => {
  it('keeps __proto__ / constructor arguments as data and poisons no global', async () => {
    const { assertNoPoisoning, restoreGlobals } = await import('@fast-check/poisoning');
    const seen: unknown[] = [];
    const set = toolSet({ name: 'open', properties: {} });
    const model = new ScriptedModel(
      [
        {
          tool_calls: [
            {
              name: 'open',
              args: '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"polluted":1}}}',
            },
            { name: 'open', args: '{"toString":"x","hasOwnProperty":"y","valueOf":1}' },
          ],
        },
        { text: 'ok' },
      ],
      { record: true },
    );
    const s = createSession({
      tools: set,
      model,
      actions: { open: (args) => (seen.push(args), 'ok') },
    });
    try {
      const r = await s.run('x');
      expect(r.traces.every((t) => !t.isError)).toBe(true);
      expect(Object.hasOwn(seen[0] as object, '__proto__')).toBe(true);
      expect((seen[1] as Record<string, unknown>)['toString']).toBe('x');
      expect(({} as Record<string, unknown>)['isAdmin']).toBeUndefined();
      assertNoPoisoning();
    } finally {
      restoreGlobals();
    }
  });

  it('answers oversized and over-deep arguments with invalid_arguments, session continues', async () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const { s } = session(
      [
        {
          tool_calls: [
            { name: 'note', args: `{"text":"${'x'.repeat(300_000)}"}` },
            { name: 'note', args: `{"text":${deep}}` },
          ],
        },
        { text: 'recovered' },
      ],
      {},
    );
    const r = await s.run('x');
    expect(r.traces.map((t) => t.errorCode)).toEqual(['invalid_arguments', 'invalid_arguments']);
    expect(r.content).toBe('recovered');
  });
});
