/**
 * The same fixture conversation through a switchboard session and through each framework
 * adapter (as test/mcp/server-fixture.test.ts does over MCP): every
 * `fixtures/conversations/mcp-*.yaml` runs as a fixture (it must pass), then each scripted tool
 * call is made, in order, by the framework's own test model through the adapter's tools. The HTTP
 * double must record the same requests — method, URL, headers, body — with an `Idempotency-Key`
 * on the same ones (its value digests the call id, which the runs make differently).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { initializeLogger, voice } from '@livekit/agents';
import { Agent, Runner, Usage, type Model, type ModelResponse } from '@openai/agents';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV2 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { createAiTools } from '../../src/adapters/ai.js';
import type { AdapterOptions } from '../../src/adapters/core.js';
import { createLiveKitTools } from '../../src/adapters/livekit.js';
import { createAgentsTools } from '../../src/adapters/openai-agents.js';
import { createHttpDouble } from '../../src/harness/http-double.js';
import { loadFixture, type LoadedFixture } from '../../src/harness/load-fixture.js';
import type { RecordedRequest } from '../../src/harness/recorded-request.js';
import { runFixture, sessionOptionsOf } from '../../src/harness/run-fixture.js';

initializeLogger({ pretty: false, level: 'error' });

const DIR = 'fixtures/conversations';
const FILES = readdirSync(DIR).filter((f) => /^mcp-.*\.ya?ml$/.test(f));

interface Call {
  readonly name: string;
  readonly args: Record<string, unknown>;
}

/** Makes `calls` in order through one adapter built from `options`. */
type Driver = (options: AdapterOptions, calls: readonly Call[]) => Promise<void>;

const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };

const DRIVERS: Record<string, Driver> = {
  ai: async (options, calls) => {
    const sb = createAiTools(options);
    const model = new MockLanguageModelV2({
      doGenerate: [
        ...calls.map((c, i) => ({
          content: [
            {
              type: 'tool-call' as const,
              toolCallId: `c${i}`,
              toolName: c.name,
              input: JSON.stringify(c.args),
            },
          ],
          finishReason: 'tool-calls' as const,
          usage,
          warnings: [],
        })),
        { content: [], finishReason: 'stop', usage, warnings: [] },
      ],
    });
    await generateText({
      model,
      tools: sb.tools,
      stopWhen: stepCountIs(calls.length + 1),
      prompt: 'x',
    });
    await sb.close();
  },
  'openai-agents': async (options, calls) => {
    const sb = createAgentsTools(options);
    let step = 0;
    const model: Model = {
      getResponse: async (): Promise<ModelResponse> => {
        const call = calls[step++];
        return {
          usage: new Usage(),
          output:
            call === undefined
              ? [
                  {
                    type: 'message',
                    role: 'assistant',
                    status: 'completed',
                    content: [{ type: 'output_text', text: 'done' }],
                  },
                ]
              : [
                  {
                    type: 'function_call',
                    callId: `c${step}`,
                    name: call.name,
                    arguments: JSON.stringify(call.args),
                    status: 'completed',
                  },
                ],
        };
      },
      getStreamedResponse: () => {
        throw new Error('not streamed');
      },
    };
    const agent = new Agent({ name: 'a', instructions: 'x', model, tools: sb.tools });
    await new Runner({ tracingDisabled: true }).run(agent, 'x');
    await sb.close();
  },
  livekit: async (options, calls) => {
    const sb = createLiveKitTools(options);
    // One user turn per call, each answered by LiveKit's FakeLLM with that call.
    const llm = new voice.testing.FakeLLM(
      calls.map((c, i) => ({ input: `call ${i}`, toolCalls: [c] })),
    );
    const session = new voice.AgentSession({ llm });
    try {
      await session.start({ agent: new voice.Agent({ instructions: 'x', tools: sb.tools }) });
      for (let i = 0; i < calls.length; i++) await session.run({ userInput: `call ${i}` }).wait();
    } finally {
      await session.close();
      await sb.close();
    }
  },
};

/** What must be identical; the Idempotency-Key only present or not. */
function comparable(r: RecordedRequest): unknown {
  const { ['idempotency-key']: key, ...headers } = r.headers;
  return { method: r.method, url: r.url, headers, body: r.body, idempotencyKey: key !== undefined };
}

function scriptedCalls(loaded: LoadedFixture): Call[] {
  const calls: Call[] = [];
  for (const turn of loaded.fixture.turns)
    for (const step of turn.model ?? [])
      for (const call of step.tool_calls ?? [])
        calls.push({
          name: call.name,
          args:
            call.arguments === undefined
              ? (call.args ?? {})
              : (JSON.parse(call.arguments) as Record<string, unknown>),
        });
  return calls;
}

describe('a fixture conversation through a session and through each adapter', () => {
  it('has at least one mcp-* fixture', () => {
    expect(FILES.length).toBeGreaterThan(0);
  });

  for (const file of FILES)
    for (const [adapter, drive] of Object.entries(DRIVERS))
      it(`${file} via ${adapter}: the same HTTP requests`, async () => {
        const path = join(DIR, file);
        const viaSession: RecordedRequest[] = [];
        const result = await runFixture(path, {
          observer: { request: (r) => viaSession.push(r) },
        });
        expect(result.status, JSON.stringify(result.failures)).toBe('passed');

        const loaded = await loadFixture(path);
        const http = createHttpDouble({ exchanges: loaded.fixture.http });
        const {
          model: _model,
          id: _id,
          onTurn: _onTurn,
          ...options
        } = sessionOptionsOf(loaded, { name: 'unused', stream: async function* () {} }, http);
        try {
          await drive(options, scriptedCalls(loaded));
        } finally {
          await http.close();
        }
        expect(http.requests.map(comparable)).toEqual(viaSession.map(comparable));
        expect(viaSession.length).toBeGreaterThan(0);
      });
});
