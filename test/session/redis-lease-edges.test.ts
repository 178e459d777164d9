// One lease of the Redis store, seen from Redis: what a crashed turn's journal holds and how long it
// lives, where refused records go, and what a save writes when older messages changed.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createClient } from 'redis';
import { InvalidSnapshotError, SessionBusyError } from '../../src/session/coordination.js';
import { RedisSessionStore, type RedisSessionStoreOptions } from '../../src/redis/redis-store.js';
import type { SessionState } from '../../src/session/types.js';
import { redisTestClient } from './redis-test-client.js';

const { url, raw, stores } = await redisTestClient();

const message = (content: string) => ({ role: 'user' as const, content });
function state(id: string, history: SessionState['history']): SessionState {
  return { version: 1, id, language: 'en-US', vars: {}, history, turns: 1, ended: false };
}

async function store(options: RedisSessionStoreOptions = {}) {
  const prefix = `keys:${randomUUID()}:`;
  const s = await RedisSessionStore.connect({ url, keyPrefix: prefix, ...options });
  stores.push(s);
  return Object.assign(s, { prefix });
}

/** What a process that died mid-turn leaves: turn 1's journal with one call, never saved. */
async function crashedTurn(s: RedisSessionStore, id: string): Promise<void> {
  const lease = await s.coordination.acquire(id);
  await lease.journal(1, 'book me').record({ callId: 'c1', tool: 'book', arguments: '{}' });
  await lease.release();
}

describe('a Redis lease, seen from Redis', () => {
  it("a crashed turn's journal expires after ttlSecs, as its session would", async () => {
    const s = await store({ ttlSecs: 1000 });
    await crashedTurn(s, 'j');
    const ttl = await raw.pTTL(`${s.prefix}j:j`);
    expect(ttl).toBeGreaterThan(900_000);
    expect(ttl).toBeLessThanOrEqual(1_000_000);
  });

  it('keeps the last 100 refused records aside, for ttlSecs; the error names five and counts the rest', async () => {
    const s = await store({ secret: 'k1', ttlSecs: 1000 });
    await crashedTurn(s, 'r');
    const unsigned = Array.from({ length: 130 }, (_, i) =>
      JSON.stringify({ t: 'turn', r: 0, turn: i + 2, userText: `forged ${i}` }),
    );
    await raw.rPush(`${s.prefix}j:r`, unsigned);
    const error = await s.coordination.acquire('r').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidSnapshotError);
    expect((error as InvalidSnapshotError).journalRecords).toHaveLength(130);
    expect((error as Error).message).toMatch(
      /\(record 2: it is not signed(; record \d: it is not signed){4}; and 125 more\)/,
    );
    const aside = await raw.lRange(`${s.prefix}jr:r`, 0, -1);
    expect(aside).toEqual(unsigned.slice(-100));
    const ttl = await raw.pTTL(`${s.prefix}jr:r`);
    expect(ttl).toBeGreaterThan(900_000);
    expect(ttl).toBeLessThanOrEqual(1_000_000);
    // The journal keeps its good record: the crashed call.
    expect(await raw.lLen(`${s.prefix}j:r`)).toBe(2);
  });

  it('a turn journaling two calls before a crash is one open turn with both calls', async () => {
    const s = await store();
    const lease = await s.coordination.acquire('two');
    const journal = lease.journal(1, 'book twice');
    await journal.record({ callId: 'c1', tool: 'book', arguments: '{"n":1}' });
    await journal.record({ callId: 'c2', tool: 'book', arguments: '{"n":2}' });
    await lease.release();
    const next = await s.coordination.acquire('two');
    expect(next.openTurns).toEqual([
      {
        turn: 1,
        userText: 'book twice',
        entries: [
          { callId: 'c1', tool: 'book', arguments: '{"n":1}' },
          { callId: 'c2', tool: 'book', arguments: '{"n":2}' },
        ],
      },
    ]);
    await next.release();
  });

  for (const secret of [undefined, 'k1']) {
    it(`a save that does not vouch for the stored messages rewrites them (${secret === undefined ? 'unsigned' : 'signed'})`, async () => {
      const s = await store(secret === undefined ? {} : { secret });
      const lease = await s.coordination.acquire('w');
      const first = await lease.save(state('w', [message('a'), message('b')]), 0);
      // An older message changed in place (the caller vouches for none): all three are written.
      await lease.finish(state('w', [message('A'), message('b'), message('c')]), first, 0);
      expect((await s.get('w'))?.history).toEqual([message('A'), message('b'), message('c')]);
    });
  }

  it('a second result for a call is refused: the first one stands', async () => {
    const s = await store();
    const lease = await s.coordination.acquire('d');
    const journal = lease.journal(1, 'book');
    await journal.record({ callId: 'c1', tool: 'book', arguments: '{}' });
    await journal.complete('c1', 'booked Q-17');
    await journal.complete('c1', 'SYSTEM OVERRIDE');
    await lease.release();
    const error = await s.coordination.acquire('d').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidSnapshotError);
    expect((error as InvalidSnapshotError).journalRecords).toEqual([
      {
        index: 3,
        reason: 'it is a result for call "c1", which has no journaled call awaiting one',
      },
    ]);
    const next = await s.coordination.acquire('d');
    expect(next.openTurns[0]?.entries).toEqual([
      { callId: 'c1', tool: 'book', arguments: '{}', content: 'booked Q-17' },
    ]);
    await next.release();
  });

  it('a store without a secret reads a journal signed by one that had it (the signature is skipped)', async () => {
    const signed = await store({ secret: 'k1' });
    await crashedTurn(signed, 's');
    const plain = await store({ keyPrefix: signed.prefix });
    const lease = await plain.coordination.acquire('s');
    expect(lease.openTurns).toEqual([
      { turn: 1, userText: 'book me', entries: [{ callId: 'c1', tool: 'book', arguments: '{}' }] },
    ]);
    await lease.release();
  });

  it('a signing store refuses a snapshot with a signature of the wrong length, or an altered chain, as not matching', async () => {
    const plain = await store();
    const signing = await store({ secret: 'k1', keyPrefix: plain.prefix });
    await plain.set(state('u', [message('a')]));
    // Written without a secret: no signature at all.
    await expect(signing.get('u')).rejects.toThrow(
      /session u refused: its signature does not match/,
    );
    // Signed, then the seal cut short.
    await signing.set(state('m', [message('a')]));
    await raw.hSet(`${plain.prefix}s:m`, 'mac', 'abcd');
    await expect(signing.get('m')).rejects.toThrow(
      /session m refused: its signature does not match/,
    );
    await signing.set(state('h', [message('a')]));
    // The messages and the seal as written; only the stored chain value altered.
    await raw.hSet(`${plain.prefix}s:h`, 'hc', 'ab'.repeat(32));
    await expect(signing.get('h')).rejects.toThrow(
      /session h refused: its signature does not match/,
    );
  });

  it('delete() removes the state, the history, the journal and the refused records', async () => {
    const s = await store({ secret: 'k1' });
    await s.set(state('x', [message('a')]));
    await crashedTurn(s, 'x');
    await raw.rPush(`${s.prefix}j:x`, JSON.stringify({ t: 'turn', r: 1, turn: 9, userText: '' }));
    await expect(s.coordination.acquire('x')).rejects.toBeInstanceOf(InvalidSnapshotError);
    const keys = ['s', 'm', 'j', 'jr'].map((k) => `${s.prefix}${k}:x`);
    expect(await raw.exists(keys)).toBe(4);
    await s.delete('x');
    expect(await raw.exists(keys)).toBe(0);
  });

  it('with leaseWaitMs 0, a taken lease fails at the first try, without polling', async () => {
    const client = createClient({ url });
    client.on('error', () => undefined);
    await client.connect();
    let scripts = 0;
    const counting = {
      eval(script: string, o: { keys: string[]; arguments: string[] }): Promise<unknown> {
        scripts++;
        return client.eval(script, o);
      },
    };
    const prefix = `keys:${randomUUID()}:`;
    const s = new RedisSessionStore({ client: counting, keyPrefix: prefix, leaseWaitMs: 0 });
    stores.push(Object.assign(s, { close: () => client.close() }));
    const held = await s.coordination.acquire('busy');
    scripts = 0;
    await expect(s.coordination.acquire('busy')).rejects.toBeInstanceOf(SessionBusyError);
    expect(scripts).toBe(1);
    await held.release();
  });
});
