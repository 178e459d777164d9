// What the OpenAI adapter makes of a server's answer, where a careless change would go unnoticed:
// choices other than the first, usage sent more than once, the retry default, long error texts,
// an echoed key, `strict` tools, the "none" key placeholder. The real `openai` client against a
// local server on 127.0.0.1.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { isModelError, ModelError } from '../../src/models/errors.js';
import { openaiModel } from '../../src/models/openai.js';
import type { ChatTool } from '../../src/models/types.js';
import { collect, openaiStub } from './openai-stub.js';

type Scenario = (req: IncomingMessage, res: ServerResponse) => void;
/** Answers every request with this scenario (set per test). */
let scenario: Scenario = (_req, res) => res.end();
const stub = openaiStub((req, res) => scenario(req, res));
const bodies = stub.bodies;
beforeEach(() => {
  bodies.length = 0;
});

function sse(chunks: readonly Record<string, unknown>[]): Scenario {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(`${chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('')}data: [DONE]\n\n`);
  };
}

const base = { id: 'x', object: 'chat.completion.chunk', created: 1, model: 'm' };

const request = (tools: readonly ChatTool[] = []) => ({
  messages: [{ role: 'user' as const, content: 'hi' }],
  tools,
  signal: new AbortController().signal,
});

describe('openaiModel reads only what it should of an answer', () => {
  it('reads the first choice only: text and tool calls of another choice are left out', async () => {
    scenario = sse([
      {
        ...base,
        choices: [
          { index: 1, delta: { content: 'other choice' }, finish_reason: null },
          { index: 0, delta: { content: 'first' }, finish_reason: null },
        ],
      },
      {
        ...base,
        choices: [
          {
            index: 1,
            delta: {
              tool_calls: [
                { index: 0, id: 'c9', type: 'function', function: { name: 'x', arguments: '{}' } },
              ],
            },
            finish_reason: 'tool_calls',
          },
          { index: 0, delta: {}, finish_reason: 'stop' },
        ],
      },
    ]);
    const model = openaiModel({ baseURL: stub.baseURL, apiKey: 'test', model: 'm', maxRetries: 0 });
    expect(await collect(model.stream(request()))).toEqual([
      { type: 'text-delta', text: 'first' },
      { type: 'finish' },
    ]);
  });

  it('usage sent on every chunk (running totals, as vLLM can): the last one counts', async () => {
    const usage = (p: number, c: number) => ({ prompt_tokens: p, completion_tokens: c });
    scenario = sse([
      { ...base, choices: [{ index: 0, delta: { content: 'a' } }], usage: usage(5, 1) },
      { ...base, choices: [{ index: 0, delta: { content: 'b' } }], usage: usage(5, 2) },
      { ...base, choices: [], usage: usage(5, 3) },
    ]);
    const model = openaiModel({ baseURL: stub.baseURL, apiKey: 'test', model: 'm', maxRetries: 0 });
    const parts = await collect(model.stream(request()));
    expect(Array.isArray(parts) && parts.at(-1)).toEqual({
      type: 'finish',
      usage: { inputTokens: 5, outputTokens: 3 },
    });
  });

  it('retries a failed request once by default, and as many times as maxRetries says', async () => {
    // `retry-after-ms` makes the client's wait 1 ms instead of its backoff.
    scenario = (_req, res) => {
      res.writeHead(503, { 'retry-after-ms': '1', 'content-type': 'application/json' });
      res.end('{"error":{"message":"busy"}}');
    };
    const err = await collect(
      openaiModel({ baseURL: stub.baseURL, apiKey: 'test', model: 'm' }).stream(request()),
    );
    expect(err).toMatchObject({ code: 'http_status', status: 503 });
    expect(bodies).toHaveLength(2);
    bodies.length = 0;
    await collect(
      openaiModel({ baseURL: stub.baseURL, apiKey: 'test', model: 'm', maxRetries: 0 }).stream(
        request(),
      ),
    );
    expect(bodies).toHaveLength(1);
  });

  it("cuts the server's error text at 300 characters", async () => {
    scenario = (_req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `bad ${'x'.repeat(1000)}` } }));
    };
    const model = openaiModel({ baseURL: stub.baseURL, apiKey: 'test', model: 'm', maxRetries: 0 });
    const err = (await collect(model.stream(request()))) as ModelError;
    expect(err.code).toBe('http_status');
    const detail = err.message.slice(err.message.indexOf('HTTP 400: ') + 'HTTP 400: '.length);
    expect(detail).toHaveLength(301);
    expect(detail.endsWith('…')).toBe(true);
  });

  it('scrubs its key from its own error, raw and percent-encoded, and drops the cause', async () => {
    const key = 'sk/k3y+a=b';
    scenario = (_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error: { message: `bad key ${key}; in the URL ${encodeURIComponent(key)}` },
        }),
      );
    };
    const model = openaiModel({ baseURL: stub.baseURL, apiKey: key, model: 'm', maxRetries: 0 });
    const err = (await collect(model.stream(request()))) as ModelError;
    expect(err.code).toBe('http_status');
    expect(err.status).toBe(401);
    expect(err.message).toContain('bad key [redacted]; in the URL [redacted]');
    expect(err.message).not.toContain('k3y');
    expect(err.cause).toBeUndefined();
  });

  it('sends a tool’s strict flag as given', async () => {
    scenario = sse([{ ...base, choices: [{ index: 0, delta: { content: 'ok' } }] }]);
    const tool: ChatTool = {
      type: 'function',
      function: { name: 'lookup', parameters: { type: 'object' }, strict: true },
    };
    const model = openaiModel({ baseURL: stub.baseURL, apiKey: 'test', model: 'm', maxRetries: 0 });
    await collect(model.stream(request([tool])));
    expect(bodies[0]?.['tools']).toEqual([
      {
        type: 'function',
        function: { name: 'lookup', parameters: { type: 'object' }, strict: true },
      },
    ]);
  });

  it('declares its key as a credential, but not the "none" placeholder or an empty key', () => {
    expect(
      openaiModel({ baseURL: stub.baseURL, apiKey: 'sk-real-key', model: 'm' }).credentials?.(),
    ).toEqual(['sk-real-key']);
    expect(
      openaiModel({ baseURL: stub.baseURL, apiKey: 'none', model: 'm' }).credentials?.(),
    ).toEqual([]);
    expect(openaiModel({ baseURL: stub.baseURL, apiKey: '', model: 'm' }).credentials?.()).toEqual(
      [],
    );
  });
});

describe('openaiModel requests', () => {
  it('sends nothing when the signal is already aborted', async () => {
    scenario = sse([{ ...base, choices: [{ index: 0, delta: { content: 'ok' } }] }]);
    const aborted = new AbortController();
    aborted.abort();
    const model = openaiModel({ baseURL: stub.baseURL, apiKey: 'test', model: 'm', maxRetries: 0 });
    const err = await model
      .stream({ ...request(), signal: aborted.signal })
      [Symbol.asyncIterator]()
      .next()
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'AbortError' });
    expect(bodies).toHaveLength(0);
  });

  it('an earlier assistant message with an empty tool_calls list is sent without one', async () => {
    // OpenAI refuses an empty `tool_calls` array.
    scenario = sse([{ ...base, choices: [{ index: 0, delta: { content: 'ok' } }] }]);
    const model = openaiModel({ baseURL: stub.baseURL, apiKey: 'test', model: 'm', maxRetries: 0 });
    await collect(
      model.stream({
        ...request(),
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: 'hello', tool_calls: [] },
          { role: 'user', content: 'again' },
        ],
      }),
    );
    expect((bodies[0]?.['messages'] as unknown[])[1]).toEqual({
      role: 'assistant',
      content: 'hello',
    });
  });
});

describe('openaiModel deadlines', () => {
  it('the idle deadline restarts when the response arrives: headers and first chunk each get timeoutMs', async () => {
    // Fake timers drive both the client's own request timeout and the adapter's idle timer.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      let respond: ((r: Response) => void) | undefined;
      let called: (() => void) | undefined;
      const wasCalled = new Promise<void>((r) => (called = r));
      const fetch = (() => {
        called?.();
        return new Promise<Response>((r) => (respond = r));
      }) as typeof globalThis.fetch;
      let push: ReadableStreamDefaultController<Uint8Array> | undefined;
      const body = new ReadableStream<Uint8Array>({ start: (c) => void (push = c) });
      const model = openaiModel({
        baseURL: stub.baseURL,
        apiKey: 'test',
        model: 'm',
        maxRetries: 0,
        timeoutMs: 300,
        fetch,
      });
      const parts = collect(model.stream(request()));
      await wasCalled;
      for (let i = 0; i < 25; i++) await vi.advanceTimersByTimeAsync(10);
      respond?.(new Response(body, { headers: { 'content-type': 'text/event-stream' } }));
      // 500 ms after the request, 250 ms after the response: within the deadline.
      for (let i = 0; i < 25; i++) await vi.advanceTimersByTimeAsync(10);
      const late = { ...base, choices: [{ index: 0, delta: { content: 'in time' } }] };
      push?.enqueue(new TextEncoder().encode(`data: ${JSON.stringify(late)}\n\ndata: [DONE]\n\n`));
      push?.close();
      expect(await parts).toEqual([{ type: 'text-delta', text: 'in time' }, { type: 'finish' }]);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('isModelError', () => {
  it('knows a ModelError from another copy of the module by its name', () => {
    const copy = Object.assign(new Error('x'), { name: 'ModelError' });
    expect(isModelError(copy)).toBe(true);
    expect(isModelError(new ModelError({ code: 'network', model: 'm', message: 'x' }))).toBe(true);
    expect(isModelError(new Error('x'))).toBe(false);
    expect(isModelError({ name: 'ModelError' })).toBe(false);
  });
});
