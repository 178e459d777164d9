/**
 * The on-call memory run, small (bench/session-memory.bench.mjs runs it at 20,000): 500 sessions
 * on one Redis store take a turn with a journaled action call; one in ten is dropped without
 * `close()`. Every session, closed or dropped, is collectable once its turn is done (held by no
 * timer, store or pool), and every key the run left in Redis has a TTL. Checked with WeakRefs and
 * a full GC rather than heap figures, so the outcome does not depend on the machine.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { RedisSessionStore } from '../../src/redis/redis-store.js';
import { createSession } from '../../src/session/create-session.js';
import { ScriptedModel } from '../../src/testing.js';
import { fn } from './fixtures.js';
import { redisTestClient } from './redis-test-client.js';

const { url, raw, stores } = await redisTestClient();
const SESSIONS = 500;
const PREFIX = 'memory-test:';

describe('500 Redis sessions created, closed or dropped', () => {
  it('leaves no session reachable and no key without a TTL', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const store = await RedisSessionStore.connect({ url, keyPrefix: PREFIX });
    stores.push(store);
    const tools = await loadTools([{ type: 'action', tool: fn('book', {}) }]);
    const actions = { book: async () => ({ booked: true }) };
    const sessions: WeakRef<object>[] = [];
    const one = async (i: number): Promise<void> => {
      const session = createSession({
        tools,
        actions,
        store,
        id: `m${i}`,
        model: new ScriptedModel([{ tool_calls: [{ name: 'book' }] }, { text: 'booked' }]),
      });
      sessions.push(new WeakRef(session));
      await session.run('book me');
      if (i % 10 !== 0) await session.close();
    };
    for (let start = 0; start < SESSIONS; start += 100)
      await Promise.all(Array.from({ length: 100 }, (_, i) => one(start + i)));

    // A WeakRef's target lives to the end of the task that made it, and a session is held until
    // its last store command is answered: collect again while some are still reachable, a few
    // rounds at most. A session that is really held stays reachable through every round.
    const reachable = (): number => sessions.filter((s) => s.deref() !== undefined).length;
    for (let round = 0; round < 50; round++) {
      await new Promise((r) => setTimeout(r, round === 0 ? 0 : 20));
      gc();
      if (reachable() === 0) break;
    }
    expect(reachable()).toBe(0);

    const keys: string[] = [];
    for await (const page of raw.scanIterator({ MATCH: `${PREFIX}*`, COUNT: 1000 }))
      keys.push(...page);
    // A state hash and a history list per session (the journal is gone once the turn is saved).
    expect(keys.length).toBe(2 * SESSIONS);
    const ttls = await Promise.all(keys.map((k) => raw.pTTL(k)));
    expect(keys.filter((_, i) => (ttls[i] ?? -1) < 0)).toEqual([]);
  }, 20_000);
});
