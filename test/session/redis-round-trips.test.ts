/**
 * Issue 49 item 3: a turn's round trips to Redis, counted server-side with MONITOR on the real
 * redis-server the tests start. A plain turn: the lease, then the save that also releases it (2).
 * A turn with a journaled call: the lease, the journal record (the turn's header with the call),
 * then the save and release (3); the call's result record goes with the save (which clears the
 * journal) or, when the model's next call takes longer than a tick, on its own behind the call.
 */
import { randomUUID } from 'node:crypto';
import { createClient } from 'redis';
import { describe, expect, it } from 'vitest';
import { createSession } from '../../src/session/create-session.js';
import { RedisSessionStore } from '../../src/redis/redis-store.js';
import type { Model, ModelRequest, ModelStreamPart } from '../../src/models/types.js';
import { ScriptedModel } from '../../src/testing.js';
import { clinicTools } from './fixtures.js';
import { redisTestClient } from './redis-test-client.js';

const { url, raw, stores } = await redisTestClient();
const tools = await clinicTools();

/**
 * The store's commands on keys of `prefix`, as Redis received them: a MONITOR connection sees
 * every command in the order the server ran it; a marker command ends the count.
 */
async function counted(run: (s: RedisSessionStore, prefix: string) => Promise<void>) {
  const prefix = `round-trips:${randomUUID()}:`;
  const s = await RedisSessionStore.connect({ url, keyPrefix: prefix, secret: 'k1' });
  stores.push(s);
  // Redis caches each script on its first use (EVAL after NOSCRIPT): done here, not counted.
  await createSession({
    tools,
    id: 'warm',
    store: s,
    model: bookingModel(),
    actions: { book: () => 'ok' },
  }).run('warm up');
  const monitor = createClient({ url });
  monitor.on('error', () => undefined);
  await monitor.connect();
  const seen: string[] = [];
  let markerSeen: () => void = () => undefined;
  const marker = new Promise<void>((resolve) => (markerSeen = resolve));
  await monitor.monitor((line: string) => {
    // Commands a script runs show as `[0 lua]`: only what the store sent counts.
    if (!line.includes(prefix) || line.includes(' lua]')) return;
    if (line.includes(`${prefix}marker`)) markerSeen();
    // `... "evalsha" "<sha>" "4" "<prefix>l:id" ...`: the command and the first key.
    const command = /"(\w+)"/.exec(line)?.[1]?.toLowerCase() ?? '?';
    const key = line.slice(line.indexOf(prefix) + prefix.length).split('"')[0] ?? '';
    if (!line.includes(`${prefix}marker`)) seen.push(`${command} ${key}`);
  });
  await run(s, prefix);
  // Commands not awaited by the engine (none are left) would reach Redis before this marker.
  await raw.get(`${prefix}marker`);
  await marker;
  await monitor.close();
  return seen;
}

/** Calls `book` after the user message, then answers `after` (resolving) with the text. */
function bookingModel(after: () => Promise<void> = () => Promise.resolve()): Model {
  return {
    name: 'booking',
    async *stream(request: ModelRequest): AsyncIterable<ModelStreamPart> {
      if (request.messages.at(-1)?.role === 'user') {
        const n = request.messages.filter((m) => m.role === 'user').length;
        yield {
          type: 'tool-call',
          call: { id: `b${n}`, name: 'book', arguments: '{"city":"Queens"}' },
        };
      } else {
        await after();
        yield { type: 'text-delta', text: 'booked' };
      }
      yield { type: 'finish' };
    },
  };
}

describe('Redis round trips per turn', () => {
  it('a plain turn makes two: the lease, then the save that releases it', async () => {
    const seen = await counted(async (s) => {
      const model = new ScriptedModel([{ text: 'one' }, { text: 'two' }]);
      const session = createSession({ tools, id: 'p', store: s, model });
      await session.run('hi');
      await session.run('again');
    });
    expect(seen).toEqual(['evalsha l:p', 'evalsha l:p', 'evalsha l:p', 'evalsha l:p']);
  });

  it('a turn with a journaled call makes three, and leaves no journal and no lease', async () => {
    let prefix = '';
    const seen = await counted(async (s, p) => {
      prefix = p;
      const session = createSession({
        tools,
        id: 'j',
        store: s,
        model: bookingModel(),
        actions: { book: () => 'ok' },
      });
      const result = await session.run('book me');
      expect(result.traces.map((t) => t.tool)).toEqual(['book']);
    });
    expect(seen).toEqual(['evalsha l:j', 'evalsha l:j', 'evalsha l:j']);
    expect(await raw.exists([`${prefix}j:j`, `${prefix}l:j`])).toBe(0);
  });

  it('when the model takes longer than a tick, the result record is journaled before it answers', async () => {
    let prefix = '';
    let journal: string[] = [];
    const seen = await counted(async (s, p) => {
      prefix = p;
      const session = createSession({
        tools,
        id: 'slow',
        store: s,
        model: bookingModel(async () => {
          // A real model call: I/O, so the event loop turns before the answer. The record goes
          // out on the store's connection and this read on another, whose order Redis does not
          // promise: read until the record is there (a few round trips; never, if the store held
          // it back until the model answered).
          for (let reads = 0; reads < 2000 && journal.length < 3; reads++) {
            await new Promise((r) => setImmediate(r));
            journal = await raw.lRange(`${prefix}j:slow`, 0, -1);
          }
        }),
        actions: { book: () => 'ok' },
      });
      await session.run('book me');
    });
    // turn header and call, then the result, written while the model's call was under way
    expect(journal.map((item) => (JSON.parse(item.slice(64)) as { t: string }).t)).toEqual([
      'turn',
      'call',
      'done',
    ]);
    // the test's own read of the journal aside: one more command, sent while the model ran
    expect(seen.filter((c) => c !== 'lrange j:slow')).toEqual([
      'evalsha l:slow',
      'evalsha l:slow',
      'evalsha l:slow',
      'evalsha l:slow',
    ]);
  });

  it('a save that fails keeps the lease, and the release that follows frees it', async () => {
    let prefix = '';
    await counted(async (s, p) => {
      prefix = p;
      const model = new ScriptedModel([{ text: 'a' }]);
      const first = createSession({ tools, id: 'st', store: s, model });
      await first.run('a');
      // Another copy saved meanwhile: this one's finish is refused as stale.
      const lease = await s.coordination.acquire('st');
      await expect(lease.finish(first.toJSON(), 0)).rejects.toThrow(/saved elsewhere/);
      expect(await raw.exists(`${prefix}l:st`)).toBe(1);
      await lease.release();
      expect(await raw.exists(`${prefix}l:st`)).toBe(0);
    });
  });
});
