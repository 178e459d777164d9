// Endpoint handler overhead: one endpoint call the way the engine makes it (JSON.parse of the raw
// argument string, ajv validation, compiled defaults, request build, undici, response parse)
// versus a bare undici `request` to the same loopback server. Reports the latency ratio at
// concurrency 1 and the throughput ratio at concurrency 50. Targets: < 15% added latency,
// >= 85% of bare throughput. Loopback only; bounded loops.
import { createServer } from 'node:http';
import { Agent, request } from 'undici';
import { createEndpointHandler, loadTools } from '../dist/index.js';

const BODY = JSON.stringify({
  city: 'Bronx',
  temperature: 21.5,
  conditions: 'sunny',
  forecast: [1, 2, 3, 4, 5].map((d) => ({ d, t: 20 + d })),
});
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () =>
    res
      .writeHead(200, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(BODY),
      })
      .end(BODY),
  );
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${server.address().port}`;

const tools = await loadTools([
  {
    type: 'endpoint',
    tool: {
      type: 'function',
      function: {
        name: 'get_weather',
        description: 'Weather for a city',
        parameters: {
          type: 'object',
          properties: {
            city: { type: 'string' },
            units: { type: 'string', enum: ['metric', 'imperial'] },
            days: { type: 'integer' },
          },
          required: ['city'],
          additionalProperties: false,
        },
      },
    },
    endpoint: {
      url: `${origin}/v1/weather/{city}`,
      method: 'get',
      argument_location: 'path',
      timeout: 10,
    },
    defaults: { units: 'metric', days: 3 },
  },
]);
const tool = tools.tools.get('get_weather');
const RAW = '{"city":"Bronx"}';

// Separate agents so neither side warms the other's pool.
const engineAgent = new Agent({ maxHeaderSize: 16 * 1024 });
const bareAgent = new Agent();
const handler = createEndpointHandler({ dispatcher: engineAgent });
const session = { id: 's1', language: 'en-US', vars: {} };
// The session passes its turn's interruption signal to cancellable (get) calls: one per turn.
const turn = new AbortController();

async function engineCall() {
  const parsed = JSON.parse(RAW);
  const valid = tool.validator.validate(parsed);
  if (!valid.ok) throw new Error('invalid');
  const applied = tool.defaults.apply(parsed, { vars: session.vars });
  if (!applied.ok) throw new Error('defaults');
  const out = await handler.execute(applied.args, {
    tool,
    callId: 'c',
    session,
    signal: turn.signal,
  });
  if (out.type !== 'success')
    throw new Error(`engine call failed: ${out.error.code} ${out.error.message}`);
  return out.output;
}

async function bareCall() {
  const res = await request(`${origin}/v1/weather/Bronx?units=metric&days=3`, {
    dispatcher: bareAgent,
  });
  return res.body.json();
}

// Latency: engine and bare calls alternate one by one, so both see the same machine noise.
async function latencyPairs(n) {
  const engine = [];
  const bare = [];
  for (let i = 0; i < n; i++) {
    const first = i % 2 === 0 ? engineCall : bareCall;
    const second = i % 2 === 0 ? bareCall : engineCall;
    let t = process.hrtime.bigint();
    await first();
    const a = Number(process.hrtime.bigint() - t) / 1e6;
    t = process.hrtime.bigint();
    await second();
    const b = Number(process.hrtime.bigint() - t) / 1e6;
    (i % 2 === 0 ? engine : bare).push(a);
    (i % 2 === 0 ? bare : engine).push(b);
  }
  const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  return { engine: median(engine), bare: median(bare) };
}

async function throughput(fn, concurrency, total) {
  let next = 0;
  const t = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < total) await fn();
    }),
  );
  return total / (Number(process.hrtime.bigint() - t) / 1e9);
}

// Warm up both paths (JIT, connection pools). Then paired rounds: each round measures both
// sides back to back (alternating which goes first) and the ratio is taken per round, so machine
// noise that drifts between rounds cancels out; the median ratio is reported.
for (let i = 0; i < 1000; i++) {
  await engineCall();
  await bareCall();
}
const lat = await latencyPairs(5000);
const ROUNDS = 15;
const ratios = [];
const thr = { engine: [], bare: [] };
for (let r = 0; r < ROUNDS; r++) {
  const order = r % 2 === 0 ? ['bare', 'engine'] : ['engine', 'bare'];
  const round = {};
  for (const side of order)
    round[side] = await throughput(side === 'engine' ? engineCall : bareCall, 50, 1500);
  thr.engine.push(round.engine);
  thr.bare.push(round.bare);
  ratios.push(round.engine / round.bare);
}
const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const latencyRatio = lat.engine / lat.bare;
const throughputRatio = med(ratios);
console.log(
  `latency c=1 (median of 5000 alternating pairs): engine ${(lat.engine * 1000).toFixed(0)} µs, bare undici ${(lat.bare * 1000).toFixed(0)} µs → +${((latencyRatio - 1) * 100).toFixed(1)}% (target < 15%) ${latencyRatio < 1.15 ? 'OK' : 'MISSED'}`,
);
console.log(
  `throughput c=50 (${ROUNDS} paired rounds × 1500 calls): engine ${med(thr.engine).toFixed(0)} req/s, bare undici ${med(thr.bare).toFixed(0)} req/s → median ratio ${(throughputRatio * 100).toFixed(1)}% (target >= 85%) ${throughputRatio >= 0.85 ? 'OK' : 'MISSED'}`,
);
console.log(
  `load average while measuring: ${(await import('node:os'))
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')} (figures are noisy on a busy machine)`,
);

await handler.close();
await engineAgent.close();
await bareAgent.close();
server.close();
