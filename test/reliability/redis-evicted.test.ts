// A session's Redis keys do not always go together: an eviction policy (allkeys-lru,
// volatile-lru) or a hand's DEL removes one key, not the session. A live copy's save must not
// extend a history list that is no longer there: that left `n` saying 8 messages over a list of 4,
// and every later resume of the session refused it.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSession } from '../../src/session/create-session.js';
import { resumeSession } from '../../src/session/restore-session.js';
import { StaleSessionError } from '../../src/session/coordination.js';
import { RedisSessionStore } from '../../src/redis/redis-store.js';
import { ScriptedModel } from '../../src/testing.js';
import { clinicTools } from '../session/fixtures.js';
import { redisTestClient } from '../session/redis-test-client.js';

const { url, raw, stores } = await redisTestClient();
const tools = await clinicTools();

async function store() {
  const prefix = `evicted:${randomUUID()}:`;
  const s = await RedisSessionStore.connect({ url, keyPrefix: prefix });
  stores.push(s);
  return Object.assign(s, { prefix });
}

describe("a session's keys evicted between turns", () => {
  it('the history list evicted: the live copy saves its whole history again, and the session resumes', async () => {
    const s = await store();
    const model = new ScriptedModel([{ text: 'one' }, { text: 'two' }, { text: 'three' }]);
    const session = createSession({ tools, model, store: s, id: 'e1' });
    await session.run('hi');
    await raw.del(`${s.prefix}m:e1`);
    await session.run('next');
    expect(await raw.lLen(`${s.prefix}m:e1`)).toBe(4);
    const resumed = await resumeSession('e1', { tools, model, store: s });
    expect(resumed?.toJSON().history.map((m) => m.content)).toEqual(['hi', 'one', 'next', 'two']);
    await resumed?.run('more');
    expect((await s.get('e1'))?.history).toHaveLength(6);
  });

  it('the state hash evicted: the live copy is told it is stale, and a new session over the id stores whole', async () => {
    const s = await store();
    const model = () => new ScriptedModel([{ text: 'one' }, { text: 'two' }]);
    const session = createSession({ tools, model: model(), store: s, id: 'e2' });
    await session.run('hi');
    await raw.del(`${s.prefix}s:e2`);
    await expect(session.run('next')).rejects.toBeInstanceOf(StaleSessionError);
    expect(await resumeSession('e2', { tools, model: model(), store: s })).toBeUndefined();
    const fresh = createSession({ tools, model: model(), store: s, id: 'e2' });
    await fresh.run('again');
    expect((await s.get('e2'))?.history.map((m) => m.content)).toEqual(['again', 'one']);
  });
});
