/**
 * A holder that stalled past its lease's TTL while another process took the session over: every
 * lease script checks the holder's token, so the stalled holder can neither renew, journal into,
 * save over nor release the new holder's lease (docs/sessions-redis.md). The take-over is made by
 * writing another token to the lease key, as the other process's acquire would.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SessionLeaseLostError } from '../../src/session/coordination.js';
import { RedisSessionStore } from '../../src/redis/redis-store.js';
import { redisTestClient } from './redis-test-client.js';

const { url, raw, stores } = await redisTestClient();

afterEach(() => {
  vi.useRealTimers();
});

/** A lease on session `t` of a store of its own, then taken over: the other holder's TTL is 20 s. */
async function takenOver(leaseTtlMs = 30_000) {
  const prefix = `takeover:${randomUUID()}:`;
  const store = await RedisSessionStore.connect({ url, keyPrefix: prefix, leaseTtlMs });
  stores.push(store);
  const lease = await store.coordination.acquire('t');
  const leaseKey = `${prefix}l:t`;
  await raw.set(leaseKey, 'the-other-holder', { PX: 20_000 });
  return { lease, leaseKey, journalKey: `${prefix}j:t` };
}

describe('a lease taken over by another holder', () => {
  it('refuses the stalled holder a journal record: nothing appended, the call is not made', async () => {
    const { lease, journalKey } = await takenOver();
    const journal = lease.journal(1, 'book me');
    await expect(
      journal.record({ callId: 'c1', tool: 'book', arguments: '{}' }),
    ).rejects.toBeInstanceOf(SessionLeaseLostError);
    expect(await raw.lLen(journalKey)).toBe(0);
    await lease.release();
  });

  it("leaves the new holder's lease in place when the stalled holder releases", async () => {
    const { lease, leaseKey } = await takenOver();
    await lease.release();
    expect(await raw.get(leaseKey)).toBe('the-other-holder');
  });

  it("does not extend the new holder's lease when the stalled holder renews, and knows it lost it", async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { lease, leaseKey } = await takenOver(300_000);
    vi.advanceTimersByTime(100_000); // one renewal (every third of the TTL)
    // Sent after the renewal on the same connection: answered after it, and refused.
    await expect(
      lease.save(
        { version: 1, id: 't', language: 'en-US', vars: {}, history: [], turns: 1, ended: false },
        0,
      ),
    ).rejects.toBeInstanceOf(SessionLeaseLostError);
    expect(await raw.get(leaseKey)).toBe('the-other-holder');
    expect(await raw.pTTL(leaseKey)).toBeLessThanOrEqual(20_000);
    await lease.release();
  });
});
