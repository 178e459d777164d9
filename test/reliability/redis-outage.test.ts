// A Redis that goes away under live sessions: a turn fails at once with a SessionStoreFailedError
// naming the session (no command is queued to run later, nothing is half-applied), and the store
// works again once Redis is back.
import { createServer } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, describe, expect, inject, it, vi } from 'vitest';
import { SessionStoreFailedError, StaleSessionError } from '../../src/session/coordination.js';
import { createSession } from '../../src/session/create-session.js';
import { RedisSessionStore } from '../../src/redis/redis-store.js';
import { CommandDeadline, RedisNoAnswerError } from '../../src/redis/command-deadline.js';
import { ScriptedModel } from '../../src/testing.js';
import { startRedisServer, type RedisServer } from '../redis-server.js';
import { clinicTools } from '../session/fixtures.js';

const tools = await clinicTools();
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

describe('RedisSessionStore when Redis goes away', () => {
  it('fails the turn with SessionStoreFailedError, keeps the session as it was, and recovers', async () => {
    let server: RedisServer = await startRedisServer();
    cleanups.push(() => server.stop());
    const store = await RedisSessionStore.connect({ url: server.url, keyPrefix: 'outage:' });
    cleanups.push(() => store.close());
    const model = () => new ScriptedModel([{ text: 'one' }, { text: 'two' }]);
    const session = createSession({ tools, model: model(), store, id: 'o1' });
    await session.run('hi');

    await server.stop();
    const failed = await session.run('again').then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(failed).toBeInstanceOf(SessionStoreFailedError);
    expect(failed).toMatchObject({ code: 'store_failed', sessionId: 'o1' });
    expect(String((failed as Error).message)).toMatch(/^session store failed for session o1: \S/);
    expect((failed as Error).cause).toBeInstanceOf(Error);
    // The turn never started: the session holds what it held.
    expect(session.toJSON().history.map((m) => m.content)).toEqual(['hi', 'one']);
    expect(session.toJSON().turns).toBe(1);

    // Back on the same port (empty: it ran without persistence). The client reconnects by
    // itself; the old copy is now ahead of the store and says so; a new session runs.
    server = await startRedisServer(server.port);
    await vi.waitFor(() => store.get('probe'), { timeout: 15_000, interval: 100 });
    await expect(session.run('and again')).rejects.toBeInstanceOf(StaleSessionError);
    const fresh = createSession({ tools, model: model(), store, id: 'o2' });
    await fresh.run('hello');
    expect((await store.get('o2'))?.history.map((m) => m.content)).toEqual(['hello', 'one']);
  }, 30_000);

  // Before: a Redis that stops answering without closing the connection (a frozen process, a
  // network path that drops packets) held the turn for as long as it stayed silent: node-redis's
  // command timeout covers only the wait to be written. SIGSTOP freezes the server until SIGCONT,
  // so nothing here depends on how fast the machine is.
  it('a frozen Redis fails the turn after commandTimeoutMs, and the session runs on once it answers', async () => {
    const server = await startRedisServer();
    cleanups.push(() => server.stop());
    const store = await RedisSessionStore.connect({
      url: server.url,
      keyPrefix: 'frozen:',
      commandTimeoutMs: 100,
      leaseTtlMs: 60_000,
    });
    cleanups.push(() => store.close());
    const model = new ScriptedModel([{ text: 'one' }, { text: 'two' }]);
    const session = createSession({ tools, model, store, id: 'f1' });
    await session.run('hi');

    process.kill(server.pid, 'SIGSTOP');
    const failed = await session.run('again').then(
      () => undefined,
      (err: unknown) => err as SessionStoreFailedError,
    );
    expect(failed).toBeInstanceOf(SessionStoreFailedError);
    expect(failed?.message).toBe(
      'session store failed for session f1: no answer from Redis within 100 ms (the command may still run when Redis answers)',
    );
    expect(failed?.cause).toBeInstanceOf(RedisNoAnswerError);
    expect(session.toJSON().turns).toBe(1);
    // A command sent later gives up later: the release sent behind the lease has given up too
    // (Redis has never run that script: a NOSCRIPT reply to it would come too late to act on).
    await expect(store.get('f1')).rejects.toThrow(/no answer from Redis within 100 ms/);

    // The lease the unanswered command takes once Redis wakes up is given back behind it: the
    // next turn does not wait out its 60 s.
    process.kill(server.pid, 'SIGCONT');
    await session.run('and again');
    expect((await store.get('f1'))?.history.map((m) => m.content)).toEqual([
      'hi',
      'one',
      'and again',
      'two',
    ]);
  });

  it('the command deadline is one timer for every command in flight, and none when idle', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const deadline = new CommandDeadline({ timeoutMs: 1000 });
      const never = deadline.track(new Promise<never>(() => undefined));
      const answered = deadline.track(Promise.resolve('ok'));
      const outcome = never.then(
        () => 'answered',
        (err: unknown) => (err as Error).message,
      );
      await expect(answered).resolves.toBe('ok');
      expect(vi.getTimerCount()).toBe(1);
      await vi.advanceTimersByTimeAsync(999);
      expect(await Promise.race([outcome, Promise.resolve('pending')])).toBe('pending');
      await vi.advanceTimersByTimeAsync(1);
      expect(await outcome).toMatch(/^no answer from Redis within 1000 ms/);
      expect(deadline.pending).toBe(0);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  // Before: an answered command stayed in the deadline's queue with its `reject`, which held the
  // caller's promise and so the reply (a session's snapshot), until the timer next fired, up to
  // commandTimeoutMs later: 20,000 sessions through one store left 5-10 MB on the heap after they
  // were gone (bench/session-memory.bench.mjs). A command still unanswered ahead of it keeps the
  // queue's head, as under load.
  it("an answered command's reply is let go at once, not when the deadline's timer fires", async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const deadline = new CommandDeadline({ timeoutMs: 60_000 });
    void deadline.track(new Promise<never>(() => undefined));
    const replies: WeakRef<object>[] = [];
    const answer = async (): Promise<void> => {
      const reply = { snapshot: 'x'.repeat(10_000) };
      replies.push(new WeakRef(reply));
      await deadline.track(Promise.resolve(reply));
    };
    await Promise.all([answer(), answer(), answer()]);
    // A WeakRef's target lives to the end of the task that made it.
    await new Promise((r) => setImmediate(r));
    gc();
    expect(replies.map((r) => r.deref())).toEqual([undefined, undefined, undefined]);
    expect(deadline.pending).toBe(1);
  });

  // Before: connect() never settled while node-redis retried in the background (no Redis yet, a
  // wrong port, host or password were all an endless wait at start-up).
  it('connect() rejects at once when the first connection fails, naming the URL and why', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const address = probe.address();
        probe.close(() =>
          resolve(typeof address === 'object' && address !== null ? address.port : 0),
        );
      });
    });
    const refused = RedisSessionStore.connect({ url: `redis://127.0.0.1:${port}` });
    await expect(refused).rejects.toThrow(
      `RedisSessionStore.connect: could not connect to redis://127.0.0.1:${port}: connect ECONNREFUSED 127.0.0.1:${port}`,
    );
    await expect(refused.catch((err: unknown) => (err as Error).cause)).resolves.toBeInstanceOf(
      Error,
    );
  });

  it('connect() with a wrong password rejects, and the message does not carry the password', async () => {
    const url = new URL(inject('redisUrl'));
    url.username = 'nobody';
    url.password = 'hunter2';
    const failed = await RedisSessionStore.connect({ url: url.href }).then(
      () => undefined,
      (err: unknown) => err as Error,
    );
    expect(failed?.message).toMatch(
      /^RedisSessionStore\.connect: could not connect to redis:\/\/nobody:\*\*\*@127\.0\.0\.1:\d+\/?: WRONGPASS/,
    );
    expect(failed?.message).not.toContain('hunter2');
  });

  // Before: a server that accepts the connection and never answers (not Redis: the URL names the
  // wrong service) held connect() for ever, node-redis bounding the TCP connect only.
  for (const [name, timeout, waited] of [
    ['after 5 s by default', undefined, 5000],
    ['after connectTimeoutMs', 250, 250],
  ] as const)
    it(`connect() gives up ${name} when the server accepts but never answers`, async () => {
      const sockets: import('node:net').Socket[] = [];
      let accepted!: () => void;
      const acceptedOne = new Promise<void>((resolve) => (accepted = resolve));
      const mute = createServer((socket) => {
        sockets.push(socket);
        accepted();
      });
      await new Promise<void>((resolve) => mute.listen(0, '127.0.0.1', resolve));
      const address = mute.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      try {
        const connecting = RedisSessionStore.connect({
          url: `redis://127.0.0.1:${port}`,
          ...(timeout !== undefined ? { connectTimeoutMs: timeout } : {}),
        });
        const settled = connecting.then(
          () => 'connected',
          (err: unknown) => (err as Error).message,
        );
        await acceptedOne; // (vi.waitFor would move the fake clock)
        await vi.advanceTimersByTimeAsync(waited - 1);
        expect(await Promise.race([settled, Promise.resolve('pending')])).toBe('pending');
        await vi.advanceTimersByTimeAsync(1);
        expect(await settled).toBe(
          `RedisSessionStore.connect: could not connect to redis://127.0.0.1:${port}: no answer within ${waited} ms`,
        );
      } finally {
        vi.useRealTimers();
        for (const socket of sockets) socket.destroy();
        await new Promise((resolve) => mute.close(resolve));
      }
    });

  it('connectTimeoutMs is checked, and is an option of connect() only', async () => {
    await expect(RedisSessionStore.connect({ connectTimeoutMs: 0 })).rejects.toThrow(
      /^RedisSessionStore\.connect: connectTimeoutMs: expected a number above 0 .*got 0$/,
    );
    // The constructor takes a connected client: the option would do nothing there, and says so.
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      new RedisSessionStore({ client: { eval: async () => null }, connectTimeoutMs: 100 } as never);
      expect(String(warn.mock.calls[0]?.[0])).toMatch(/connectTimeoutMs: is not a known option/);
    } finally {
      warn.mockRestore();
    }
  });
});
