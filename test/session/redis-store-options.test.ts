// RedisSessionStore checks its options in the constructor and in connect(), before connecting:
// no Redis is needed to see them refused.
import { describe, expect, it, vi } from 'vitest';
import { RedisSessionStore, type RedisSessionStoreOptions } from '../../src/entries/redis.js';

type Loose = Record<string, unknown>;
const client = { eval: () => Promise.resolve(null) };
const construct = (options: Loose) => () =>
  new RedisSessionStore(options as unknown as RedisSessionStoreOptions & { client: typeof client });

describe('RedisSessionStore options', () => {
  it.each<[string, Loose, string]>([
    [
      'a string TTL (was refused as "got 5")',
      { client, ttlSecs: '5' },
      'RedisSessionStore: ttlSecs: expected a number above 0, got a string',
    ],
    [
      'an empty secret (an unset variable: signing with an empty key)',
      { client, secret: '' },
      'RedisSessionStore: secret: expected a non-empty string, got an empty string',
    ],
    [
      'a negative lease wait (was taken as 0)',
      { client, leaseWaitMs: -1 },
      'RedisSessionStore: leaseWaitMs: expected a number from 0 to 2147483647, got -1',
    ],
    ['no client', { ttlSecs: 5 }, 'RedisSessionStore: client: is required'],
    [
      'a client that is none',
      { client: 'redis://localhost' },
      'RedisSessionStore: client: expected a connected node-redis client, got a string',
    ],
  ])('the constructor refuses %s', (_name, options, message) => {
    expect(construct(options)).toThrow(new TypeError(message));
  });

  it('connect() refuses wrong options before connecting, every one at once', async () => {
    await expect(
      RedisSessionStore.connect({
        url: 6379,
        leaseTtlMs: 0,
      } as unknown as RedisSessionStoreOptions),
    ).rejects.toThrow(
      new TypeError(
        'RedisSessionStore.connect: url: expected a non-empty string, got a number; leaseTtlMs: expected a number above 0 and at most 2147483647, got 0',
      ),
    );
  });

  it.each<[string, string, string]>([
    ['an http URL', 'http://127.0.0.1:6379', 'got a URL with protocol http:'],
    ['a host:port without a scheme', 'localhost:6379', 'got a URL with protocol localhost:'],
    [
      'no URL at all (not quoted: a URL may hold a password)',
      'pass word@host',
      'got a string that is not a URL',
    ],
  ])('connect() refuses %s as url, before connecting', async (_name, url, got) => {
    await expect(RedisSessionStore.connect({ url })).rejects.toThrow(
      new TypeError(`RedisSessionStore.connect: url: expected a redis:// or rediss:// URL, ${got}`),
    );
  });

  it('connect() takes a rediss:// (TLS) URL: it tries to connect, and says why it could not', async () => {
    // Port 1 on loopback refuses at once: the URL passed the check and a connection was tried.
    const error = await RedisSessionStore.connect({
      url: 'rediss://127.0.0.1:1',
      connectTimeoutMs: 5000,
    }).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(
      /^RedisSessionStore\.connect: could not connect to rediss:\/\/127\.0\.0\.1:1: /,
    );
  });

  it('connect() without url checks REDIS_URL the same way, named as the variable (an empty one too)', async () => {
    vi.stubEnv('REDIS_URL', '');
    try {
      await expect(RedisSessionStore.connect()).rejects.toThrow(
        new TypeError(
          'RedisSessionStore.connect: REDIS_URL: expected a non-empty string, got an empty string',
        ),
      );
      vi.stubEnv('REDIS_URL', 'http://cache:6379');
      await expect(RedisSessionStore.connect()).rejects.toThrow(
        new TypeError(
          'RedisSessionStore.connect: REDIS_URL: expected a redis:// or rediss:// URL, got a URL with protocol http:',
        ),
      );
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('an unknown key is a process warning naming the nearest option; correct options construct', () => {
    const emit = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      expect(
        construct({ client, ttl: 60, ttlSecs: 60, keyPrefix: 'x:', leaseWaitMs: 0 }),
      ).not.toThrow();
      expect(emit.mock.calls).toEqual([
        [
          'ttl: is not a known option (did you mean `ttlSecs`?); it is ignored',
          { code: 'SWITCHBOARD_UNKNOWN_OPTION' },
        ],
      ]);
    } finally {
      emit.mockRestore();
    }
  });
});
