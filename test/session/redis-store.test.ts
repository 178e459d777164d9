// RedisSessionStore against a real redis-server (started by test/global-setup.ts, or REDIS_URL):
// the SessionStore contract, revisions, leases, TTLs and snapshot checks.
import { randomUUID } from 'node:crypto';
import { createClient } from 'redis';
import { describe, expect, it } from 'vitest';
import { createSession, resumeSession } from '../../src/session/create-session.js';
import {
  InvalidSnapshotError,
  SessionBusyError,
  StaleSessionError,
} from '../../src/session/coordination.js';
import { RedisSessionStore, type RedisSessionStoreOptions } from '../../src/redis/redis-store.js';
import type { SessionState } from '../../src/session/types.js';
import { ScriptedModel } from '../../src/testing.js';
import { clinicTools } from './fixtures.js';
import { sessionStoreContract } from './store.contract.js';
import { redisTestClient } from './redis-test-client.js';

const { url, raw, stores } = await redisTestClient();

/** A store on its own key prefix (tests share one Redis) and its own connection. */
async function store(
  options: RedisSessionStoreOptions = {},
): Promise<RedisSessionStore & { prefix: string }> {
  const prefix = `test:${randomUUID()}:`;
  const s = await RedisSessionStore.connect({ url, keyPrefix: prefix, ...options });
  stores.push(s);
  return Object.assign(s, { prefix });
}

function state(id: string, extra: Partial<SessionState> = {}): SessionState {
  return {
    version: 1,
    id,
    language: 'en-US',
    vars: {},
    history: [],
    turns: 0,
    ended: false,
    ...extra,
  };
}

const tools = await clinicTools();

sessionStoreContract('RedisSessionStore', () => store());

describe('RedisSessionStore', () => {
  it('keeps sessions for ttlSecs and ended ones for endedTtlSecs', async () => {
    const s = await store({ ttlSecs: 1000, endedTtlSecs: 10 });
    await s.set(state('live'));
    await s.set(state('done', { ended: true }));
    const live = await raw.pTTL(`${s.prefix}s:live`);
    const done = await raw.pTTL(`${s.prefix}s:done`);
    expect(live).toBeGreaterThan(900_000);
    expect(done).toBeGreaterThan(0);
    expect(done).toBeLessThanOrEqual(10_000);
  });

  it('saves a turn under a lease and refuses a stale copy with a typed error', async () => {
    const s = await store();
    const model = () => new ScriptedModel([{ text: 'one' }, { text: 'two' }]);
    const a = createSession({ tools, model: model(), store: s, id: 'x' });
    await a.run('hi');
    const b = await resumeSession('x', { tools, model: model(), store: s });
    await b?.run('from b');
    const error = await a.run('from a, stale').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StaleSessionError);
    expect(error).toMatchObject({ code: 'stale_session', expected: 1, actual: 2 });
    expect((await s.get('x'))?.history.map((m) => m.content)).toEqual([
      'hi',
      'one',
      'from b',
      'one',
    ]);
  });

  it('refuses a new session whose id is already stored', async () => {
    const s = await store();
    await s.set(state('taken'));
    const fresh = createSession({
      tools,
      model: new ScriptedModel([{ text: 'x' }]),
      store: s,
      id: 'taken',
    });
    await expect(fresh.run('hi')).rejects.toBeInstanceOf(StaleSessionError);
  });

  it('runs one turn of a session at a time across stores; a second send waits for the lease', async () => {
    const s1 = await store();
    const s2 = await RedisSessionStore.connect({ url, keyPrefix: s1.prefix });
    stores.push(s2);
    let release = (): void => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const a = createSession({
      tools,
      id: 'busy',
      store: s1,
      model: new ScriptedModel([{ tool_calls: [{ name: 'to_billing' }] }, { text: 'a done' }]),
      actions: { to_billing: () => gate.then(() => 'ok') },
    });
    const first = a.run('a');
    await new Promise((r) => setTimeout(r, 50));
    const order: string[] = [];
    const b = createSession({
      tools,
      id: 'busy',
      store: s2,
      model: new ScriptedModel([{ text: 'b' }]),
    });
    // b's copy is new (revision 0) while a saves revision 1: b waits for the lease, then is stale.
    const second = b.run('b').catch((e: unknown) => {
      order.push('b');
      return e;
    });
    await new Promise((r) => setTimeout(r, 100));
    order.push('a released');
    release();
    await first;
    expect(await second).toBeInstanceOf(StaleSessionError);
    expect(order).toEqual(['a released', 'b']);
  });

  it('fails clearly when the lease stays taken past leaseWaitMs', async () => {
    const s = await store({ leaseWaitMs: 100, leaseTtlMs: 5_000 });
    const lease = await s.coordination.acquire('held');
    const session = createSession({ tools, id: 'held', store: s, model: new ScriptedModel([]) });
    const error = await session.run('hi').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionBusyError);
    expect((error as Error).message).toMatch(/session held is running a turn in another process/);
    await lease.release();
  });

  it('frees the lease of a dead holder after leaseTtlMs', async () => {
    const s = await store({ leaseTtlMs: 300, leaseWaitMs: 5_000 });
    // A holder that never renews: the lease key written directly, as a killed process leaves it.
    await raw.set(`${s.prefix}l:orphan`, 'dead-token', { PX: 300 });
    const started = Date.now();
    const session = createSession({
      tools,
      id: 'orphan',
      store: s,
      model: new ScriptedModel([{ text: 'ok' }]),
    });
    expect((await session.run('hi')).content).toBe('ok');
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
  });

  it('refuses tampered, foreign and malformed snapshots on load', async () => {
    const s = await store({ secret: 'k1' });
    const hello = { role: 'user' as const, content: 'refund 1' };
    await s.set(state('a', { vars: { balance: 1 }, history: [hello] }));
    const key = `${s.prefix}s:a`;
    const head = (await raw.hGet(key, 'head')) ?? '';
    await raw.hSet(key, 'head', head.replace('"balance":1', '"balance":1000000'));
    await expect(s.get('a')).rejects.toThrow(/session a refused: its signature does not match/);
    await expect(
      resumeSession('a', { tools, model: new ScriptedModel([]), store: s }),
    ).rejects.toBeInstanceOf(InvalidSnapshotError);

    // A history message altered, dropped or added breaks the chain the signature covers.
    await s.set(state('m', { history: [hello] }));
    await raw.lSet(`${s.prefix}m:m`, 0, JSON.stringify({ ...hello, content: 'refund 1000' }));
    await expect(s.get('m')).rejects.toThrow(/session m refused: its signature does not match/);
    await s.set(state('m2', { history: [hello, hello] }));
    await raw.rPop(`${s.prefix}m:m2`);
    await expect(s.get('m2')).rejects.toThrow(/holds 1 messages where 2 were saved/);

    const other = await RedisSessionStore.connect({ url, keyPrefix: s.prefix, secret: 'k2' });
    stores.push(other);
    await s.set(state('b'));
    await expect(other.get('b')).rejects.toThrow(/signature does not match/);

    const plain = await store();
    const { history: _h, ...headOfC } = state('c');
    await raw.hSet(`${plain.prefix}s:d`, { rev: '1', head: JSON.stringify(headOfC), n: '0' });
    await expect(plain.get('d')).rejects.toThrow(
      /snapshot of session d refused: it belongs to session "c"/,
    );
    await raw.hSet(`${plain.prefix}s:e`, { rev: '1', head: '{"id":"e","version":2}', n: '0' });
    await expect(plain.get('e')).rejects.toThrow(
      /session e refused: invalid session state:\s+version: Invalid input: expected 1/,
    );
    await raw.hSet(`${plain.prefix}s:f`, { rev: '1', head: 'not json', n: '0' });
    await expect(plain.get('f')).rejects.toMatchObject({ code: 'invalid_snapshot' });
    await plain.set(state('g', { history: [hello] }));
    await raw.lSet(`${plain.prefix}m:g`, 0, '{"role":');
    await expect(plain.get('g')).rejects.toThrow(/session g refused: it is not JSON/);
  });
});

describe('RedisSessionStore saves only what a turn added', () => {
  /** A store whose client records the arguments of every save script. */
  async function countingStore(
    options: RedisSessionStoreOptions = {},
    prefix = `test:${randomUUID()}:`,
  ) {
    const client = createClient({ url });
    client.on('error', () => undefined);
    await client.connect();
    const saves: string[][] = [];
    const counting = {
      eval(script: string, o: { keys: string[]; arguments: string[] }): Promise<unknown> {
        if (o.keys.length === 4) saves.push(o.arguments);
        return client.eval(script, o);
      },
    };
    const s = new RedisSessionStore({ client: counting, keyPrefix: prefix, ...options });
    stores.push(Object.assign(s, { close: () => client.close() }));
    return { s, saves, prefix };
  }
  /** The messages a save appended: its arguments after token, revision and six fixed ones. */
  const appended = (args: readonly string[]): unknown[] =>
    args.slice(8).map((m) => JSON.parse(m) as unknown);

  for (const secret of [undefined, 'k1']) {
    it(`turn N writes its own messages only, and the history reads back whole (${secret === undefined ? 'unsigned' : 'signed'})`, async () => {
      const { s, saves } = await countingStore(secret === undefined ? {} : { secret });
      const replies = Array.from({ length: 12 }, (_, i) => ({ text: `answer ${i + 1}` }));
      const session = createSession({
        tools,
        model: new ScriptedModel(replies),
        store: s,
        id: 'long',
      });
      for (let i = 1; i <= 12; i++) await session.run(`question ${i}`);
      expect(saves).toHaveLength(12);
      // The first save writes the whole (two-message) history; every later one keeps what is
      // stored (its kept count is the stored count) and appends two messages.
      expect(saves.map((a) => Number(a[5]))).toEqual([0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22]);
      expect(appended(saves[11] ?? [])).toEqual([
        { role: 'user', content: 'question 12' },
        { role: 'assistant', content: 'answer 12' },
      ]);
      const stored = await s.get('long');
      expect(stored?.history).toHaveLength(24);
      expect(stored?.history.map((m) => m.content)).toEqual(
        Array.from({ length: 12 }, (_, i) => [`question ${i + 1}`, `answer ${i + 1}`]).flat(),
      );
    });
  }

  it('a session resumed by another process extends the stored history; a stale copy is refused', async () => {
    const here = await countingStore({ secret: 'k1' });
    const there = await countingStore({ secret: 'k1' }, here.prefix);
    const model = () => new ScriptedModel([{ text: 'one' }, { text: 'two' }]);
    const a = createSession({ tools, model: model(), store: here.s, id: 'r' });
    await a.run('hi');
    const b = await resumeSession('r', { tools, model: model(), store: there.s });
    await b?.run('again');
    await b?.run('and again');
    expect(here.saves.map((x) => Number(x[5]))).toEqual([0]);
    expect(there.saves.map((x) => Number(x[5]))).toEqual([2, 4]);
    await expect(a.run('stale')).rejects.toBeInstanceOf(StaleSessionError);
    expect((await here.s.get('r'))?.history.map((m) => m.content)).toEqual([
      'hi',
      'one',
      'again',
      'one',
      'and again',
      'two',
    ]);
  });

  it('a plain set() rewrites the whole history', async () => {
    const s = await store();
    const m = (content: string) => ({ role: 'user' as const, content });
    await s.set(state('p', { history: [m('1'), m('2'), m('3')] }));
    await s.set(state('p', { history: [m('x')] }));
    expect((await s.get('p'))?.history).toEqual([m('x')]);
    expect(await raw.lLen(`${s.prefix}m:p`)).toBe(1);
  });
});

describe('RedisSessionStore sends its scripts by SHA-1', () => {
  it('runs each script with EVALSHA, and its text again only after Redis lost it (NOSCRIPT)', async () => {
    const client = createClient({ url });
    client.on('error', () => undefined);
    await client.connect();
    const sent: string[] = [];
    const recording = {
      eval(script: string, o: { keys: string[]; arguments: string[] }): Promise<unknown> {
        sent.push('EVAL');
        return client.eval(script, o);
      },
      evalSha(sha: string, o: { keys: string[]; arguments: string[] }): Promise<unknown> {
        sent.push('EVALSHA');
        return client.evalSha(sha, o);
      },
    };
    const s = new RedisSessionStore({ client: recording, keyPrefix: `test:${randomUUID()}:` });
    stores.push(Object.assign(s, { close: () => client.close() }));
    await s.set(state('a', { turns: 1 }));
    sent.length = 0;
    await s.set(state('a', { turns: 2 }));
    expect(sent).toEqual(['EVALSHA']);
    // A restarted or flushed Redis has no scripts: the call is sent again with the text, once.
    await raw.scriptFlush();
    sent.length = 0;
    await s.delete('a');
    expect(sent).toEqual(['EVALSHA', 'EVAL']);
    expect(await s.get('a')).toBeUndefined();
    await s.set(state('a', { turns: 3 }));
    expect((await s.get('a'))?.turns).toBe(3);
  });

  it('sends raw EVALSHA from the client connect() made, and the text again after NOSCRIPT', async () => {
    const s = await store();
    await s.set(state('a', { turns: 1 }));
    await raw.scriptFlush();
    // Every script (load, lease, journal, save) meets NOSCRIPT once on the raw command path.
    await s.set(state('a', { turns: 2 }));
    expect((await s.get('a'))?.turns).toBe(2);
    await raw.scriptFlush();
    const tools = await clinicTools();
    const session = createSession({
      tools,
      id: 'a2',
      store: s,
      model: new ScriptedModel([{ text: 'hello' }]),
    });
    await session.run('hi');
    expect((await s.get('a2'))?.turns).toBe(1);
    expect(await raw.exists(`${s.prefix}l:a2`)).toBe(0);
    // A script Redis refuses (an error that is not NOSCRIPT) is the store's error, naming the session.
    await raw.set(`${s.prefix}s:b`, 'not a hash');
    await expect(s.get('b')).rejects.toMatchObject({ code: 'store_failed', sessionId: 'b' });
  });
});
