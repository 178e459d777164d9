// Session engine benchmark: per-turn engine CPU with a scripted model (one tool call, then a final
// answer), side by side with @openai/agents (Runner with a fake Model) and the Vercel `ai` SDK v5
// (generateText with MockLanguageModelV2), plus heap per idle session holding 10 tools. Run with
// --expose-gc (bench/run.mjs does).
//
// Two tool variants: in-process (the tool returns an object), and HTTP (each peer's tool makes the
// same `undici.request` POST to a loopback server in a child process, answering at once). The three
// peers run interleaved — 8 rounds, the order rotating each round — so all see the same machine;
// each round measures CPU per turn (process.cpuUsage: user + system, GC included). Reported: the
// median and the spread (min–max over rounds) of CPU per turn, and of each peer's ratio to
// switchboard in the same round. Options (env): SESSION_BENCH_ROUNDS (8), SESSION_BENCH_TURNS
// (turns per peer per round, in-process; 4,000), SESSION_BENCH_HTTP_TURNS (500; 0 skips HTTP).
import { request } from 'undici';
import { createSession, loadTools } from '../dist/index.js';
import { ScriptedModel } from '../dist/testing.js';
import { Agent, Runner, Usage, setTracingDisabled, tool as agentsTool } from '@openai/agents';
import { generateText, stepCountIs, tool as aiTool } from 'ai';
import { MockLanguageModelV2 } from 'ai/test';
import { z } from 'zod';
import { startUpstream } from './order-tool.mjs';

const WARMUP = 2_000;
const ROUNDS = Number(process.env.SESSION_BENCH_ROUNDS ?? 8);
const TURNS = Number(process.env.SESSION_BENCH_TURNS ?? 4_000);
const HTTP_TURNS = Number(process.env.SESSION_BENCH_HTTP_TURNS ?? 500);

const schema = {
  type: 'object',
  properties: { city: { type: 'string' } },
  required: ['city'],
  additionalProperties: false,
};
const inProcess = async (city) => ({ city, weather: 'sunny' });
// The HTTP variant's tool, the same for every peer.
const { upstream, origin } = HTTP_TURNS > 0 ? await startUpstream(0) : {};
const overHttp = async (city) => {
  const res = await request(`${origin}/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ref: city }),
  });
  await res.body.json();
  return { city, weather: 'sunny' };
};
// The tool every peer's turn calls (set per variant).
let lookup = inProcess;

// --- switchboard --------------------------------------------------------------------------
const toolSet = await loadTools([
  {
    type: 'action',
    tool: {
      type: 'function',
      function: { name: 'lookup', description: 'Weather', parameters: schema },
    },
  },
]);
const actions = new Map([['lookup', (args) => lookup(args.city)]]);
// The idle sessions' ten action tools, each with its action (an action naming no tool is refused).
const heapActions = new Map(
  Array.from({ length: 10 }, (_, i) => [`tool_${i}`, (args) => inProcess(args.city)]),
);
const steps = [
  { tool_calls: [{ name: 'lookup', args: { city: 'Bronx' } }] },
  { text: 'It is sunny.' },
];
async function switchboardTurn() {
  const session = createSession({ tools: toolSet, model: new ScriptedModel(steps), actions });
  const r = await session.run('weather in the Bronx?');
  if (r.content !== 'It is sunny.' || r.traces.length !== 1)
    throw new Error('switchboard: wrong result');
}

// --- @openai/agents -----------------------------------------------------------------------
setTracingDisabled(true);
class FakeModel {
  constructor() {
    this.n = 0;
  }
  async getResponse() {
    const usage = new Usage();
    if (this.n++ % 2 === 0) {
      return {
        usage,
        output: [
          {
            type: 'function_call',
            callId: `c${this.n}`,
            name: 'lookup',
            arguments: '{"city":"Bronx"}',
            status: 'completed',
          },
        ],
      };
    }
    return {
      usage,
      output: [
        {
          type: 'message',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: 'It is sunny.' }],
        },
      ],
    };
  }
  async *getStreamedResponse() {
    throw new Error('not used');
  }
}
const agentsLookup = agentsTool({
  name: 'lookup',
  description: 'Weather',
  parameters: z.object({ city: z.string() }),
  execute: async ({ city }) => lookup(city),
});
const runner = new Runner({ tracingDisabled: true });
async function agentsTurn() {
  const agent = new Agent({
    name: 'a',
    instructions: 'Be brief.',
    model: new FakeModel(),
    tools: [agentsLookup],
  });
  const r = await runner.run(agent, 'weather in the Bronx?');
  if (r.finalOutput !== 'It is sunny.') throw new Error(`agents: wrong result ${r.finalOutput}`);
}

// --- ai SDK v5 ----------------------------------------------------------------------------
const aiLookup = aiTool({
  description: 'Weather',
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) => lookup(city),
});
const usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
async function aiTurn() {
  let n = 0;
  const model = new MockLanguageModelV2({
    doGenerate: async () =>
      n++ === 0
        ? {
            content: [
              {
                type: 'tool-call',
                toolCallId: 'c1',
                toolName: 'lookup',
                input: '{"city":"Bronx"}',
              },
            ],
            finishReason: 'tool-calls',
            usage,
            warnings: [],
          }
        : {
            content: [{ type: 'text', text: 'It is sunny.' }],
            finishReason: 'stop',
            usage,
            warnings: [],
          },
  });
  const r = await generateText({
    model,
    tools: { lookup: aiLookup },
    stopWhen: stepCountIs(5),
    prompt: 'weather in the Bronx?',
  });
  if (r.text !== 'It is sunny.') throw new Error(`ai: wrong result ${r.text}`);
}

/** CPU µs per turn of `turns` turns of `fn`. */
async function cpuPerTurn(fn, turns) {
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < turns; i++) await fn();
  const cpu = process.cpuUsage(cpu0);
  return (cpu.user + cpu.system) / turns;
}

const peers = [
  ['switchboard', switchboardTurn],
  ['@openai/agents', agentsTurn],
  ['ai (v5)', aiTurn],
];
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
};

/** The three peers interleaved, rotating order, ROUNDS rounds; per-round CPU and ratios. */
async function compare(label, tool, turns) {
  lookup = tool;
  for (const [, fn] of peers) for (let i = 0; i < Math.min(WARMUP, turns * 2); i++) await fn();
  const cpu = new Map(peers.map(([name]) => [name, []]));
  const ratio = new Map(peers.map(([name]) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    const order = peers.map((_, i) => peers[(i + round) % peers.length]);
    const got = new Map();
    for (const [name, fn] of order) {
      // No forced GC between peers: its aftermath (a shrunken young generation, concurrent
      // sweeping) landed in the next peer's timed turns, a few times their cost. Instead an untimed
      // quarter of the block first, so what the previous peer left is collected outside the timing.
      for (let i = 0; i < turns / 4; i++) await fn();
      got.set(name, await cpuPerTurn(fn, turns));
    }
    for (const [name] of peers) {
      cpu.get(name).push(got.get(name));
      ratio.get(name).push(got.get(name) / got.get('switchboard'));
    }
  }
  console.log(
    `CPU per turn, ${label} (1 tool call + final answer; ${ROUNDS} interleaved rounds × ${turns} turns, order rotating): median [min–max]`,
  );
  for (const [name] of peers) {
    const c = cpu.get(name);
    const r = ratio.get(name);
    console.log(
      `  ${name.padEnd(16)} ${pct(c, 50).toFixed(1).padStart(8)} µs/turn [${Math.min(...c).toFixed(1)}–${Math.max(...c).toFixed(1)}]` +
        (name === 'switchboard'
          ? ''
          : `  → ${pct(r, 50).toFixed(2)}× switchboard's [${Math.min(...r).toFixed(2)}–${Math.max(...r).toFixed(2)}]`),
    );
  }
}

await compare('in-process tool', inProcess, TURNS);
if (HTTP_TURNS > 0) {
  await compare('HTTP tool (undici.request to a loopback server)', overHttp, HTTP_TURNS);
  upstream.kill();
}

// --- heap per idle session ------------------------------------------------------------------
if (typeof globalThis.gc !== 'function') {
  console.log('heap per idle session: skipped (run with --expose-gc)');
} else {
  const ten = await loadTools(
    Array.from({ length: 10 }, (_, i) => ({
      type: 'action',
      tool: {
        type: 'function',
        function: { name: `tool_${i}`, description: `Tool ${i}`, parameters: schema },
      },
    })),
  );
  const model = new ScriptedModel([]);
  const N = 2_000;
  const keep = [];
  globalThis.gc();
  globalThis.gc();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < N; i++)
    keep.push(
      createSession({ tools: ten, model, actions: heapActions, vars: { caller: `+1555000${i}` } }),
    );
  globalThis.gc();
  globalThis.gc();
  const after = process.memoryUsage().heapUsed;
  const perSession = (after - before) / N;
  console.log(
    `heap per idle session (10 tools, ${N} sessions): ${(perSession / 1024).toFixed(2)} KB (target ≤ 16 KB)`,
  );
  if (keep.length !== N) throw new Error('unreachable');
}
