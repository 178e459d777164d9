/**
 * The Redis tests' shared set-up: a raw client on the test Redis (test/global-setup.ts) for
 * inspecting and tampering with keys, and a list of the stores a test file opens, all closed after
 * the file. Call at a test file's top level.
 */
import { createClient } from 'redis';
import { afterAll, inject } from 'vitest';
import type { RedisSessionStore } from '../../src/redis/redis-store.js';

export async function redisTestClient() {
  const url = inject('redisUrl');
  const raw = createClient({ url });
  raw.on('error', () => undefined);
  await raw.connect();
  const stores: RedisSessionStore[] = [];
  afterAll(async () => {
    await Promise.all(stores.map((s) => s.close()));
    await raw.close();
  });
  return { url, raw, stores };
}
