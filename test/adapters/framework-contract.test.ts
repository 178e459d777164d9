/**
 * What each adapter hands its framework, checked on the tool objects themselves (docs/adapters.md):
 * the model is shown each tool's description; the framework's abort signal reaches the call (an
 * already aborted one cancels it before it starts); `@openai/agents` arguments that are not JSON,
 * invoked as a RealtimeSession does, come back as switchboard's `invalid_arguments` message.
 */
import { RunContext, invokeFunctionTool } from '@openai/agents';
import { llm } from '@livekit/agents';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAiTools } from '../../src/adapters/ai.js';
import { SwitchboardToolError } from '../../src/adapters/core.js';
import { createAgentsTools } from '../../src/adapters/openai-agents.js';
import { createLiveKitTools } from '../../src/adapters/livekit.js';
import { loadTools } from '../../src/definition/load.js';
import { startLoopbackApi, toolDefinitions, type LoopbackApi } from '../mcp/server-helpers.js';

let api: LoopbackApi;
beforeAll(async () => {
  api = await startLoopbackApi();
});
afterAll(() => api.close());

const tools = () => loadTools(toolDefinitions(api.base));
const weatherRequests = () => api.seen.filter((r) => r.url.startsWith('/weather')).length;
const codeOf = (output: unknown) =>
  (JSON.parse(String(output)) as { error: { code: string } }).error.code;

describe("each adapter shows the model the tools' descriptions", () => {
  it('ai, @openai/agents and LiveKit', async () => {
    const ai = createAiTools({ tools: await tools() });
    expect(ai.tools['get_weather']!.description).toBe('Current weather for a city.');
    const agents = createAgentsTools({ tools: await tools() });
    expect(agents.tools.find((t) => t.name === 'get_weather')!.description).toBe(
      'Current weather for a city.',
    );
    const liveKit = createLiveKitTools({ tools: await tools() });
    expect(liveKit.tools.find((t) => t.name === 'get_weather')!.description).toBe(
      'Current weather for a city.',
    );
    await Promise.all([ai.close(), agents.close(), liveKit.close()]);
  });
});

describe("each adapter passes the framework's abort signal to the call", () => {
  it("ai's abortSignal", async () => {
    const sb = createAiTools({ tools: await tools() });
    const before = weatherRequests();
    const run = sb.tools['get_weather']!.execute!(
      { city: 'Paris' },
      { toolCallId: 't1', messages: [], abortSignal: AbortSignal.abort() },
    );
    const error = await Promise.resolve(run).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SwitchboardToolError);
    expect((error as SwitchboardToolError).code).toBe('cancelled');
    expect(weatherRequests()).toBe(before);
    await sb.close();
  });

  it("the Agents SDK's details.signal", async () => {
    const sb = createAgentsTools({ tools: await tools() });
    const fn = sb.tools.find((t) => t.name === 'get_weather')!;
    const before = weatherRequests();
    const output = await invokeFunctionTool({
      tool: fn,
      runContext: new RunContext({}),
      input: '{"city":"Paris"}',
      details: {
        toolCall: { type: 'function_call', callId: 'c1', name: 'get_weather', arguments: '{}' },
        signal: AbortSignal.abort(),
      },
    }).catch((e: unknown) => e);
    expect(codeOf(output)).toBe('cancelled');
    expect(weatherRequests()).toBe(before);
    await sb.close();
  });

  it("LiveKit's abortSignal", async () => {
    const sb = createLiveKitTools({ tools: await tools() });
    const fn = sb.tools.find((t) => t.name === 'get_weather')!;
    const before = weatherRequests();
    const error = await fn
      .execute({ city: 'Paris' }, {
        ctx: {},
        toolCallId: 'c1',
        abortSignal: AbortSignal.abort(),
      } as unknown as Parameters<typeof fn.execute>[1])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(llm.ToolError);
    expect(codeOf((error as Error).message)).toBe('cancelled');
    expect(weatherRequests()).toBe(before);
    await sb.close();
  });
});

describe('LiveKit return values', () => {
  it('a JSON tool message as its value, other text as it is', async () => {
    const sb = createLiveKitTools({
      tools: await tools(),
      languages: ['en-US', 'es-US'],
      onSay: () => undefined,
    });
    const execute = (name: string, args: Record<string, string>) =>
      sb.tools
        .find((t) => t.name === name)!
        .execute(args, { ctx: {}, toolCallId: 'c1' } as unknown as Parameters<
          llm.FunctionTool['execute']
        >[1]);
    expect(await execute('get_weather', { city: 'Paris' })).toEqual({ summary: 'sunny', temp: 21 });
    expect(await execute('set_language', { language: 'es-US' })).toBe('Language is now es-US.');
    await sb.close();
  });
});

describe('@openai/agents tools invoked as a RealtimeSession does', () => {
  it("arguments that are not JSON: switchboard's invalid_arguments, not the SDK's bare text", async () => {
    const sb = createAgentsTools({ tools: await tools() });
    const fn = sb.tools.find((t) => t.name === 'book')!;
    const output = await invokeFunctionTool({
      tool: fn,
      runContext: new RunContext({}),
      input: '{"seats":',
      details: { toolCall: { type: 'function_call', callId: 'c1', name: 'book', arguments: '' } },
    });
    expect(codeOf(output)).toBe('invalid_arguments');
    expect(api.seen.some((r) => r.url.startsWith('/book'))).toBe(false);
    await sb.close();
  });
});
