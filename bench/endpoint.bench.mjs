// Endpoint handler overhead: one endpoint call the way the engine makes it (JSON.parse of the raw
// argument string, ajv validation, compiled defaults, request build, undici, response parse)
// versus two bare undici baselines to the same loopback server: `request` + `body.json()` (the
// usual API) and the low-level `dispatch` handler API with the body collected and JSON.parse'd
// (what the engine itself uses, and the faster of the two, so the honest baseline). The `dispatch`
// baseline sends the request the engine sends: the same method, path and headers (`accept`,
// `accept-encoding`), so the ratio is the engine's own work, not a longer request; the header-less
// `dispatch` of earlier rounds is still printed, for comparison. Reports the latency ratio at
// concurrency 1 against each and the throughput ratio at concurrency 50. Targets: <= 15% added
// latency against `dispatch`, >= 85% of bare throughput. The `dispatch` latency ratio is the
// median of 9 runs of 600 alternating pairs each (a ratio per run), printed with its spread
// (min–max and the middle five runs), so noise can be told from a regression. Loopback only;
// bounded loops.
import { createServer } from 'node:http';
import { Agent, request } from 'undici';
import { loadTools } from '../dist/index.js';
import { createEndpointHandler } from '../dist/entries/handlers.js';
import { dispatchJson } from './bare-dispatch.mjs';
import { engineCaller, WEATHER_BODY, weatherDefinition } from './weather-tool.mjs';

const BODY = WEATHER_BODY;
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

const tools = await loadTools([weatherDefinition(origin)]);
const tool = tools.tools.get('get_weather');

// Separate agents so neither side warms the other's pool.
const engineAgent = new Agent({ maxHeaderSize: 16 * 1024 });
const bareAgent = new Agent();
const dispatchAgent = new Agent();
const handler = createEndpointHandler({ dispatcher: engineAgent });
const engineCall = engineCaller(tool, handler);

async function bareCall() {
  const res = await request(`${origin}/v1/weather/Bronx?units=metric&days=3`, {
    dispatcher: bareAgent,
  });
  return res.body.json();
}

// The headers the engine's handler sends on every call without a service (request-parts.ts).
const ENGINE_HEADERS = {
  accept: 'application/json, */*;q=0.8',
  'accept-encoding': 'gzip, deflate, br',
};
const dispatchPath = '/v1/weather/Bronx?units=metric&days=3';
const dispatchCall = () => dispatchWith(ENGINE_HEADERS);
const NO_HEADERS = {};
const bareDispatchCall = () => dispatchWith(NO_HEADERS);
function dispatchWith(dispatchHeaders) {
  return dispatchJson(dispatchAgent, {
    origin,
    path: dispatchPath,
    method: 'GET',
    headers: dispatchHeaders,
  });
}

// Latency: engine and bare calls alternate one by one, so both see the same machine noise.
async function latencyPairs(n, bareCall) {
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
  await dispatchCall();
  await bareDispatchCall();
}
const lat = await latencyPairs(5000, bareCall);
// Runs of alternating pairs: one ratio per run; the median run and the spread are reported.
const LATENCY_RUNS = 9;
const dispatchRuns = [];
for (let r = 0; r < LATENCY_RUNS; r++) dispatchRuns.push(await latencyPairs(600, dispatchCall));
const runRatios = dispatchRuns.map((x) => x.engine / x.bare).sort((a, b) => a - b);
const latDispatch = dispatchRuns.slice().sort((a, b) => a.engine / a.bare - b.engine / b.bare)[
  Math.floor(LATENCY_RUNS / 2)
];
const latNoHeaders = await latencyPairs(5000, bareDispatchCall);
const ROUNDS = 15;
const ratios = { bare: [], dispatch: [] };
const thr = { engine: [], bare: [], dispatch: [] };
const fns = { engine: engineCall, bare: bareCall, dispatch: dispatchCall };
for (let r = 0; r < ROUNDS; r++) {
  const order = r % 2 === 0 ? ['bare', 'dispatch', 'engine'] : ['engine', 'dispatch', 'bare'];
  const round = {};
  for (const side of order) round[side] = await throughput(fns[side], 50, 1500);
  for (const side of order) thr[side].push(round[side]);
  ratios.bare.push(round.engine / round.bare);
  ratios.dispatch.push(round.engine / round.dispatch);
}
const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const latencyRatio = lat.engine / lat.bare;
const dispatchRatio = latDispatch.engine / latDispatch.bare;
const noHeadersRatio = latNoHeaders.engine / latNoHeaders.bare;
const throughputRatio = med(ratios.bare);
const throughputDispatch = med(ratios.dispatch);
const plus = (r) => `${r >= 1 ? '+' : ''}${((r - 1) * 100).toFixed(1)}%`;
console.log(
  `latency c=1 vs undici request (median of 5000 alternating pairs): engine ${(lat.engine * 1000).toFixed(0)} µs, bare request ${(lat.bare * 1000).toFixed(0)} µs → ${plus(latencyRatio)}`,
);
console.log(
  `latency c=1 vs undici dispatch, same request (median of ${LATENCY_RUNS} runs × 600 alternating pairs; median run): engine ${(latDispatch.engine * 1000).toFixed(0)} µs, bare dispatch ${(latDispatch.bare * 1000).toFixed(0)} µs → ${plus(dispatchRatio)} (target <= 1.15×) ${dispatchRatio <= 1.15 ? 'OK' : 'MISSED'}`,
);
console.log(
  `  spread over the runs: ${plus(runRatios[0])} … ${plus(runRatios[LATENCY_RUNS - 1])} (middle five ${plus(runRatios[2])} … ${plus(runRatios[LATENCY_RUNS - 3])}); runs: ${runRatios.map(plus).join(' ')}`,
);
console.log(
  `latency c=1 vs undici dispatch without headers (earlier rounds' baseline): engine ${(latNoHeaders.engine * 1000).toFixed(0)} µs, bare dispatch ${(latNoHeaders.bare * 1000).toFixed(0)} µs → ${plus(noHeadersRatio)}`,
);
console.log(
  `throughput c=50 (${ROUNDS} paired rounds × 1500 calls): engine ${med(thr.engine).toFixed(0)} req/s, bare request ${med(thr.bare).toFixed(0)} req/s → median ratio ${(throughputRatio * 100).toFixed(1)}% (target >= 85%) ${throughputRatio >= 0.85 ? 'OK' : 'MISSED'}`,
);
console.log(
  `throughput c=50 vs dispatch (same rounds): bare dispatch ${med(thr.dispatch).toFixed(0)} req/s → median ratio ${(throughputDispatch * 100).toFixed(1)}%`,
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
await dispatchAgent.close();
server.close();
