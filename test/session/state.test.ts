import { describe, expect, it } from 'vitest';
import {
  createSession,
  restoreSession,
  resumeSession,
  SessionEndedError,
} from '../../src/session/create-session.js';
import { InMemorySessionStore } from '../../src/session/store.js';
import { ScriptedModel } from '../../src/testing.js';
import { clinicTools } from './fixtures.js';
import { sessionStoreContract } from './store.contract.js';

const tools = await clinicTools();

sessionStoreContract('InMemorySessionStore', () => new InMemorySessionStore());

describe('session state', () => {
  it('round-trips through plain JSON and continues the conversation', async () => {
    const s1 = createSession({
      tools,
      id: 'sess-1',
      model: new ScriptedModel(
        [{ tool_calls: [{ name: 'set_language', args: { language: 'es-US' } }] }, { text: 'Hola' }],
        { record: true },
      ),
      vars: { 'vars.hospital': 'Queens', n: 1 },
    });
    await s1.run('spanish please');
    const json = JSON.stringify(s1.toJSON());
    const state = JSON.parse(json) as ReturnType<typeof s1.toJSON>;
    expect(state).toMatchObject({
      version: 1,
      id: 'sess-1',
      language: 'es-US',
      turns: 1,
      ended: false,
      vars: { n: 1 },
    });

    const model2 = new ScriptedModel([{ text: 'Sí' }], { record: true });
    const s2 = restoreSession(state, { tools, model: model2 });
    expect(s2.id).toBe('sess-1');
    const r = await s2.run('gracias');
    expect(model2.calls[0]?.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'user',
    ]);
    expect(r.state.turns).toBe(2);
    expect(r.state.language).toBe('es-US');
    expect(r.events[0]).toEqual({ type: 'turn-start', turn: 2, user: 'gracias' });
  });

  it('snapshots are independent of the live session', async () => {
    const s = createSession({
      tools,
      model: new ScriptedModel([{ text: 'a' }, { text: 'b' }], { record: true }),
      vars: { x: { deep: 1 } },
    });
    const r1 = await s.run('1');
    await s.run('2');
    expect(r1.state.history).toHaveLength(2);
    expect(s.toJSON().history).toHaveLength(4);
  });

  it('hands out copies: editing session.vars, toJSON() or a turn’s state changes nothing', async () => {
    const s = createSession({
      tools,
      model: new ScriptedModel([{ text: 'a' }]),
      vars: { x: { deep: 1 } },
    });
    const r = await s.run('1');
    (s.vars['x'] as { deep: number }).deep = 2;
    (s.toJSON().vars['x'] as { deep: number }).deep = 3;
    (r.state.vars['x'] as { deep: number }).deep = 4;
    expect(s.vars).toEqual({ x: { deep: 1 } });
    expect(s.toJSON().vars).toEqual({ x: { deep: 1 } });
  });

  it('a state saved after the session ended restores an ended session', async () => {
    const s1 = createSession({ tools, model: new ScriptedModel([]) });
    const state = { ...s1.toJSON(), ended: true };
    const s2 = restoreSession(state, { tools, model: new ScriptedModel([]) });
    expect(s2.ended).toBe(true);
    expect(() => s2.send('hello?')).toThrow(SessionEndedError);
  });

  it('saves to the store after each turn, and resumes from it', async () => {
    const store = new InMemorySessionStore();
    const s = createSession({
      tools,
      store,
      id: 'abc',
      model: new ScriptedModel([{ text: 'one' }], { record: true }),
    });
    await s.run('first');
    expect((await store.get('abc'))?.history).toHaveLength(2);
    const resumed = await resumeSession('abc', {
      tools,
      store,
      model: new ScriptedModel([{ text: 'two' }], { record: true }),
    });
    expect((await resumed?.run('second'))?.state.turns).toBe(2);
    expect(
      await resumeSession('missing', {
        tools,
        store,
        model: new ScriptedModel([], { record: true }),
      }),
    ).toBeUndefined();
  });

  it('refuses malformed state', () => {
    const model = new ScriptedModel([], { record: true });
    expect(() => restoreSession({ version: 2 } as never, { tools, model })).toThrow(/version/);
    expect(() =>
      restoreSession({ version: 1, id: 'x', language: 'en', vars: {}, history: 'no' } as never, {
        tools,
        model,
      }),
    ).toThrow(/history/);
  });
});
