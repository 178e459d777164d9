/**
 * OpenTelemetry spans of a session, recorded by the SDK's in-memory exporter: the span tree of a
 * turn, semantic-convention attributes, context propagation, and no secret anywhere.
 */
import { context, trace, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { ScriptedModel, type ScriptedStep } from '../../src/models/scripted.js';
import { createSession } from '../../src/session/create-session.js';
import type { SessionOptions } from '../../src/session/types.js';
import { SessionStoreFailedError } from '../../src/session/coordination.js';
import { startTestServer, type TestServer } from '../handlers/test-server.js';

const TOKEN = 'sk-live-SECRET-4f9a1c';
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const tracer: Tracer = provider.getTracer('test');
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  let flaky = 0;
  server.route('/flaky', (_req, res) => {
    if (flaky++ === 0) res.writeHead(503, { 'retry-after': '0' }).end('busy');
    else res.writeHead(200, { 'content-type': 'application/json' }).end('{"temp":21}');
  });
  server.route('/reset', (req) => req.socket.destroy());
  server.route('/ok', (_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(`{"echo":"${TOKEN}"}`),
  );
});
afterAll(() => server.close());
afterEach(() => exporter.reset());

function endpoint(name: string, path: string) {
  return {
    type: 'endpoint',
    tool: {
      type: 'function',
      function: {
        name,
        parameters: {
          type: 'object',
          properties: { city: { type: 'string' } },
          required: ['city'],
        },
      },
    },
    endpoint: { url: `${server.origin}${path}`, method: 'get', argument_location: 'query' },
    service: 'wx',
    defaults: { city: { transform: { action: 'default', value: 'Oslo' } }, units: 'metric' },
  };
}

async function sessionWith(steps: ScriptedStep[], extra: Partial<SessionOptions> = {}) {
  const tools = await loadTools([endpoint('weather', '/flaky'), endpoint('news', '/ok')]);
  const model = new ScriptedModel(steps, { name: 'openai:gpt-test' });
  return createSession({
    tools,
    model,
    services: { wx: { auth: { type: 'bearer', token: TOKEN }, origins: [server.origin] } },
    ...extra,
  });
}

function byName(spans: readonly ReadableSpan[], name: string): ReadableSpan[] {
  return spans.filter((s) => s.name === name);
}
function parentOf(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}

describe('OpenTelemetry spans', () => {
  it('a turn with two parallel calls, a retry and then a model error makes the documented span tree', async () => {
    const s = await sessionWith(
      [
        {
          usage: { inputTokens: 12, outputTokens: 7 },
          tool_calls: [
            { name: 'weather', args: { city: 'Paris' }, id: 'w1' },
            { name: 'news', args: { city: 'Paris' }, id: 'n1' },
          ],
        },
        { text: 'Sunny, and quiet news.' },
        { error: 'upstream exploded' },
      ],
      { tracing: { tracer } },
    );
    await s.run('Weather and news?');
    await expect(s.run('again')).rejects.toThrow(/upstream exploded/);
    await s.close();
    const spans = exporter.getFinishedSpans();

    const turns = byName(spans, 'switchboard.turn');
    expect(turns).toHaveLength(2);
    const [first, second] = turns;
    expect(first!.attributes['switchboard.turn']).toBe(1);
    expect(parentOf(first!)).toBeUndefined();

    const chats = byName(spans, 'chat gpt-test');
    expect(chats).toHaveLength(3);
    expect(chats.map((c) => parentOf(c))).toEqual([
      first!.spanContext().spanId,
      first!.spanContext().spanId,
      second!.spanContext().spanId,
    ]);
    expect(chats[0]!.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'gpt-test',
      'gen_ai.provider.name': 'openai',
      'gen_ai.usage.input_tokens': 12,
      'gen_ai.usage.output_tokens': 7,
    });
    expect(chats[0]!.events.map((e) => e.name)).toContain('gen_ai.first_token');
    // A call that reported no usage has none on its span; the turn span has the turn's sum.
    expect(chats[1]!.attributes['gen_ai.usage.input_tokens']).toBeUndefined();
    expect(first!.attributes).toMatchObject({
      'gen_ai.usage.input_tokens': 12,
      'gen_ai.usage.output_tokens': 7,
    });
    expect(chats[2]!.status.code).toBe(2); // ERROR
    expect(chats[2]!.attributes['error.type']).toBe('http_status');
    expect(second!.status.code).toBe(2);

    const tools = spans.filter((s) => s.name.startsWith('execute_tool '));
    expect(tools.map((t) => t.name).sort()).toEqual(['execute_tool news', 'execute_tool weather']);
    for (const t of tools) expect(parentOf(t)).toBe(first!.spanContext().spanId);
    const weather = tools.find((t) => t.name === 'execute_tool weather')!;
    expect(weather.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'weather',
      'gen_ai.tool.call.id': 'w1',
      'gen_ai.tool.type': 'function',
      'switchboard.tool.type': 'endpoint',
      'switchboard.transform.rule_count': 2,
    });

    const attempts = spans.filter((s) => s.name === 'GET');
    const weatherAttempts = attempts.filter((a) => parentOf(a) === weather.spanContext().spanId);
    expect(weatherAttempts).toHaveLength(2);
    expect(weatherAttempts[0]!.attributes).toMatchObject({
      'http.request.method': 'GET',
      'http.response.status_code': 503,
      'error.type': '503',
      'server.address': '127.0.0.1',
    });
    expect(weatherAttempts[0]!.attributes['url.full']).toBe(
      `${server.origin}/flaky?city=REDACTED&units=REDACTED`,
    );
    expect(weatherAttempts[1]!.attributes).toMatchObject({
      'http.response.status_code': 200,
      'http.request.resend_count': 1,
    });
  });

  it('never puts a secret or (unless asked) a parameter value in any attribute or event', async () => {
    const s = await sessionWith(
      [{ tool_calls: [{ name: 'news', args: { city: 'Lima-private' } }] }, { text: 'ok' }],
      { tracing: { tracer, propagateContext: true } },
    );
    await s.run('news');
    await s.close();
    const dump = JSON.stringify(
      exporter.getFinishedSpans().map((sp) => ({ a: sp.attributes, e: sp.events, n: sp.name })),
    );
    expect(dump).not.toContain(TOKEN);
    expect(dump).not.toContain('Lima-private');
    expect(dump).not.toContain('Bearer');
  });

  it('records argument values only when the host opts in', async () => {
    const s = await sessionWith(
      [{ tool_calls: [{ name: 'weather', args: { city: 'Quito' } }] }, { text: 'ok' }],
      { tracing: { tracer, recordValues: true } },
    );
    await s.run('weather');
    await s.close();
    const tool = exporter.getFinishedSpans().find((sp) => sp.name === 'execute_tool weather')!;
    expect(JSON.parse(String(tool.attributes['gen_ai.tool.call.arguments']))).toMatchObject({
      city: 'Quito',
    });
  });

  it('sends W3C traceparent of the HTTP span only when the host enables propagation', async () => {
    const before = server.requests.length;
    const on = await sessionWith(
      [{ tool_calls: [{ name: 'news', args: { city: 'A' } }] }, { text: 'ok' }],
      { tracing: { tracer, propagateContext: true } },
    );
    await on.run('x');
    await on.close();
    const off = await sessionWith(
      [{ tool_calls: [{ name: 'news', args: { city: 'B' } }] }, { text: 'ok' }],
      { tracing: { tracer } },
    );
    await off.run('x');
    await off.close();
    const [withHeader, without] = server.requests.slice(before);
    const http = exporter.getFinishedSpans().find((sp) => sp.name === 'GET')!;
    expect(withHeader!.headers['traceparent']).toBe(
      `00-${http.spanContext().traceId}-${http.spanContext().spanId}-01`,
    );
    expect(without!.headers['traceparent']).toBeUndefined();
  });

  it("makes the host's active span the turn's parent (global provider, AsyncLocalStorage)", async () => {
    const manager = new AsyncLocalStorageContextManager().enable();
    context.setGlobalContextManager(manager);
    trace.setGlobalTracerProvider(provider);
    try {
      const s = await sessionWith([{ text: 'hi' }]);
      const host = provider.getTracer('host').startSpan('host.request');
      await context.with(trace.setSpan(context.active(), host), () => s.run('hello'));
      host.end();
      await s.close();
      const turn = byName(exporter.getFinishedSpans(), 'switchboard.turn')[0]!;
      expect(parentOf(turn)).toBe(host.spanContext().spanId);
      expect(turn.spanContext().traceId).toBe(host.spanContext().traceId);
    } finally {
      trace.disable();
      context.disable();
    }
  });

  // Before: an attempt that failed to connect said only error.type "network": an on-call engineer
  // could not tell a reset from a TLS or DNS failure, which the model was told.
  it('a failed attempt says why in its status message, in words built from error codes', async () => {
    const tools = await loadTools([endpoint('reset', '/reset')]);
    const s = createSession({
      tools,
      model: new ScriptedModel([
        { tool_calls: [{ name: 'reset', args: { city: 'C' } }] },
        { text: 'ok' },
      ]),
      services: { wx: { auth: { type: 'bearer', token: TOKEN }, origins: [server.origin] } },
      tracing: { tracer },
    });
    const r = await s.run('x');
    const told = JSON.parse(String(r.state.history.find((m) => m.role === 'tool')?.content));
    const attempts = byName(exporter.getFinishedSpans(), 'GET');
    expect(attempts.length).toBeGreaterThan(0);
    for (const span of attempts) {
      expect(span.attributes['error.type']).toBe('network');
      expect(span.status.message).toMatch(/^connection failed/);
    }
    expect(told.error.message).toBe(attempts.at(-1)?.status.message);
  });

  // Before: the turn span ended OK before the turn's save, so a turn whose save failed (Redis
  // down, a stale copy) rejected while its trace said it went well.
  it('a turn whose save fails ends its span with the store error', async () => {
    const failing = {
      get: async () => undefined,
      delete: async () => undefined,
      set: async () => {
        throw Object.assign(
          new Error('session store failed for session s: The client is offline'),
          {
            code: 'store_failed',
          },
        );
      },
    };
    const s = await sessionWith([{ text: 'hello' }], {
      tracing: { tracer },
      store: failing,
      id: 's',
    });
    await expect(s.run('x')).rejects.toThrow(/The client is offline/);
    const [turn] = byName(exporter.getFinishedSpans(), 'switchboard.turn');
    expect(turn?.attributes['error.type']).toBe('store_failed');
    expect(turn?.status).toEqual({
      code: 2,
      message: 'session store failed for session s: The client is offline',
    });
  });

  // Before: a turn the store refused at its lease (Redis down or silent, another process busy)
  // left no span: a Redis incident did not show in traces at all.
  it('a turn refused at its lease is a turn span with the store error, from when it asked', async () => {
    const refusing = {
      get: async () => undefined,
      set: async () => undefined,
      delete: async () => undefined,
      coordination: {
        load: async () => undefined,
        acquire: async () => {
          throw new SessionStoreFailedError('s', new Error('The client is offline'));
        },
      },
    };
    const s = await sessionWith([], { tracing: { tracer }, store: refusing, id: 's' });
    await expect(s.run('x')).rejects.toThrow(/The client is offline/);
    const [turn] = byName(exporter.getFinishedSpans(), 'switchboard.turn');
    expect(turn?.attributes).toMatchObject({
      'switchboard.session.id': 's',
      'switchboard.turn': 1,
      'error.type': 'store_failed',
    });
    expect(turn?.status).toEqual({
      code: 2,
      message: 'session store failed for session s: The client is offline',
    });
    expect(s.toJSON().turns).toBe(0);
  });

  it('makes no spans without a registered provider', async () => {
    const s = await sessionWith([
      { tool_calls: [{ name: 'news', args: { city: 'C' } }] },
      { text: 'ok' },
    ]);
    const r = await s.run('x');
    await s.close();
    expect(exporter.getFinishedSpans()).toEqual([]);
    // the latency report does not depend on tracing
    expect(r.timings.tools).toHaveLength(1);
  });
});
