// Diagnostic (not part of `npm run bench`): the cost of one endpoint call's own code when it runs
// cold, as it does between two network reads, where the server, the kernel and undici have pushed
// it out of the CPU caches. A dispatcher that answers from memory stands in for the network, and a
// walk over a buffer (--mb MiB, default 1: about a core's L2) evicts the caches before each call;
// the median over thousands of calls is reported, for each build given, alternating call by call
// in one process (so machine noise falls on all alike). Hot micro-benchmarks missed what this
// shows: code that costs 0.3 µs hot can cost 2–5 µs cold (docs/benchmarks.md, sixth round).
//   node bench/endpoint-cold.mjs                       # this checkout's dist
//   node bench/endpoint-cold.mjs --dists /old/dist,dist --calls 6000
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { distList, positive } from './args.mjs';
import { Dispatcher } from 'undici';
import { engineCaller, WEATHER_BODY, weatherDefinition } from './weather-tool.mjs';

const { values } = parseArgs({
  options: {
    dists: { type: 'string', default: 'dist' },
    mb: { type: 'string', default: '1' },
    calls: { type: 'string', default: '3000' },
  },
});
const mb = positive('mb', values.mb, 256);
const calls = positive('calls', values.calls, 100_000);
const dists = distList(values.dists);

const BODY = Buffer.from(WEATHER_BODY);
const HEADERS = { 'content-type': 'application/json', 'content-length': String(BODY.length) };
/** Answers every request from memory, on the next microtask. */
class MemoryDispatcher extends Dispatcher {
  dispatch(_opts, handler) {
    const controller = { abort() {}, pause() {}, resume() {} };
    queueMicrotask(() => {
      handler.onRequestStart?.(controller, {});
      handler.onResponseStart(controller, 200, HEADERS, 'OK');
      handler.onResponseData(controller, Buffer.from(BODY));
      handler.onResponseEnd(controller, {});
    });
    return true;
  }
}

const definition = weatherDefinition('http://127.0.0.1:9');

// One call the way the endpoint benchmark makes it: parse, validate, defaults, the handler.
const engines = [];
for (const dist of dists) {
  const { createEndpointHandler, loadTools } = await import(
    pathToFileURL(resolve(dist, 'index.js')).href
  );
  const tool = (await loadTools([definition])).tools.get('get_weather');
  const handler = createEndpointHandler({ dispatcher: new MemoryDispatcher() });
  engines.push(engineCaller(tool, handler));
}

const buffer = new Float64Array((mb * 1024 * 1024) / 8);
let sink = 0;
const evict = () => {
  for (let i = 0; i < buffer.length; i += 8) sink += buffer[i];
};
const times = engines.map(() => []);
const warm = Math.min(500, Math.floor(calls / 5));
for (let i = 0; i < calls; i++) {
  for (let k = 0; k < engines.length; k++) {
    const j = i % 2 === 0 ? k : engines.length - 1 - k;
    evict();
    const t = process.hrtime.bigint();
    await engines[j]();
    if (i >= warm) times[j].push(Number(process.hrtime.bigint() - t) / 1000);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (let j = 0; j < dists.length; j++)
  console.log(
    `${dists[j]}: ${median(times[j]).toFixed(1)} µs per call, cold (${mb} MiB evicted before each; median of ${times[j].length})`,
  );
if (sink === -1) console.log(sink);
