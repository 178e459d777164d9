// Memory over many Redis-backed sessions (an on-call check kept as a benchmark): N sessions
// (20,000) are created, take one turn with a journaled action call, and are closed, 200 at a time;
// every tenth is dropped without `close()`, as a host that loses track of a call does. Reported:
// the heap after full GCs before the run (a warm-up batch done) and after it, their ratio, and the
// heap retained per session; then every key the run left in Redis, by kind, and how many have no
// TTL (a key without one would stay for ever). Exits 1 when a key has no TTL or the heap retained
// per session reaches 1 KB (a session's own state is several KB: that would be a leak).
// Needs redis-server on PATH (a throwaway one is started) or REDIS_URL. Run with --expose-gc
// (bench/run.mjs does). Options (env): SESSION_MEMORY_SESSIONS (20000), SESSION_MEMORY_BATCH (200).
import { createClient } from 'redis';
import { createSession, loadTools } from '../dist/index.js';
import { RedisSessionStore } from '../dist/entries/redis.js';
import { ScriptedModel } from '../dist/testing.js';
import { startRedisServer } from './load/redis-server.mjs';

const SESSIONS = Number(process.env.SESSION_MEMORY_SESSIONS ?? 20_000);
const BATCH = Number(process.env.SESSION_MEMORY_BATCH ?? 200);
const DROP_EVERY = 10;
const PREFIX = 'memory:';

if (typeof globalThis.gc !== 'function') {
  console.error('run with node --expose-gc (bench/run.mjs does)');
  process.exit(2);
}

const tools = await loadTools([
  {
    type: 'action',
    tool: {
      type: 'function',
      function: {
        name: 'book',
        description: 'Books.',
        parameters: { type: 'object', properties: {}, additionalProperties: false },
      },
    },
  },
]);
const actions = { book: async () => ({ booked: true }) };
const given = process.env.REDIS_URL;
const redis = given ? undefined : await startRedisServer();
const url = given || redis.url;
const store = await RedisSessionStore.connect({ url, keyPrefix: PREFIX });
const raw = createClient({ url });
raw.on('error', () => undefined);
await raw.connect();
if (given) await clear();

/** Heap used after full collections, bytes. */
function heap() {
  for (let i = 0; i < 3; i++) globalThis.gc();
  return process.memoryUsage().heapUsed;
}

async function one(id, dropped) {
  const session = createSession({
    tools,
    actions,
    store,
    id,
    model: new ScriptedModel([{ tool_calls: [{ name: 'book' }] }, { text: 'booked' }]),
  });
  await session.run('book me');
  if (!dropped) await session.close();
}

async function batches(count, from) {
  for (let start = 0; start < count; start += BATCH) {
    const n = Math.min(BATCH, count - start);
    await Promise.all(
      Array.from({ length: n }, (_, i) => {
        const k = from + start + i;
        return one(`s${k}`, k % DROP_EVERY === 0);
      }),
    );
  }
}

/** Every key under the prefix, by kind (`s`, `m`, `j`…), and the ones without a TTL. */
async function keys() {
  const kinds = new Map();
  let withoutTtl = 0;
  let total = 0;
  for await (const page of raw.scanIterator({ MATCH: `${PREFIX}*`, COUNT: 1000 })) {
    for (const key of Array.isArray(page) ? page : [page]) {
      total++;
      const kind = key.slice(PREFIX.length).split(':', 1)[0];
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      if ((await raw.pTTL(key)) < 0) withoutTtl++;
    }
  }
  return { total, kinds, withoutTtl };
}

async function clear() {
  for await (const page of raw.scanIterator({ MATCH: `${PREFIX}*`, COUNT: 1000 }))
    for (const key of Array.isArray(page) ? page : [page]) await raw.del(key);
}

const mb = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;

await batches(BATCH, 10_000_000); // warm-up: code compiled, pools and scripts made
const before = heap();
const started = performance.now();
await batches(SESSIONS, 0);
const seconds = (performance.now() - started) / 1000;
const after = heap(); // at once: what is still held now is held by something, not by a timer yet to fire
const perSession = (after - before) / SESSIONS;
console.log(
  `${SESSIONS.toLocaleString('en-US')} sessions, ${BATCH} at a time, 1 in ${DROP_EVERY} dropped without close: ${seconds.toFixed(1)} s`,
);
console.log(
  `heap after GC: ${mb(before)} before, ${mb(after)} after (ratio ${(after / before).toFixed(3)}); retained per session ${Math.round(perSession)} B`,
);
const found = await keys();
console.log(
  `Redis keys: ${found.total.toLocaleString('en-US')} (${[...found.kinds].map(([k, n]) => `${k}: ${n}`).join(', ')}), without a TTL: ${found.withoutTtl}`,
);

await clear();
await store.close();
await raw.close();
await redis?.stop();
const ok = found.withoutTtl === 0 && perSession < 1024;
if (!ok) console.error('FAILED: a key without a TTL, or 1 KB or more of heap retained per session');
process.exit(ok ? 0 : 1);
