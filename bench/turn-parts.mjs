// What an engine turn costs, part by part: CPU per operation in a closed loop (no pacing) of
// --concurrency callers (default 20, each with sessions of its own), against a loopback upstream
// in a child process answering at once. The parts:
//   bare              undici `dispatch` of the benchmark's POST, body collected and parsed
//   handler           the same call through the endpoint handler alone (no session)
//   turn-text         a turn whose model answers with text (one model call)
//   turn-action       a turn calling a host action that returns at once (two model calls)
//   turn-action-http  the same, the action making the `bare` call: action turn + HTTP call
//   turn-endpoint     the benchmark's turn: the endpoint tool, then the answer (five-turn sessions)
// turn-endpoint minus turn-action-http is what the endpoint handler adds inside a session;
// turn-action-http minus (turn-action + bare) is the cost of a turn waiting on I/O in the middle.
//   node bench/turn-parts.mjs [--concurrency 20] [--ms 700] [--only bare,turn-endpoint]
import { parseArgs } from 'node:util';
import { Agent } from 'undici';
import { createEndpointHandler, createSession, loadTools } from '../dist/index.js';
import { ScriptedModel } from '../dist/testing.js';
import { dispatchJson } from './bare-dispatch.mjs';
import {
  ORDER_ANSWER,
  ORDER_TEXT,
  orderDefinition,
  orderPlaced,
  orderRequest,
  orderScript,
  startUpstream,
} from './order-tool.mjs';

const { values } = parseArgs({
  options: {
    concurrency: { type: 'string', default: '20' },
    ms: { type: 'string', default: '700' },
    only: { type: 'string' },
  },
});
const concurrency = Number(values.concurrency);
const ms = Number(values.ms);
if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 1000)
  throw new Error('--concurrency must be an integer in 1..1000');
if (!Number.isFinite(ms) || ms < 50 || ms > 60_000) throw new Error('--ms must be in 50..60000');

const { upstream, origin } = await startUpstream(0);

// --- bare: the request the engine sends, without its idempotency key ----------------------------
const agent = new Agent();
const ORDER = orderRequest(origin);
const bare = () => dispatchJson(agent, ORDER, orderPlaced);

// --- the engine's parts ---------------------------------------------------------------------------
const endpointTools = await loadTools([orderDefinition(origin)]);
const actionTools = await loadTools([{ type: 'action', tool: orderDefinition(origin).tool }]);
const tool = endpointTools.tools.get('place_order');
const handler = createEndpointHandler({});
const handlerSession = { id: 's1', language: 'en-US', vars: {} };
const never = new AbortController().signal;
async function handlerCall() {
  const out = await handler.execute(
    { ref: 'r' },
    { tool, callId: 'c', session: handlerSession, signal: never },
  );
  if (out.type !== 'success') throw new Error(`handler call: ${JSON.stringify(out)}`);
}
const textScript = (turns) => Array.from({ length: turns }, () => ({ text: ORDER_ANSWER }));

/** One caller's turns: a new session every `turns` turns (the script's length). */
function turns(toolSet, steps, stepsPerTurn, actions) {
  let session;
  let left = 0;
  return async () => {
    if (left === 0) {
      session = createSession({
        tools: toolSet,
        model: new ScriptedModel(steps),
        ...(actions === undefined ? {} : { actions }),
      });
      left = steps.length / stepsPerTurn;
    }
    left--;
    const r = await session.run(ORDER_TEXT);
    if (r.content !== ORDER_ANSWER) throw new Error(`turn ended with ${JSON.stringify(r.content)}`);
  };
}

// Each part makes one operation function per caller.
const parts = {
  bare: () => bare,
  handler: () => handlerCall,
  'turn-text': () => turns(endpointTools, textScript(5), 1),
  'turn-action': () => turns(actionTools, orderScript(5), 2, { place_order: () => ({ ok: true }) }),
  'turn-action-http': () => turns(actionTools, orderScript(5), 2, { place_order: () => bare() }),
  'turn-endpoint': () => turns(endpointTools, orderScript(5), 2),
};
const names = values.only === undefined ? Object.keys(parts) : values.only.split(',');
for (const name of names) if (!(name in parts)) throw new Error(`unknown part ${name}`);

async function measure(name, window) {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let n = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      const op = parts[name]();
      while (performance.now() - t0 < window) {
        await op();
        n++;
      }
    }),
  );
  const cpu = process.cpuUsage(cpu0);
  return (cpu.user + cpu.system) / n;
}

// Warm-up (the JIT and the pools), then five rounds, the parts alternating.
for (const name of names) await measure(name, 1500);
const rows = new Map(names.map((n) => [n, []]));
for (let round = 0; round < 5; round++)
  for (const name of names) rows.get(name).push(await measure(name, ms));
console.log(
  `CPU per operation, closed loop, ${concurrency} callers, upstream answering at once (median of 5):`,
);
for (const [name, xs] of rows) {
  xs.sort((a, b) => a - b);
  console.log(
    `  ${name.padEnd(17)} ${xs[2].toFixed(1).padStart(6)} µs   (${xs.map((x) => x.toFixed(0)).join(' ')})`,
  );
}
upstream.kill();
await agent.close();
await handler.close();
