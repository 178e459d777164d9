// Tracing overhead: per-turn cost of a session turn (one tool call to an in-process action, then
// a final answer, scripted model) with no OpenTelemetry provider registered, and with an SDK
// tracer recording every span into a no-op exporter. Run with --expose-gc (bench/run.mjs does).
import { performance } from 'node:perf_hooks';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createSession, loadTools } from '../dist/index.js';
import { TurnTracing } from '../dist/observability/turn-tracing.js';
import { ScriptedModel } from '../dist/testing.js';

const WARMUP = 2_000;
const ITERATIONS = 20_000;
const ROUNDS = 5;

const tools = await loadTools([
  {
    type: 'action',
    tool: {
      type: 'function',
      function: {
        name: 'lookup',
        parameters: {
          type: 'object',
          properties: { city: { type: 'string' } },
          required: ['city'],
        },
      },
    },
  },
]);
const actions = new Map([['lookup', (args) => ({ city: args.city, weather: 'sunny' })]]);
const steps = [{ tool_calls: [{ name: 'lookup', args: { city: 'Bronx' } }] }, { text: 'Sunny.' }];
let exported = 0;
const provider = new BasicTracerProvider({
  spanProcessors: [
    new SimpleSpanProcessor({
      export: (spans, done) => {
        exported += spans.length;
        done({ code: 0 });
      },
      shutdown: async () => undefined,
    }),
  ],
});
const tracer = provider.getTracer('bench');

async function turn(tracing) {
  const session = createSession({
    tools,
    model: new ScriptedModel(steps),
    actions,
    ...(tracing ? { tracing: { tracer } } : {}),
  });
  await session.run('weather?');
}

async function measure(tracing) {
  for (let i = 0; i < WARMUP; i++) await turn(tracing);
  globalThis.gc?.();
  const t0 = performance.now();
  for (let i = 0; i < ITERATIONS; i++) await turn(tracing);
  return ((performance.now() - t0) * 1000) / ITERATIONS;
}

// The instrumentation alone, as a turn of this benchmark drives it (two model calls, one tool
// call, the turn's end) with no provider registered: what tracing costs a host that never
// enables it.
function instrumentationOnly() {
  const now = () => performance.now();
  const t = new TurnTracing({ sessionId: 's', turn: 1, language: 'en-US', model: 'scripted', now });
  t.modelStart();
  t.modelPart(true);
  t.modelEnd({ inputTokens: 10, outputTokens: 5 });
  const call = t.toolCall('c1', 'lookup', 'action', 0, { city: 'Paris' });
  call.dispatched();
  call.end(undefined, { weather: 'sunny' });
  t.modelStart();
  t.modelPart(false);
  t.modelEnd({ inputTokens: 20, outputTokens: 5 });
  return t.end({ interrupted: false });
}

function measureInstrumentation() {
  for (let i = 0; i < WARMUP * 10; i++) instrumentationOnly();
  const n = ITERATIONS * 10;
  const t0 = performance.now();
  for (let i = 0; i < n; i++) instrumentationOnly();
  return ((performance.now() - t0) * 1000) / n;
}

const off = [];
const on = [];
for (let r = 0; r < ROUNDS; r++) {
  off.push(await measure(false));
  on.push(await measure(true));
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const m0 = median(off);
const m1 = median(on);
console.log(
  `per-turn, no provider:         ${m0.toFixed(1)} µs (median of ${ROUNDS} × ${ITERATIONS})`,
);
console.log(
  `per-turn, recording tracer:    ${m1.toFixed(1)} µs (+${(m1 - m0).toFixed(1)} µs, 4 spans/turn)`,
);
const alone = [];
for (let r = 0; r < ROUNDS; r++) alone.push(measureInstrumentation());
const m2 = median(alone);
console.log(
  `instrumentation alone, no provider: ${m2.toFixed(2)} µs/turn (${((m2 / m0) * 100).toFixed(1)}% of the turn)`,
);
console.log(`spans exported: ${exported}`);
