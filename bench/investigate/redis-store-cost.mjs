// The Redis store's cost per turn against the in-memory store's (issue 49 item 3): C sessions in a
// closed loop (each runs its next turn as soon as the last ends), each turn a scripted model call
// to a journaled action tool then the answer; memory and Redis phases alternate, so both see the
// same machine. Reports turns/s and this process's CPU per turn (the store client's work included,
// redis-server's not) per phase, and Redis's throughput as a share of memory's per pair.
//   node bench/investigate/redis-store-cost.mjs [--dist ../../dist] [--sessions 50] [--turns 40] [--pairs 4]
// Starts its own redis-server (bench/load/redis-server.mjs) unless REDIS_URL is set.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { startRedisServer } from '../load/redis-server.mjs';

const { values } = parseArgs({
  options: {
    dist: { type: 'string', default: new URL('../../dist', import.meta.url).pathname },
    sessions: { type: 'string', default: '50' },
    turns: { type: 'string', default: '40' },
    pairs: { type: 'string', default: '4' },
  },
});
const dist = pathToFileURL(resolve(values.dist)).href;
const { createSession, InMemorySessionStore, loadTools } = await import(`${dist}/index.js`);
// The Redis store has its own entry (switchboard/redis) since the package was split by capability.
const { RedisSessionStore } = await import(`${dist}/entries/redis.js`);
const { ScriptedModel } = await import(`${dist}/testing.js`);
const C = Number(values.sessions);
const TURNS = Number(values.turns);
const redis = process.env.REDIS_URL === undefined ? await startRedisServer() : undefined;
const url = process.env.REDIS_URL ?? redis.url;

const tools = await loadTools([
  {
    type: 'action',
    tool: {
      type: 'function',
      function: {
        name: 'book',
        parameters: { type: 'object', properties: { ref: { type: 'string' } }, required: ['ref'] },
      },
    },
  },
]);
const steps = [];
for (let t = 0; t < TURNS; t++)
  steps.push({ tool_calls: [{ name: 'book', args: { ref: `r${t}` } }] }, { text: 'booked' });
const actions = { book: () => ({ ok: true }) };
let phaseNo = 0;

async function phase(store) {
  phaseNo++;
  const sessions = Array.from({ length: C }, (_, i) =>
    createSession({
      tools,
      id: `p${phaseNo}-s${i}`,
      model: new ScriptedModel(steps),
      store,
      actions,
    }),
  );
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    sessions.map(async (s) => {
      for (let t = 0; t < TURNS; t++) await s.run('book it');
    }),
  );
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { perSec: (C * TURNS) / (wall / 1000), cpuUs: (cpu.user + cpu.system) / (C * TURNS) };
}

const memory = new InMemorySessionStore();
const redisStore = await RedisSessionStore.connect({ url, keyPrefix: `cost:${Date.now()}:` });
await phase(memory);
await phase(redisStore);
const shares = [];
const cpuRatios = [];
for (let p = 0; p < Number(values.pairs); p++) {
  const order = p % 2 === 0 ? ['memory', 'redis'] : ['redis', 'memory'];
  const got = {};
  for (const side of order) got[side] = await phase(side === 'memory' ? memory : redisStore);
  shares.push(got.redis.perSec / got.memory.perSec);
  cpuRatios.push(got.redis.cpuUs / got.memory.cpuUs);
  console.log(
    `pair ${p + 1}: memory ${got.memory.perSec.toFixed(0)} turns/s, ${got.memory.cpuUs.toFixed(0)} µs CPU/turn; ` +
      `redis ${got.redis.perSec.toFixed(0)} turns/s, ${got.redis.cpuUs.toFixed(0)} µs CPU/turn → ${(shares.at(-1) * 100).toFixed(1)}% of memory's throughput`,
  );
}
const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(
  `Redis throughput ÷ memory's: median ${(med(shares) * 100).toFixed(1)}% [${(Math.min(...shares) * 100).toFixed(1)}–${(Math.max(...shares) * 100).toFixed(1)}]; ` +
    `CPU per turn ${med(cpuRatios).toFixed(2)}× memory's (${C} sessions × ${TURNS} turns per phase, ${values.pairs} pairs)`,
);
await redisStore.close();
await redis?.stop();
