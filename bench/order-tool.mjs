// The session-level benchmarks' tool, script and bare request (turn-http.bench.mjs, turn-parts.mjs,
// turn-ab.mjs, load/worker.mjs): one `post` endpoint tool, a script whose every turn calls it once
// and then answers, and the same call made with undici alone.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Starts the loopback upstream (bench/load/upstream.mjs) in a child process answering after
 * `latencyMs`; resolves with the child (kill or disconnect it when done) and its origin.
 */
export async function startUpstream(latencyMs) {
  const script = fileURLToPath(new URL('./load/upstream.mjs', import.meta.url));
  const child = fork(script, ['--latency', String(latencyMs)], { execArgv: [] });
  const { port } = await new Promise((resolve) =>
    child.on('message', (m) => m.type === 'ready' && resolve(m)),
  );
  return { upstream: child, origin: `http://127.0.0.1:${port}` };
}

/** The `place_order` definition against `origin` (the load harness names a slow one too). */
export function orderDefinition(origin, name = 'place_order', path = '/orders') {
  return {
    type: 'endpoint',
    tool: {
      type: 'function',
      function: {
        name,
        description: 'Place an order',
        parameters: {
          type: 'object',
          properties: { ref: { type: 'string' } },
          required: ['ref'],
          additionalProperties: false,
        },
      },
    },
    endpoint: { url: `${origin}${path}`, method: 'post', argument_location: 'body', timeout: 30 },
  };
}

/**
 * The bare side's request: the `POST` the engine sends for one `place_order` call, with its fixed
 * headers (request-parts.ts) but not the idempotency key it derives per call (deriving it is
 * the engine's work), for undici's `dispatch`.
 */
export function orderRequest(origin) {
  const headers = {
    accept: 'application/json, */*;q=0.8',
    'accept-encoding': 'gzip, deflate, br',
    'content-type': 'application/json',
  };
  return { origin, path: '/orders', method: 'POST', headers, body: JSON.stringify({ ref: 'r' }) };
}

/** Whether the upstream's answer says the order was placed (bench/load/upstream.mjs). */
export const orderPlaced = (value) => value.ok === true;

/** The model's answer every engine turn must end with. */
export const ORDER_ANSWER = 'Your order is placed.';

/** A script of `turns` turns: a `place_order` call, then the answer. */
export function orderScript(turns) {
  const steps = [];
  for (let t = 0; t < turns; t++) {
    steps.push({ tool_calls: [{ name: 'place_order', args: { ref: 'r' } }] });
    steps.push({ text: ORDER_ANSWER });
  }
  return steps;
}

/**
 * Pacing: with an offered rate, loop i of n starts its turns every n/rate seconds from an offset
 * i/rate (arrivals spread evenly), and a turn's latency counts from its scheduled start (a late
 * turn is not excused); rate 0 is a closed loop without pause (saturation).
 */
export function pacer(i, n, rate) {
  if (rate === 0) return { next: () => Promise.resolve(performance.now()) };
  const every = (n / rate) * 1000;
  const first = performance.now() + (i / rate) * 1000;
  let k = 0;
  return {
    next() {
      const at = first + every * k++;
      const wait = at - performance.now();
      return wait <= 0 ? Promise.resolve(at) : new Promise((r) => setTimeout(() => r(at), wait));
    },
  };
}

/** What the user says every turn. */
export const ORDER_TEXT = 'place my order';

/** Checks one engine turn's result: the tool call succeeded and the answer came. */
export function checkOrderTurn(r) {
  const trace = r.traces[0];
  if (r.content !== ORDER_ANSWER || trace === undefined || trace.isError === true)
    throw new Error(`engine turn failed: ${JSON.stringify(trace?.output ?? r.content)}`);
}
