/**
 * The `@openai/agents` adapter with the real package: a fake `Model` (the SDK's Model interface)
 * drives `Runner.run` on an `Agent` holding the adapter's function tools; the calls go to a
 * loopback API through a switchboard session. Tracing is off (it would export to OpenAI).
 */
import { RealtimeAgent, type RealtimeContextData } from '@openai/agents/realtime';
import {
  Agent,
  RunContext,
  Runner,
  invokeFunctionTool,
  Usage,
  type AgentInputItem,
  type Model,
  type ModelRequest,
  type ModelResponse,
} from '@openai/agents';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpokenLine } from '../../src/adapters/core.js';
import { createAgentsTools, type AgentsToolsOptions } from '../../src/adapters/openai-agents.js';
import { loadTools } from '../../src/definition/load.js';
import { startLoopbackApi, toolDefinitions, type LoopbackApi } from '../mcp/server-helpers.js';

let api: LoopbackApi;
beforeAll(async () => {
  api = await startLoopbackApi();
});
afterAll(() => api.close());

/** A model that makes `calls` (name, arguments text) in its first response, then says "done". */
class FakeModel implements Model {
  readonly requests: ModelRequest[] = [];
  constructor(readonly calls: [string, string][]) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    if (this.requests.length === 1)
      return {
        usage: new Usage(),
        output: this.calls.map(([name, args], i) => ({
          type: 'function_call',
          callId: `call_${i}`,
          name,
          arguments: args,
          status: 'completed',
        })),
      };
    return {
      usage: new Usage(),
      output: [
        {
          type: 'message',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: 'done' }],
        },
      ],
    };
  }

  // eslint-disable-next-line require-yield
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error('not streamed in these tests');
  }
}

async function agentsTools(options: Partial<AgentsToolsOptions> = {}) {
  return createAgentsTools({ tools: await loadTools(toolDefinitions(api.base)), ...options });
}

async function runWith(tools: Awaited<ReturnType<typeof agentsTools>>, model: FakeModel) {
  const agent = new Agent({ name: 'desk', instructions: 'help', model, tools: tools.tools });
  return new Runner({ tracingDisabled: true }).run(agent, 'hi');
}

/** The function-call outputs the model was sent in its second request. */
function outputsSent(model: FakeModel): string[] {
  const input = model.requests[1]!.input as AgentInputItem[];
  return input.flatMap((item) => {
    if (item.type !== 'function_call_result') return [];
    const output = item.output;
    if (typeof output === 'string') return [output];
    return !Array.isArray(output) && output.type === 'text' ? [output.text] : [];
  });
}

describe('createAgentsTools with Runner.run', () => {
  it('runs a call through the pipeline with static parameters hidden from the model', async () => {
    const sb = await agentsTools();
    const model = new FakeModel([['get_weather', '{"city":"Paris"}']]);
    const result = await runWith(sb, model);
    expect(result.finalOutput).toBe('done');
    const shown = model.requests[0]!.tools.find(
      (t) => t.type === 'function' && t.name === 'get_weather',
    );
    expect(JSON.stringify(shown)).not.toContain('units');
    expect(api.seen.at(-1)!.url).toBe('/weather?city=Paris&units=metric');
    expect(outputsSent(model)).toEqual(['{"summary":"sunny","temp":21}']);
    await sb.close();
  });

  it('returns a tool error to the model with its code; the run goes on', async () => {
    const sb = await agentsTools();
    const model = new FakeModel([
      ['order_status', '{}'],
      ['book', '{"seats":0}'],
      ['book', '{"seats":'],
    ]);
    const result = await runWith(sb, model);
    expect(result.finalOutput).toBe('done');
    const [notFound, invalid, unparsed] = outputsSent(model);
    const codes = [notFound, invalid].map(
      (text) => (JSON.parse(text!) as { error: { code: string } }).error.code,
    );
    expect(codes).toEqual(['http_status', 'invalid_arguments']);
    // Arguments that are not JSON: the SDK answers them itself, before `execute`.
    expect(unparsed).toMatch(/valid JSON/);
    expect(api.seen.some((r) => r.url.startsWith('/book'))).toBe(false);
    await sb.close();
  });

  it('keeps the session state across calls and passes spoken lines to onSay', async () => {
    const said: SpokenLine[] = [];
    const sb = await agentsTools({ languages: ['en-US', 'es-US'], onSay: (l) => said.push(l) });
    await runWith(sb, new FakeModel([['set_language', '{"language":"es-US","message":"Hola"}']]));
    expect(sb.session.language).toBe('es-US');
    expect(said).toEqual([{ text: 'Hola', source: 'tool', tool: 'set_language' }]);
    await sb.close();
  });

  it('serves a RealtimeAgent with the same tool objects, invoked as RealtimeSession does', async () => {
    const sb = createAgentsTools<RealtimeContextData>({
      tools: await loadTools(toolDefinitions(api.base)),
    });
    const agent = new RealtimeAgent({ name: 'voice', instructions: 'help', tools: sb.tools });
    const invoke = async (name: string, input: string) => {
      const fn = agent.tools.find((t) => t.type === 'function' && t.name === name)!;
      if (fn.type !== 'function') throw new Error('not a function tool');
      // What RealtimeSession does with a function call from the Realtime model.
      return invokeFunctionTool({
        tool: fn,
        runContext: new RunContext<RealtimeContextData>({ history: [] }),
        input,
        details: {
          toolCall: { type: 'function_call', callId: 'rt1', name, arguments: input },
        },
      });
    };
    expect(await invoke('get_weather', '{"city":"Oslo"}')).toBe('{"summary":"sunny","temp":21}');
    expect(api.seen.at(-1)!.url).toBe('/weather?city=Oslo&units=metric');
    const failed = JSON.parse(String(await invoke('order_status', '{}'))) as {
      error: { code: string };
    };
    expect(failed.error.code).toBe('http_status');
    await sb.close();
  });
});
