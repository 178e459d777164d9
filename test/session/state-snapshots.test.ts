/**
 * No whole-history copies per round or turn: the model gets one reused, read-only message array;
 * `TurnResult.state` is built when read and is exactly the state at the end of its turn.
 */
import { describe, expect, it } from 'vitest';
import { actionResult } from '../../src/handlers/action-result.js';
import type { ChatMessage, Model, ModelRequest, ModelStreamPart } from '../../src/models/types.js';
import { createSession } from '../../src/session/create-session.js';
import { ModelMessages, StateSnapshots } from '../../src/session/state-snapshots.js';
import { InMemorySessionStore } from '../../src/session/store.js';
import type { SessionState } from '../../src/session/types.js';
import { ScriptedModel } from '../../src/testing.js';
import { clinicTools } from './fixtures.js';

const tools = await clinicTools();

/** A model that keeps the request arrays it was given (by reference) and their lengths. */
class ArrayKeepingModel implements Model {
  readonly name = 'keeper';
  readonly arrays: (readonly ChatMessage[])[] = [];
  readonly lengths: number[] = [];
  readonly #inner: ScriptedModel;
  constructor(inner: ScriptedModel) {
    this.#inner = inner;
  }
  stream(request: ModelRequest): AsyncIterable<ModelStreamPart> {
    this.arrays.push(request.messages);
    this.lengths.push(request.messages.length);
    return this.#inner.stream(request);
  }
}

describe('no whole-history copies', () => {
  it('every model call of a session gets the same array, grown by appending', async () => {
    const model = new ArrayKeepingModel(
      new ScriptedModel([
        { tool_calls: [{ name: 'note', args: { text: 'a' } }] },
        { text: 'one' },
        { text: 'two' },
        { text: 'three' },
      ]),
    );
    const session = createSession({ tools, model, prompt: 'Be brief.' });
    await session.run('first');
    await session.run('second');
    await session.run('third');
    expect(new Set(model.arrays).size).toBe(1);
    // system + user; + assistant call + tool; + answer + user; + answer + user.
    expect(model.lengths).toEqual([2, 4, 6, 8]);
    expect(model.arrays[0]?.slice(0, 2)).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'first' },
    ]);
    expect(model.arrays[0]?.slice(1)).toEqual(session.toJSON().history.slice(0, 7));
  });

  it('system messages that change between rounds are replaced in place', async () => {
    const model = new ScriptedModel(
      [{ tool_calls: [{ name: 'to_billing' }] }, { text: 'done' }, { text: 'again' }],
      { record: true },
    );
    const session = createSession({
      tools,
      model,
      prompt: 'Account {{vars.account}}',
      systemContext: 'ctx',
      actions: { to_billing: () => actionResult({ vars: { account: 'A-2' } }) },
      vars: { account: 'A-1' },
    });
    await session.run('go');
    await session.run('more');
    expect(model.calls.map((c) => c.messages.slice(0, 2).map((m) => m.content))).toEqual([
      ['Account A-1', 'ctx'],
      ['Account A-2', 'ctx'],
      ['Account A-2', 'ctx'],
    ]);
    expect(model.calls[2]?.messages.slice(2)).toEqual(session.toJSON().history.slice(0, 5));
  });

  it('without system messages the model reads the history array itself', async () => {
    const model = new ArrayKeepingModel(new ScriptedModel([{ text: 'one' }, { text: 'two' }]));
    const session = createSession({ tools, model });
    await session.run('first');
    await session.run('second');
    expect(new Set(model.arrays).size).toBe(1);
    expect(model.lengths).toEqual([1, 3]);
    const view = new ModelMessages();
    const history: ChatMessage[] = [{ role: 'user', content: 'a' }];
    expect(view.view([], history, 0)).toBe(history);
    // A later call with system messages gets them in front, in an array of its own.
    const withPrompt = view.view([{ role: 'system', content: 'p' }], history, 0);
    expect(withPrompt).not.toBe(history);
    expect(withPrompt).toEqual([{ role: 'system', content: 'p' }, ...history]);
    expect(history).toEqual([{ role: 'user', content: 'a' }]);
  });

  it('ModelMessages: a changed number of system messages and a rewritten entry are handled', () => {
    const view = new ModelMessages();
    const history: ChatMessage[] = [{ role: 'user', content: 'a' }];
    const sys = (content: string): ChatMessage => ({ role: 'system', content });
    expect(view.view([sys('p')], history, 0)).toEqual([sys('p'), history[0]]);
    history.push({ role: 'assistant', content: 'b' });
    expect(view.view([sys('p'), sys('q')], history, 0)).toEqual([sys('p'), sys('q'), ...history]);
    expect(view.view([], history, 0)).toEqual(history);
    history[0] = { role: 'user', content: 'patched' };
    expect(view.view([sys('p')], history, 1)).toEqual([sys('p'), ...history]);
  });
});

describe('TurnResult.state, built when read', () => {
  it('keeps empty vars empty when a later turn sets one', async () => {
    const model = new ScriptedModel([
      { text: 'one' },
      { tool_calls: [{ name: 'to_billing' }] },
      { text: 'two' },
    ]);
    const session = createSession({
      tools,
      model,
      actions: { to_billing: () => actionResult({ vars: { n: 1 } }) },
    });
    const first = await session.run('first');
    const second = await session.run('second');
    expect(first.state.vars).toEqual({});
    expect(second.state.vars).toEqual({ n: 1 });
    expect(first.state.vars).not.toBe(second.state.vars);
    expect(session.toJSON().vars).toEqual({ n: 1 });
  });

  it('is the state at the end of its turn, even when read after later turns', async () => {
    const model = new ScriptedModel([
      { tool_calls: [{ name: 'to_billing' }] },
      { text: 'one' },
      { tool_calls: [{ name: 'set_language', args: { language: 'es-US' } }] },
      { text: 'dos' },
    ]);
    let n = 0;
    const session = createSession({
      tools,
      model,
      vars: { n: 0, nested: { keep: true } },
      actions: { to_billing: () => actionResult({ vars: { n: ++n, added: 'x' } }) },
    });
    const first = await session.run('first');
    const expected: SessionState = JSON.parse(JSON.stringify(session.toJSON())) as SessionState;
    const second = await session.run('second');
    // Read only now: the session has moved on (more history, language changed).
    expect(first.state).toEqual(expected);
    expect(first.state.vars).toEqual({ n: 1, nested: { keep: true }, added: 'x' });
    expect(first.state.history).toHaveLength(4);
    expect(first.state).toBe(first.state); // built once
    expect(second.state).toEqual(session.toJSON());
    expect(second.state.language).toBe('es-US');
    expect(second.state.turns).toBe(2);
    // The snapshot is a copy: changing it changes nothing in the session.
    first.state.vars['n'] = 99;
    expect(session.toJSON().vars['n']).toBe(1);
  });

  it('is an own enumerable property: keys, JSON and spreads show it, in its place', async () => {
    const session = createSession({ tools, model: new ScriptedModel([{ text: 'hi' }]) });
    const r = await session.run('hello');
    expect(Object.keys(r)).toEqual([
      'content',
      'response_time_secs',
      'traces',
      'propagated',
      'events',
      'usage',
      'state',
      'interrupted',
      'timings',
    ]);
    const json = JSON.parse(JSON.stringify(r)) as { state: SessionState };
    expect(json.state).toEqual(session.toJSON());
    expect({ ...r }.state).toEqual(session.toJSON());
  });

  it('vars written in the next turn do not show in an unread earlier state', async () => {
    let n = 0;
    const session = createSession({
      tools,
      model: new ScriptedModel([
        { tool_calls: [{ name: 'to_billing' }] },
        { text: 'one' },
        { tool_calls: [{ name: 'to_billing' }] },
        { text: 'two' },
      ]),
      actions: { to_billing: () => actionResult({ vars: { n: ++n } }) },
    });
    const first = await session.run('a');
    await session.run('b');
    expect(first.state.vars).toEqual({ n: 1 });
    expect(session.toJSON().vars).toEqual({ n: 2 });
  });

  it('with a store, the stored state and TurnResult.state agree', async () => {
    const store = new InMemorySessionStore();
    const session = createSession({
      tools,
      id: 's-store',
      store,
      model: new ScriptedModel([{ text: 'hi' }]),
    });
    const r = await session.run('hello');
    expect(await store.get('s-store')).toEqual(r.state);
  });

  it('a history entry rewritten after the turn (a late transcript) does not change its state', () => {
    const snapshots = new StateSnapshots();
    const state = {
      id: 's',
      language: 'en-US',
      vars: {},
      agent: undefined,
      history: [{ role: 'user' as const, content: '' }],
      turns: 1,
      ended: false,
      workflows: new Map(),
    };
    const capture = snapshots.capture(state);
    snapshots.replaceHistoryMessage(state, 0, { role: 'user', content: 'late transcript' });
    expect(capture.read().history).toEqual([{ role: 'user', content: '' }]);
    expect(state.history[0]).toEqual({ role: 'user', content: 'late transcript' });
    expect(snapshots.revision).toBe(1);
  });
});

describe('ScriptedModel recording', () => {
  it('keeps requests only with record: true; counts calls either way', async () => {
    const plain = new ScriptedModel([{ text: 'a' }]);
    const recording = new ScriptedModel([{ text: 'a' }], { record: true });
    for (const model of [plain, recording]) {
      const session = createSession({ tools, model });
      await session.run('x');
      await expect(session.run('y')).rejects.toThrow(/only 1 step/);
      expect(model.callCount).toBe(2);
      expect(model.overCalls).toBe(1);
    }
    expect(() => plain.calls).toThrow(/record: true/);
    expect(recording.calls.map((c) => c.step)).toEqual([0, -1]);
    expect(recording.calls[1]?.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
  });
});
