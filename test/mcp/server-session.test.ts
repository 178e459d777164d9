/**
 * One MCP session's switchboard session (src/mcp/server-session.ts), without a transport: state
 * kept across calls and across the history trim, list changes after a handoff, calls cancelled
 * before they start, an ended session.
 */
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import type { ToolSet } from '../../src/definition/types.js';
import { actionResult } from '../../src/handlers/action-result.js';
import {
  MAX_MCP_HISTORY,
  McpToolSession,
  mcpSessionOptions,
  type McpSessionOptions,
} from '../../src/mcp/server-session.js';
import type { Model } from '../../src/models/types.js';
import { turnHostOf } from '../../src/session/create-session.js';
import { startLoopbackApi, textOf, toolDefinitions, type LoopbackApi } from './server-helpers.js';

let api: LoopbackApi;
beforeAll(async () => {
  api = await startLoopbackApi();
});
afterAll(() => api.close());

const NOT_ABORTED = new AbortController().signal;

async function mcpSession(
  options: McpSessionOptions = {},
  tools?: ToolSet,
): Promise<McpToolSession> {
  const served = {
    tools: tools ?? (await loadTools(toolDefinitions('http://127.0.0.1:9'))),
    options: mcpSessionOptions(options),
  };
  return new McpToolSession({ served });
}

describe('McpToolSession', () => {
  it('keeps language and variables across calls and bounds the history', async () => {
    const s = await mcpSession({ vars: { caller: 'Ada' } });
    const id = s.session.id;
    await s.call('set_language', { language: 'es-US' }, NOT_ABORTED, () => undefined);
    for (let i = 0; i < MAX_MCP_HISTORY / 3 + 5; i++)
      expect(
        (await s.call('note', { reason: `r${i}` }, NOT_ABORTED, () => undefined)).isError,
      ).toBeFalsy();
    const history = turnHostOf(s.session)!.state.history.length;
    expect(history).toBeLessThan(MAX_MCP_HISTORY);
    expect(s.session.id).toBe(id);
    expect(s.session.language).toBe('es-US');
    expect(s.session.vars).toEqual({ caller: 'Ada' });
    await s.close();
  });

  it('tells the client when a call changed the tools shown (a handoff)', async () => {
    const s = await mcpSession({
      agents: {
        front: { prompt: 'front desk', tools: ['transfer', 'note'] },
        billing: { prompt: 'billing', tools: ['note'] },
      },
      actions: { transfer: () => actionResult({ result: { ok: true }, handoff: 'billing' }) },
    });
    expect((await s.listTools()).map((t) => t.name)).toEqual(['transfer', 'note']);
    const changed = vi.fn();
    await s.call('note', { reason: 'x' }, NOT_ABORTED, changed);
    expect(changed).not.toHaveBeenCalled();
    const moved = await s.call('transfer', { to: 'billing' }, NOT_ABORTED, changed);
    expect(JSON.parse(textOf(moved))).toEqual({ ok: true });
    expect(changed).toHaveBeenCalledTimes(1);
    expect((await s.listTools()).map((t) => t.name)).toEqual(['note']);
    await s.close();
  });

  it('answers a call cancelled before it started without running it', async () => {
    const s = await mcpSession();
    const aborted = AbortSignal.abort();
    const r = await s.call('note', { reason: 'x' }, aborted, () => undefined);
    expect(r.isError).toBe(true);
    expect(JSON.parse(textOf(r)).error.code).toBe('cancelled');
    expect(turnHostOf(s.session)!.state.turns).toBe(0);
    await s.close();
  });

  it('answers not_available once a tool ended the session', async () => {
    const s = await mcpSession({
      actions: { transfer: () => actionResult({ result: 'bye', endSession: true }) },
    });
    expect(
      (await s.call('transfer', { to: 'x' }, NOT_ABORTED, () => undefined)).isError,
    ).toBeFalsy();
    const after = await s.call('note', { reason: 'x' }, NOT_ABORTED, () => undefined);
    expect(after.isError).toBe(true);
    // The runner's own sentence, telling the client what to do (not the session's error).
    expect(JSON.parse(textOf(after)).error).toEqual({
      code: 'not_available',
      message: 'this MCP session has ended (a tool ended it); open a new MCP session',
    });
    await s.close();
  });

  it('adds what the tool said to the result, never the engine’s own pre-tool phrase', async () => {
    const tools = await loadTools([
      {
        type: 'action',
        tool: {
          type: 'function',
          function: { name: 'transfer', parameters: { type: 'object', properties: {} } },
        },
        options: { speech: { before: { phrases: { en: 'One moment.' } } } },
      },
    ]);
    const s = await mcpSession(
      { actions: { transfer: () => actionResult({ result: 'ok', say: 'Transferring you now.' }) } },
      tools,
    );
    const r = await s.call('transfer', {}, NOT_ABORTED, () => undefined);
    expect(r.content.map((c) => (c.type === 'text' ? c.text : c.type))).toEqual([
      'ok',
      'Transferring you now.',
    ]);
    await s.close();
  });

  it('answers a result JSON cannot hold with the tool message the model gets, never a rejection', async () => {
    const tools = await loadTools([
      {
        type: 'action',
        tool: {
          type: 'function',
          function: { name: 'count', parameters: { type: 'object', properties: {} } },
        },
      },
    ]);
    const s = await mcpSession({ actions: { count: () => ({ n: 10n }) } }, tools);
    const r = await s.call('count', {}, NOT_ABORTED, () => undefined);
    expect(JSON.parse(textOf(r))).toEqual({
      error: { code: 'bad_response', message: 'the tool result is not JSON-serialisable' },
    });
    await s.close();
  });

  it('scrubs a service credential an API echoes back from the result', async () => {
    const TOKEN = 'mcp-Secret-Token-9f8e7d';
    const echo = {
      type: 'endpoint',
      tool: {
        type: 'function',
        function: { name: 'echo', parameters: { type: 'object', properties: {} } },
      },
      endpoint: { url: `${api.base}/echo`, method: 'get' },
      service: 'api',
    };
    const s = await mcpSession(
      {
        networkPolicy: { denyPrivateNetworks: false },
        services: { api: { auth: { type: 'bearer', token: TOKEN }, origins: [api.base] } },
      },
      await loadTools([echo]),
    );
    const r = await s.call('echo', {}, NOT_ABORTED, () => undefined);
    expect(r.isError).toBeFalsy();
    expect(api.seen.at(-1)!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(JSON.parse(textOf(r))).toHaveProperty('authorization');
    expect(JSON.stringify(r)).not.toContain(TOKEN);
    await s.close();
  });

  it('traces each call as a session traces a model call (an execute_tool span)', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    const s = await mcpSession({ tracing: { tracer: provider.getTracer('test') } });
    await s.call('note', { reason: 'traced' }, NOT_ABORTED, () => undefined);
    const names = exporter.getFinishedSpans().map((span) => span.name);
    expect(names).toContain('execute_tool note');
    await s.close();
  });

  it('runs the call itself, whatever model or caps an agent or the options name', async () => {
    const stranger: Model = {
      name: 'stranger',
      async *stream() {
        throw new Error('the agent model must not be asked');
      },
    };
    const ignored: string[] = [];
    const s = await mcpSession({
      agents: { front: { prompt: 'front', model: stranger, maxCalls: 0 } },
      ...({ maxToolRounds: 0, speechAck: 'host', model: stranger } as object),
      onWarning: (w) => ignored.push(`${w.code} ${w.path}`),
    });
    const r = await s.call('note', { reason: 'x' }, NOT_ABORTED, () => undefined);
    expect(r.isError).toBeFalsy();
    // Accepted (a host may share a session's options), but not without a word.
    expect(ignored).toEqual([
      'ignored_option model',
      'ignored_option maxToolRounds',
      'ignored_option speechAck',
      'ignored_option agents.front.model',
      'ignored_option agents.front.maxCalls',
    ]);
    await s.close();
  });

  it('lets a cancelled unsafe call (an action) run to completion, as a barge-in does', async () => {
    let started: () => void = () => undefined;
    const running = new Promise<void>((r) => (started = r));
    let release: () => void = () => undefined;
    const released = new Promise<void>((r) => (release = r));
    let finished = false;
    const s = await mcpSession({
      actions: {
        transfer: async () => {
          started();
          await released;
          finished = true;
          return { transferred: true };
        },
      },
    });
    const cancel = new AbortController();
    const call = s.call('transfer', { to: 'desk' }, cancel.signal, () => undefined);
    await running;
    cancel.abort();
    release();
    const r = await call;
    expect(finished).toBe(true);
    expect(r.isError).toBeFalsy();
    expect(JSON.parse(textOf(r))).toEqual({ transferred: true });
    await s.close();
  });
});
