// Adapter overhead: one tool call through each framework adapter (switchboard/ai,
// switchboard/openai-agents, switchboard/livekit), its tool invoked as the framework invokes it —
// `ai`: `tool.execute(input, { toolCallId, messages, abortSignal })`; `@openai/agents`:
// `invokeFunctionTool` with the model's argument text (what its Runner calls, JSON parsing
// included); LiveKit: `tool.execute(args, { ctx, toolCallId, abortSignal })` (what its
// ToolExecutor calls) — without the framework's model loop. Against (b) the same call made
// directly in a switchboard session (a ScriptedModel turn that makes it), and (c) a hand-written
// tool of that framework doing the same work (zod parameters, the same action function or the
// same `undici.request` POST). Two tools: an in-process action tool, and an endpoint tool POSTing
// to a loopback node:http server in a child process that answers at once.
//
// The seven peers run interleaved — 8 rounds, the order rotating each round — so all see the same
// machine. Each round measures CPU per call (process.cpuUsage: user + system, GC included) and
// wall time per call, calls one after another. Reported: the median and the spread (min–max over
// rounds) of each, and of each adapter's ratio to the direct call and to its hand-written tool in
// the same round, with the CPU it adds per call. The adapter keeps one session per instance and
// restarts it from its state every 32 calls (docs/adapters.md); the direct side likewise uses one
// session per 32 calls, so both amortise a session's start alike.
// Last, one `ai` adapter instance makes 5 blocks of 2 × ADAPTERS_BENCH_CALLS calls: CPU per call
// by block and the heap retained per call (a full GC before and after; needs --expose-gc), to show
// whether anything grows with the calls an instance made.
// Options (env): ADAPTERS_BENCH_ROUNDS (8), ADAPTERS_BENCH_CALLS (calls per adapter and direct
// peer per round, in-process; 10,000; the hand-written tools make 10× as many, each costing a few µs at most),
// ADAPTERS_BENCH_HTTP_CALLS (1,000; 0 skips the endpoint tool).
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { request } from 'undici';
import { z } from 'zod';
import { tool as aiTool } from 'ai';
import { RunContext, invokeFunctionTool, tool as agentsTool } from '@openai/agents';
import { llm } from '@livekit/agents';
import { createSession, loadTools } from '../dist/index.js';
import { ScriptedModel } from '../dist/testing.js';
import { createAiTools } from '../dist/entries/ai.js';
import { createAgentsTools } from '../dist/entries/openai-agents.js';
import { createLiveKitTools } from '../dist/entries/livekit.js';
import { orderDefinition } from './order-tool.mjs';

const ROUNDS = Number(process.env.ADAPTERS_BENCH_ROUNDS ?? 8);
const CALLS = Number(process.env.ADAPTERS_BENCH_CALLS ?? 10_000);
const HTTP_CALLS = Number(process.env.ADAPTERS_BENCH_HTTP_CALLS ?? 1_000);
const HAND_FACTOR = 10;
const WARMUP = 500;
/** Calls per direct session: the adapter restarts its session every 32 calls. */
const PER_SESSION = 32;

// --- the loopback server (child process; its CPU is not the measured process's) ------------
const SERVER = `
const { createServer } = require('node:http');
const s = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"ok":true,"ref":"r"}');
  });
});
s.keepAliveTimeout = 60000;
s.listen(0, '127.0.0.1', () => console.log(s.address().port));
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
`;
async function startServer() {
  const child = spawn(process.execPath, ['-e', SERVER], { stdio: ['pipe', 'pipe', 'inherit'] });
  const port = await new Promise((resolve, reject) => {
    child.stdout.once('data', (c) => resolve(Number(String(c).trim())));
    child.once('exit', (code) => reject(new Error(`loopback server exited ${code}`)));
  });
  return { child, origin: `http://127.0.0.1:${port}` };
}
const server = HTTP_CALLS > 0 ? await startServer() : undefined;

// --- the tools ------------------------------------------------------------------------------
const lookupDefinition = {
  type: 'action',
  tool: {
    type: 'function',
    function: {
      name: 'lookup',
      description: 'Weather',
      parameters: {
        type: 'object',
        properties: { city: { type: 'string' } },
        required: ['city'],
        additionalProperties: false,
      },
    },
  },
};
const definitions = [lookupDefinition];
if (server !== undefined) definitions.push(orderDefinition(server.origin));
const toolSet = await loadTools(definitions);
/** The action's work, the same for every peer. */
const lookup = async (city) => ({ city, weather: 'sunny' });
const actions = new Map([['lookup', (args) => lookup(args.city)]]);
/** The endpoint's work as a hand-written tool does it. */
const placeOrder = async (ref) => {
  const res = await request(`${server.origin}/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ref }),
  });
  if (res.statusCode !== 200) throw new Error(`upstream answered ${res.statusCode}`);
  return res.body.json();
};

/**
 * Each variant: the tool's name, its arguments, a check of its result as a value, and the tool
 * message (text) a switchboard model gets, which the `ai` and `@openai/agents` adapters return.
 */
const variants = {
  action: {
    name: 'lookup',
    args: { city: 'Bronx' },
    check: (v) => v.weather === 'sunny',
    text: '{"city":"Bronx","weather":"sunny"}',
  },
  endpoint: {
    name: 'place_order',
    args: { ref: 'r' },
    check: (v) => v.ok === true,
    text: '{"ok":true,"ref":"r"}',
  },
};

// --- (b) direct: a session whose ScriptedModel makes the call, PER_SESSION calls a session --
function directCaller({ name, args, check }) {
  const script = [];
  for (let i = 0; i < PER_SESSION; i++) script.push({ tool_calls: [{ name, args }] }, {});
  let session;
  let left = 0;
  return async function direct() {
    if (left === 0) {
      await session?.close();
      session = createSession({ tools: toolSet, model: new ScriptedModel(script), actions });
      left = PER_SESSION;
    }
    left--;
    const r = await session.run('call it');
    const trace = r.traces[0];
    if (trace === undefined || trace.isError || !check(trace.output))
      throw new Error(`direct: wrong result ${JSON.stringify(trace)}`);
  };
}

// --- (a) the adapters, one instance each (one conversation) ----------------------------------
const sbAi = createAiTools({ tools: toolSet, actions });
const sbAgents = createAgentsTools({ tools: toolSet, actions });
const sbLiveKit = createLiveKitTools({ tools: toolSet, actions });
const aiOptions = () => ({ toolCallId: 'c1', messages: [], abortSignal: undefined });
const agentsContext = new RunContext();
const agentsDetails = (name, text) => ({
  toolCall: { type: 'function_call', callId: 'c1', name, arguments: text, status: 'completed' },
});
// LiveKit's ToolExecutor passes a RunContext bound to its AgentSession; the tools read only
// `ctx.session.say`, for spoken lines, and these tools say nothing.
const liveKitOptions = () => ({
  ctx: { session: { say: () => undefined } },
  toolCallId: 'c1',
  abortSignal: new AbortController().signal,
});
const find = (list, name) => list.find((t) => t.name === name);

function adapterCallers({ name, args, check, text: message }) {
  const text = JSON.stringify(args);
  const ai = sbAi.tools[name];
  const agents = find(sbAgents.tools, name);
  const liveKit = find(sbLiveKit.tools, name);
  return {
    ai: async () => {
      const out = await ai.execute(args, aiOptions());
      if (out !== message) throw new Error(`ai: wrong ${out}`);
    },
    agents: async () => {
      const out = await invokeAgentsTool(agents, name, text);
      if (out !== message) throw new Error(`agents: wrong ${out}`);
    },
    livekit: async () => {
      if (!check(await liveKit.execute(args, liveKitOptions()))) throw new Error('livekit: wrong');
    },
  };
}

/** An `@openai/agents` function tool invoked as the SDK's runner does, with the argument text. */
function invokeAgentsTool(tool, name, text) {
  return invokeFunctionTool({
    tool,
    runContext: agentsContext,
    input: text,
    details: agentsDetails(name, text),
  });
}

// --- (c) hand-written tools of each framework doing the same work ----------------------------
function handCallers({ name, args, check }, work, schema) {
  const text = JSON.stringify(args);
  const ai = aiTool({ description: name, inputSchema: schema, execute: work });
  const agents = agentsTool({ name, description: name, parameters: schema, execute: work });
  const liveKit = llm.tool({ name, description: name, parameters: schema, execute: work });
  return {
    ai: async () => {
      if (!check(await ai.execute(args, aiOptions()))) throw new Error('ai tool: wrong');
    },
    agents: async () => {
      if (!check(await invokeAgentsTool(agents, name, text))) throw new Error('agents tool: wrong');
    },
    livekit: async () => {
      if (!check(await liveKit.execute(args, liveKitOptions())))
        throw new Error('livekit tool: wrong');
    },
  };
}

// --- measurement ----------------------------------------------------------------------------
/** CPU and wall µs per call over `n` calls of `fn`, one after another. */
async function measure(fn, n) {
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await fn();
  const wall = Number(process.hrtime.bigint() - t0) / 1e3 / n;
  const cpu = process.cpuUsage(cpu0);
  return { cpu: (cpu.user + cpu.system) / n, wall };
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const fmt = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
const stat = (xs, unit = '') =>
  `${fmt(median(xs))}${unit} [${fmt(Math.min(...xs))}–${fmt(Math.max(...xs))}]`;
const FRAMEWORKS = [
  ['ai', 'ai (v5)'],
  ['agents', '@openai/agents'],
  ['livekit', 'LiveKit'],
];

async function compare(label, variant, work, schema, calls, handCalls) {
  const adapters = adapterCallers(variant);
  const hand = handCallers(variant, work, schema);
  const peers = [
    ['direct', directCaller(variant), calls],
    ...FRAMEWORKS.map(([k]) => [`${k} adapter`, adapters[k], calls]),
    ...FRAMEWORKS.map(([k]) => [`${k} tool`, hand[k], handCalls]),
  ];
  for (const [, fn, n] of peers) for (let i = 0; i < Math.min(WARMUP, n); i++) await fn();
  const got = new Map(peers.map(([name]) => [name, { cpu: [], wall: [] }]));
  for (let round = 0; round < ROUNDS; round++) {
    const order = peers.map((_, i) => peers[(i + round) % peers.length]);
    // No forced collection between peers: after a forced full GC the next peer's 2,000 calls ran
    // 5× slower (V8 recovering from it, not the peer's own cost). Each peer's garbage is
    // collected during whoever runs next; the rotating order spreads that alike.
    for (const [name, fn, n] of order) {
      const m = await measure(fn, n);
      got.get(name).cpu.push(m.cpu);
      got.get(name).wall.push(m.wall);
    }
  }
  console.log(
    `${label}: ${ROUNDS} interleaved rounds, order rotating; per round ${calls} calls per adapter and direct, ${handCalls} per hand-written tool; median [min–max] over rounds`,
  );
  for (const [name] of peers) {
    const { cpu, wall } = got.get(name);
    console.log(`  ${name.padEnd(16)} CPU ${stat(cpu, ' µs')} per call; wall ${stat(wall, ' µs')}`);
  }
  const direct = got.get('direct').cpu;
  for (const [k, title] of FRAMEWORKS) {
    const a = got.get(`${k} adapter`).cpu;
    const h = got.get(`${k} tool`).cpu;
    const byRound = (f) => a.map((x, i) => f(x, i));
    console.log(
      `  ${title} adapter, CPU: ${stat(
        byRound((x, i) => x / direct[i]),
        '×',
      )} the direct call (${stat(
        byRound((x, i) => x - direct[i]),
        ' µs',
      )} added); ` +
        `${stat(
          byRound((x, i) => x / h[i]),
          '×',
        )} the hand-written tool (${stat(
          byRound((x, i) => x - h[i]),
          ' µs',
        )} added)`,
    );
  }
}

const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
console.log(`load average at start: ${load()} (${process.version})`);
await compare(
  'In-process action tool',
  variants.action,
  async ({ city }) => lookup(city),
  z.object({ city: z.string() }),
  CALLS,
  CALLS * HAND_FACTOR,
);
if (server !== undefined) {
  await compare(
    'Endpoint tool (POST to a loopback node:http server in a child process)',
    variants.endpoint,
    async ({ ref }) => placeOrder(ref),
    z.object({ ref: z.string() }),
    HTTP_CALLS,
    HTTP_CALLS,
  );
  server.child.kill();
}
// --- growth: does an adapter's call cost or heap grow with the calls an instance made? --------
{
  const GROWTH_BLOCKS = 5;
  const GROWTH_CALLS = Math.max(1, CALLS * 2);
  const sb = createAiTools({ tools: toolSet, actions });
  const t = sb.tools.lookup;
  const call = () => t.execute(variants.action.args, aiOptions());
  for (let i = 0; i < WARMUP; i++) await call();
  const heap = () => {
    globalThis.gc?.();
    return process.memoryUsage().heapUsed;
  };
  const before = heap();
  // An unmeasured block first: the calls right after a forced GC run slow (see above).
  await measure(call, GROWTH_CALLS);
  const blocks = [];
  for (let b = 0; b < GROWTH_BLOCKS; b++) blocks.push((await measure(call, GROWTH_CALLS)).cpu);
  const after = heap();
  const calls = (GROWTH_BLOCKS + 1) * GROWTH_CALLS;
  console.log(
    `Growth, one ai adapter instance, ${GROWTH_BLOCKS} blocks × ${GROWTH_CALLS} calls: CPU per call by block ${blocks.map(fmt).join(', ')} µs; ` +
      (typeof globalThis.gc === 'function'
        ? `heap after a full GC ${(before / 1e6).toFixed(1)} → ${(after / 1e6).toFixed(1)} MB (${((after - before) / calls).toFixed(1)} bytes per call)`
        : 'heap: skipped (run with --expose-gc)'),
  );
  await sb.close();
}
console.log(`load average at end: ${load()}`);
await Promise.all([sbAi.close(), sbAgents.close(), sbLiveKit.close()]);
