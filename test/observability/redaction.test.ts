/**
 * Issue 43 items 9–10: spans carry no value a request held unless the host opts in. `url.full`
 * redacts path values (not only query values); recorded values and status messages are scrubbed
 * with the session's secrets, model API keys included, and of what `url.full` left out.
 */
import type { Tracer } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { isModelError } from '../../src/models/errors.js';
import { openaiModel } from '../../src/models/openai.js';
import type { Model } from '../../src/models/types.js';
import { ScriptedModel } from '../../src/models/scripted.js';
import { safeUrl } from '../../src/observability/safe-url.js';
import { createSession } from '../../src/session/create-session.js';
import type { SessionOptions } from '../../src/session/types.js';
import { startTestServer, type TestServer } from '../handlers/test-server.js';

const PATH_TOKEN = 'pt-PathToken-7c1d2e';
const QUERY_KEY = 'qk-QueryKey-3b4a5f';
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const tracer: Tracer = provider.getTracer('test');
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  // An API that echoes everything it was sent, the query key included.
  server.route('*', (req, res) =>
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ youSent: req.url })),
  );
});
afterAll(() => server.close());
afterEach(() => exporter.reset());

async function run(tracing: SessionOptions['tracing']): Promise<string> {
  const tools = await loadTools([
    {
      type: 'endpoint',
      tool: {
        type: 'function',
        function: {
          name: 'account',
          parameters: {
            type: 'object',
            properties: {
              token: { type: 'string' },
              id: { type: 'string' },
              key: { type: 'string' },
            },
          },
        },
      },
      // The token and the key come from session variables, not from the model.
      defaults: { token: '{vars.token}', key: '{vars.key}' },
      endpoint: {
        url: `${server.origin}/v1/accounts/{token}/items/{id}`,
        method: 'get',
        argument_location: 'query',
      },
    },
  ]);
  const s = createSession({
    tools,
    model: new ScriptedModel([
      { tool_calls: [{ name: 'account', args: { id: 'item-42' } }] },
      { text: 'ok' },
    ]),
    vars: { token: PATH_TOKEN, key: QUERY_KEY },
    tracing: { tracer, ...tracing },
  });
  await s.run('go');
  await s.close();
  return JSON.stringify(
    exporter
      .getFinishedSpans()
      .map((sp) => ({ a: sp.attributes, e: sp.events, s: sp.status, n: sp.name })),
  );
}

describe('url.full and recorded values', () => {
  it('redacts path values and query values; literal path segments stay', async () => {
    const dump = await run({});
    expect(dump).not.toContain(PATH_TOKEN);
    expect(dump).not.toContain(QUERY_KEY);
    expect(dump).not.toContain('item-42');
    const http = exporter.getFinishedSpans().find((sp) => sp.name === 'GET');
    expect(http?.attributes['url.full']).toBe(
      `${server.origin}/v1/accounts/REDACTED/items/REDACTED?key=REDACTED`,
    );
  });

  it('with recordValues, an echo of a value left out of url.full is scrubbed from the result', async () => {
    await run({ recordValues: true });
    const tool = exporter.getFinishedSpans().find((sp) => sp.name === 'execute_tool account');
    const result = String(tool?.attributes['gen_ai.tool.call.result']);
    // The search is not vacuous: the echo is there, its values replaced.
    expect(result).toContain('/v1/accounts/REDACTED/items/REDACTED?key=REDACTED');
    expect(result).not.toContain(PATH_TOKEN);
    expect(result).not.toContain(QUERY_KEY);
    const http = exporter.getFinishedSpans().find((sp) => sp.name === 'GET');
    expect(JSON.stringify(http?.attributes)).not.toContain(QUERY_KEY);
  });

  it('recordUrlValues keeps them (the host opted in)', async () => {
    await run({ recordUrlValues: true });
    const http = exporter.getFinishedSpans().find((sp) => sp.name === 'GET');
    expect(http?.attributes['url.full']).toBe(
      `${server.origin}/v1/accounts/${PATH_TOKEN}/items/item-42?key=${QUERY_KEY}`,
    );
  });

  it('without a template every path segment is redacted; userinfo never shows', () => {
    expect(safeUrl('https://u:p@h.test/a/b?x=1', undefined, false)?.full).toBe(
      'https://h.test/REDACTED/REDACTED?x=REDACTED',
    );
    expect(safeUrl('https://h.test/v1/a%20b', 'https://h.test/v1/{x}', false)).toMatchObject({
      full: 'https://h.test/v1/REDACTED',
      redacted: ['a b'],
    });
  });
});

describe('model credentials are secrets of the session', () => {
  const KEY = 'sk-ModelKey-0a9b8c7d6e';

  it("a model error echoing the key (any encoding) is scrubbed from the event, the rejection and the span's status", async () => {
    const model: Model = {
      name: 'custom:m',
      credentials: () => [KEY],
      // eslint-disable-next-line require-yield
      async *stream() {
        throw new Error(
          `401: invalid key ${KEY} (${Buffer.from(`Bearer ${KEY}`).toString('base64')})`,
        );
      },
    };
    const tools = await loadTools([]);
    const s = createSession({ tools, model, tracing: { tracer } });
    const turn = s.send('hi');
    const events: unknown[] = [];
    for await (const e of turn) events.push(e);
    const error = await turn.result.catch((err: unknown) => err);
    await s.close();
    const spans = JSON.stringify(
      exporter.getFinishedSpans().map((sp) => ({ a: sp.attributes, s: sp.status })),
    );
    const everything = JSON.stringify([events, String(error), spans]);
    expect(everything).toContain('[redacted]');
    expect(everything).not.toContain(KEY);
    // The characters of base64("Bearer " + key) that depend on the key alone.
    expect(everything).not.toContain(Buffer.from(`Bearer ${KEY}`).toString('base64').slice(10, 30));
  });

  it('the OpenAI adapter scrubs its own errors: a server echoing the Authorization header', async () => {
    const model = openaiModel({
      model: 'm',
      apiKey: KEY,
      maxRetries: 0,
      baseURL: 'http://model.test/v1',
      fetch: async (_url, init) => {
        const auth = new Headers(init?.headers).get('authorization');
        return new Response(JSON.stringify({ error: { message: `bad credentials: ${auth}` } }), {
          status: 401,
          headers: { 'content-type': 'application/json' },
        });
      },
    });
    expect(model.credentials?.()).toEqual([KEY]);
    const s = createSession({ tools: await loadTools([]), model });
    const error = await s.run('hi').catch((err: unknown) => err);
    await s.close();
    expect(isModelError(error)).toBe(true);
    const message = (error as Error).message;
    expect(message).toContain('Bearer [redacted]');
    expect(message).not.toContain(KEY);
    expect((error as Error).cause).toBeUndefined();
  });
});
