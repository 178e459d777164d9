// Session engine benchmark: per-turn engine overhead with a scripted model (one tool call to an
// in-process action handler, then a final answer), side by side with @openai/agents (Runner with
// a fake Model) and the Vercel `ai` SDK v5 (generateText with MockLanguageModelV2), plus heap per
// idle session holding 10 tools. Run with --expose-gc (bench/run.mjs does).
import { performance } from 'node:perf_hooks';
import { createSession, loadTools } from '../dist/index.js';
import { ScriptedModel } from '../dist/testing.js';
import { Agent, Runner, Usage, setTracingDisabled, tool as agentsTool } from '@openai/agents';
import { generateText, stepCountIs, tool as aiTool } from 'ai';
import { MockLanguageModelV2 } from 'ai/test';
import { z } from 'zod';

const WARMUP = 2_000;
const ITERATIONS = 20_000;
const ROUNDS = 3;

const schema = {
  type: 'object',
  properties: { city: { type: 'string' } },
  required: ['city'],
  additionalProperties: false,
};
const lookup = (city) => ({ city, weather: 'sunny' });

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

async function measure(fn) {
  for (let i = 0; i < WARMUP; i++) await fn();
  let best = Infinity;
  for (let round = 0; round < ROUNDS; round++) {
    globalThis.gc?.();
    const start = performance.now();
    for (let i = 0; i < ITERATIONS; i++) await fn();
    best = Math.min(best, (performance.now() - start) / ITERATIONS);
  }
  return best * 1000; // µs per turn
}

const results = [
  ['switchboard', await measure(switchboardTurn)],
  ['@openai/agents', await measure(agentsTurn)],
  ['ai (v5)', await measure(aiTurn)],
];
console.log(
  `per-turn engine overhead (scripted model, 1 tool call + final answer; best of ${ROUNDS} × ${ITERATIONS}):`,
);
for (const [name, us] of results)
  console.log(`  ${name.padEnd(16)} ${us.toFixed(1).padStart(8)} µs/turn`);
const fastest = results.reduce((a, b) => (b[1] < a[1] ? b : a));
console.log(`  lowest overhead: ${fastest[0]}`);

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
    keep.push(createSession({ tools: ten, model, actions, vars: { caller: `+1555000${i}` } }));
  globalThis.gc();
  globalThis.gc();
  const after = process.memoryUsage().heapUsed;
  const perSession = (after - before) / N;
  console.log(
    `heap per idle session (10 tools, ${N} sessions): ${(perSession / 1024).toFixed(2)} KB (target ≤ 16 KB)`,
  );
  if (keep.length !== N) throw new Error('unreachable');
}
