/**
 * The LiveKit adapter with the real package, as far as it runs without a media server: a real
 * `voice.AgentSession` in text mode (no room, no STT/TTS) with LiveKit's own `FakeLLM` runs a
 * `voice.Agent` holding the adapter's tools, so each call takes LiveKit's tool-execution path
 * (argument parsing, `RunContext`, `ToolError` handling, the chat context). Spoken lines go to
 * the AgentSession's `say`, observed with a spy (nothing is played without a room).
 */
import { initializeLogger, voice } from '@livekit/agents';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLiveKitTools, type LiveKitToolsOptions } from '../../src/adapters/livekit.js';
import { loadTools } from '../../src/definition/load.js';
import { startLoopbackApi, toolDefinitions, type LoopbackApi } from '../mcp/server-helpers.js';

// A LiveKit worker initialises its logger; a bare AgentSession needs it done.
initializeLogger({ pretty: false, level: 'error' });

let api: LoopbackApi;
beforeAll(async () => {
  api = await startLoopbackApi();
});
afterAll(() => api.close());

async function liveKitTools(options: Partial<LiveKitToolsOptions> = {}) {
  return createLiveKitTools({ tools: await loadTools(toolDefinitions(api.base)), ...options });
}

/** Runs one user turn whose FakeLLM answer makes `calls`; returns the outputs LiveKit recorded. */
async function turn(
  tools: Awaited<ReturnType<typeof liveKitTools>>,
  calls: { name: string; args: Record<string, unknown> }[],
  onSession?: (session: voice.AgentSession) => void,
): Promise<{ output: string; isError: boolean }[]> {
  const llm = new voice.testing.FakeLLM([{ input: 'go', toolCalls: calls }]);
  const agent = new voice.Agent({ instructions: 'help', tools: tools.tools });
  const session = new voice.AgentSession({ llm });
  onSession?.(session);
  try {
    await session.start({ agent });
    await session.run({ userInput: 'go' }).wait();
  } finally {
    await session.close();
  }
  return agent.chatCtx.items.flatMap((item) =>
    item.type === 'function_call_output' ? [{ output: item.output, isError: item.isError }] : [],
  );
}

describe('createLiveKitTools in a voice.AgentSession', () => {
  it('runs a call through the pipeline with static parameters hidden from the model', async () => {
    const sb = await liveKitTools();
    const shown = sb.tools.find((t) => t.name === 'get_weather')!;
    expect(JSON.stringify(shown.parameters)).not.toContain('units');
    const outputs = await turn(sb, [{ name: 'get_weather', args: { city: 'Paris' } }]);
    expect(outputs).toEqual([{ output: '{"summary":"sunny","temp":21}', isError: false }]);
    expect(api.seen.at(-1)!.url).toBe('/weather?city=Paris&units=metric');
    await sb.close();
  });

  it('throws tool errors as ToolError, whose message LiveKit gives the model', async () => {
    const sb = await liveKitTools();
    const outputs = await turn(sb, [
      { name: 'order_status', args: {} },
      { name: 'book', args: { seats: 0 } },
    ]);
    expect(outputs.map((o) => o.isError)).toEqual([true, true]);
    expect(
      outputs.map((o) => (JSON.parse(o.output) as { error: { code: string } }).error.code),
    ).toEqual(['http_status', 'invalid_arguments']);
    await sb.close();
  });

  it("routes a tool's message and bridge phrases to the LiveKit session's say", async () => {
    let release: () => void = () => undefined;
    const released = new Promise<void>((r) => (release = r));
    const sb = await liveKitTools({
      languages: ['en-US', 'es-US'],
      // The action waits until the bridge phrase was said: no sleeps.
      actions: { transfer: async () => (await released, { ok: true }) },
      bridge: { thresholdSecs: 0.001, phrases: { transfer: { 'en-US': ['One moment.'] } } },
    });
    const said: string[] = [];
    const outputs = await turn(
      sb,
      [
        { name: 'transfer', args: { to: 'desk' } },
        { name: 'set_language', args: { language: 'es-US', message: 'Hola' } },
      ],
      (session) =>
        vi.spyOn(session, 'say').mockImplementation((text) => {
          said.push(String(text));
          if (text === 'One moment.') release();
          return undefined as never;
        }),
    );
    expect(outputs.map((o) => o.isError)).toEqual([false, false]);
    expect(said).toEqual(['One moment.', 'Hola']);
    expect(sb.session.language).toBe('es-US');
    await sb.close();
  });
});
