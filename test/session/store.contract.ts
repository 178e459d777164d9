// The contract every SessionStore implementation must pass. Call it from a *.test.ts file with a
// factory that returns an empty store.
import { describe, expect, it } from 'vitest';
import type { SessionState, SessionStore } from '../../src/session/types.js';

function state(id: string, extra: Partial<SessionState> = {}): SessionState {
  return {
    version: 1,
    id,
    language: 'en-US',
    vars: { 'vars.hospital': 'Queens', nested: { a: [1, 2] } },
    history: [
      { role: 'user', content: 'hi' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 't', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: '{"ok":true}' },
    ],
    turns: 1,
    ended: false,
    ...extra,
  };
}

export function sessionStoreContract(
  name: string,
  create: () => SessionStore | Promise<SessionStore>,
): void {
  describe(`SessionStore contract: ${name}`, () => {
    it('returns undefined for an unknown id', async () => {
      const store = await create();
      expect(await store.get('nope')).toBeUndefined();
    });
    it('round-trips a state exactly', async () => {
      const store = await create();
      const s = state('a', { agent: 'billing' });
      await store.set(s);
      expect(await store.get('a')).toEqual(s);
    });
    it('overwrites on set and keeps sessions apart', async () => {
      const store = await create();
      await store.set(state('a'));
      await store.set(state('b', { language: 'es-US' }));
      await store.set(state('a', { turns: 2 }));
      expect((await store.get('a'))?.turns).toBe(2);
      expect((await store.get('b'))?.language).toBe('es-US');
    });
    it('deletes, and deleting an unknown id is fine', async () => {
      const store = await create();
      await store.set(state('a'));
      await store.delete('a');
      await store.delete('never-stored');
      expect(await store.get('a')).toBeUndefined();
    });
    it('shares no objects with the caller in either direction', async () => {
      const store = await create();
      const s = state('a');
      await store.set(s);
      s.vars['late'] = 1;
      s.history.push({ role: 'user', content: 'late' });
      const got = await store.get('a');
      expect(got?.vars).not.toHaveProperty('late');
      expect(got?.history).toHaveLength(3);
      if (got !== undefined) got.vars['mutated'] = true;
      expect((await store.get('a'))?.vars).not.toHaveProperty('mutated');
    });
    it('treats ids like __proto__ and constructor as ordinary ids', async () => {
      const store = await create();
      await store.set(state('__proto__'));
      await store.set(state('constructor'));
      expect((await store.get('__proto__'))?.id).toBe('__proto__');
      expect((await store.get('constructor'))?.id).toBe('constructor');
      expect(await store.get('toString')).toBeUndefined();
    });
  });
}
