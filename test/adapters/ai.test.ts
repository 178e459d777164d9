/**
 * The `ai` adapter with the real package: MockLanguageModelV2 from 'ai/test' drives generateText
 * with the adapter's ToolSet; the calls go to a loopback API through a switchboard session.
 */
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV2 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAiTools, type AiToolsOptions } from '../../src/adapters/ai.js';
import { SwitchboardToolError, type SpokenLine } from '../../src/adapters/core.js';
import { loadTools } from '../../src/definition/load.js';
import { startLoopbackApi, toolDefinitions, type LoopbackApi } from '../mcp/server-helpers.js';

let api: LoopbackApi;
beforeAll(async () => {
  api = await startLoopbackApi();
});
afterAll(() => api.close());

const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };

/** A model that makes `calls` (name, input) in its first step, then answers "done". */
function callingModel(calls: [string, unknown][]): MockLanguageModelV2 {
  return new MockLanguageModelV2({
    doGenerate: [
      {
        content: calls.map(([toolName, input], i) => ({
          type: 'tool-call' as const,
          toolCallId: `c${i}`,
          toolName,
          input: JSON.stringify(input),
        })),
        finishReason: 'tool-calls',
        usage,
        warnings: [],
      },
      { content: [{ type: 'text', text: 'done' }], finishReason: 'stop', usage, warnings: [] },
    ],
  });
}

async function aiTools(options: Partial<AiToolsOptions> = {}) {
  return createAiTools({
    tools: await loadTools(toolDefinitions(api.base)),
    ...options,
  });
}

describe('createAiTools with generateText', () => {
  it('runs a call through the pipeline with static parameters hidden from the model', async () => {
    const sb = await aiTools();
    const model = callingModel([['get_weather', { city: 'Paris' }]]);
    const result = await generateText({
      model,
      tools: sb.tools,
      stopWhen: stepCountIs(2),
      prompt: 'weather?',
    });
    expect(result.text).toBe('done');
    // What the model was shown: the tool without its static parameter.
    const shown = model.doGenerateCalls[0]!.tools!.find((t) => t.name === 'get_weather');
    expect(JSON.stringify(shown)).not.toContain('units');
    // The static parameter reached the API.
    const seen = api.seen.at(-1)!;
    expect(seen.url).toBe('/weather?city=Paris&units=metric');
    expect(result.steps[0]!.toolResults[0]!.output).toBe('{"summary":"sunny","temp":21}');
    // The model's next step got the tool message.
    expect(JSON.stringify(model.doGenerateCalls[1]!.prompt)).toContain('sunny');
    expect(sb.session.toJSON().turns).toBe(1);
    await sb.close();
  });

  it('throws a tool error, which ai sends to the model as error-text with its code', async () => {
    const sb = await aiTools();
    const model = callingModel([
      ['order_status', {}],
      ['book', { seats: 0 }],
    ]);
    const result = await generateText({
      model,
      tools: sb.tools,
      stopWhen: stepCountIs(2),
      prompt: 'x',
    });
    const errors = result.steps[0]!.content.filter((p) => p.type === 'tool-error');
    expect(errors.map((e) => (e.error as SwitchboardToolError).code)).toEqual([
      'http_status',
      'invalid_arguments',
    ]);
    expect(errors[0]!.error).toBeInstanceOf(SwitchboardToolError);
    const prompt = JSON.stringify(model.doGenerateCalls[1]!.prompt);
    expect(prompt).toContain('error-text');
    expect(prompt).toContain('http_status');
    // The invalid call never reached the API.
    expect(api.seen.some((r) => r.url.startsWith('/book'))).toBe(false);
    await sb.close();
  });

  it('keeps the session state across calls and passes spoken lines to onSay', async () => {
    const said: SpokenLine[] = [];
    const sb = await aiTools({ languages: ['en-US', 'es-US'], onSay: (l) => said.push(l) });
    await generateText({
      model: callingModel([['set_language', { language: 'es-US', message: 'Hola' }]]),
      tools: sb.tools,
      stopWhen: stepCountIs(2),
      prompt: 'en español',
    });
    expect(sb.session.language).toBe('es-US');
    expect(said).toEqual([{ text: 'Hola', source: 'tool', tool: 'set_language' }]);
    await sb.close();
  });

  it('leaves out action tools without a handler and runs those with one', async () => {
    const without = await aiTools();
    expect(Object.keys(without.tools)).not.toContain('transfer');
    await without.close();
    const sb = await aiTools({ actions: { transfer: (args) => ({ transferred: args.to }) } });
    const result = await generateText({
      model: callingModel([['transfer', { to: 'desk' }]]),
      tools: sb.tools,
      stopWhen: stepCountIs(2),
      prompt: 'x',
    });
    expect(result.steps[0]!.toolResults[0]!.output).toBe('{"transferred":"desk"}');
    await sb.close();
  });

  it('answers arguments that are not an object, and __proto__ keys, as data', async () => {
    const sb = await aiTools();
    const result = await generateText({
      model: callingModel([
        ['book', [2]],
        ['note', JSON.parse('{"__proto__":{"polluted":true},"reason":"r"}')],
      ]),
      tools: sb.tools,
      stopWhen: stepCountIs(2),
      prompt: 'x',
    });
    const errors = new Map(
      result.steps[0]!.content.flatMap((p) =>
        p.type === 'tool-error' ? [[p.toolName, p.error]] : [],
      ),
    );
    // Not an object: switchboard's invalid_arguments.
    expect((errors.get('book') as SwitchboardToolError).code).toBe('invalid_arguments');
    // A __proto__ key: ai's own JSON parsing refuses it before execute (secure JSON parsing).
    expect(errors.get('note')).not.toBeInstanceOf(SwitchboardToolError);
    expect(String(errors.get('note'))).toMatch(/prototype/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    await sb.close();
  });

  it('refuses a host configuration mistake at creation', async () => {
    await expect(aiTools({ agents: { a: { prompt: 'p', tools: ['nope'] } } })).rejects.toThrow(
      /nope/,
    );
  });
});
