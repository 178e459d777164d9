// The OpenAI adapter end to end: the real `openai` client against a local OpenAI-compatible
// server on 127.0.0.1 that streams SSE chunks (split anywhere) or fails.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { isModelError, type ModelError } from '../../src/models/errors.js';
import { openaiModel, shownURL } from '../../src/models/openai.js';
import type { ModelStreamPart } from '../../src/models/types.js';
import { createSession } from '../../src/session/create-session.js';
import { openaiStub } from './openai-stub.js';

type Scenario = (req: IncomingMessage, res: ServerResponse, body: Record<string, unknown>) => void;
const queue: Scenario[] = [];
const stub = openaiStub((req, res, body) => {
  const next = queue.shift();
  if (next === undefined) {
    res.statusCode = 599;
    res.end('no scenario');
    return;
  }
  next(req, res, body);
});
const bodies = stub.bodies;

function chunk(
  delta: Record<string, unknown>,
  finish: string | null = null,
): Record<string, unknown> {
  return {
    id: 'x',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm',
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
}
const usageChunk = {
  id: 'x',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'm',
  choices: [],
  usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 },
};

/** Streams the chunks as SSE, each event split into two writes with a pause between. */
function sse(chunks: Record<string, unknown>[]): Scenario {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const events = [...chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`), 'data: [DONE]\n\n'];
    const pieces = events.flatMap((e) => [
      e.slice(0, Math.ceil(e.length / 2)),
      e.slice(Math.ceil(e.length / 2)),
    ]);
    let i = 0;
    const tick = (): void => {
      const p = pieces[i++];
      if (p === undefined) {
        res.end();
        return;
      }
      res.write(p);
      setTimeout(tick, 2);
    };
    tick();
  };
}

async function collect(stream: AsyncIterable<ModelStreamPart>): Promise<ModelStreamPart[]> {
  const out: ModelStreamPart[] = [];
  for await (const p of stream) out.push(p);
  return out;
}

const request = (signal = new AbortController().signal) => ({
  messages: [{ role: 'user' as const, content: 'hi' }],
  tools: [],
  signal,
});

describe('openaiModel', () => {
  it('streams a text-only answer with usage', async () => {
    queue.push(
      sse([
        chunk({ role: 'assistant', content: '' }),
        chunk({ content: 'Hel' }),
        chunk({ content: 'lo' }),
        chunk({}, 'stop'),
        usageChunk,
      ]),
    );
    const model = openaiModel({ baseURL: stub.baseURL, apiKey: 'test', model: 'm', maxRetries: 0 });
    const parts = await collect(model.stream(request()));
    expect(parts).toEqual([
      { type: 'text-delta', text: 'Hel' },
      { type: 'text-delta', text: 'lo' },
      { type: 'finish', usage: { inputTokens: 11, outputTokens: 7 } },
    ]);
    const body = bodies.at(-1);
    expect(body).toMatchObject({
      model: 'm',
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(body).not.toHaveProperty('tools');
  });

  it('reads usage sent on the finishing chunk; a missing or malformed count is 0', async () => {
    const finishing = (usage: Record<string, unknown>) => ({ ...chunk({}, 'stop'), usage });
    queue.push(
      sse([chunk({ content: 'Hi' }), finishing({ prompt_tokens: 9, completion_tokens: 2 })]),
      sse([chunk({ content: 'Hi' }), finishing({ prompt_tokens: 9 })]),
      sse([chunk({ content: 'Hi' }), finishing({ prompt_tokens: -1, completion_tokens: '3' })]),
      sse([chunk({ content: 'Hi' }), chunk({}, 'stop')]),
    );
    const model = openaiModel({ baseURL: stub.baseURL, apiKey: 'test', model: 'm', maxRetries: 0 });
    const finishes = [];
    for (let i = 0; i < 4; i++) finishes.push((await collect(model.stream(request()))).at(-1));
    expect(finishes).toEqual([
      { type: 'finish', usage: { inputTokens: 9, outputTokens: 2 } },
      { type: 'finish', usage: { inputTokens: 9, outputTokens: 0 } },
      { type: 'finish', usage: { inputTokens: 0, outputTokens: 0 } },
      { type: 'finish' },
    ]);
  });

  it("a session reports the server's usage per turn, on the result and in the latency report", async () => {
    queue.push(sse([chunk({ content: 'One.' }), chunk({}, 'stop'), usageChunk]));
    const s = createSession({
      tools: await loadTools([]),
      model: openaiModel({ baseURL: stub.baseURL, apiKey: 'test', model: 'm', maxRetries: 0 }),
    });
    const r = await s.run('count');
    expect(r.usage).toEqual({ inputTokens: 11, outputTokens: 7 });
    expect(r.timings.usage).toEqual({ inputTokens: 11, outputTokens: 7 });
    expect(r.timings.modelCalls[0]?.usage).toEqual({ inputTokens: 11, outputTokens: 7 });
    await s.close();
  });

  it('accumulates two parallel tool calls whose deltas are split and interleaved', async () => {
    queue.push(
      sse([
        chunk({
          role: 'assistant',
          tool_calls: [
            { index: 0, id: 'call_a', type: 'function', function: { name: 'get_', arguments: '' } },
          ],
        }),
        chunk({ tool_calls: [{ index: 0, function: { name: 'weather', arguments: '{"ci' } }] }),
        chunk({
          tool_calls: [
            {
              index: 1,
              id: 'call_b',
              type: 'function',
              function: { name: 'note', arguments: '{"text":' },
            },
          ],
        }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: 'ty":"Bronx"}' } }] }),
        chunk({ tool_calls: [{ index: 1, function: { arguments: '"hi"}' } }] }),
        chunk({}, 'tool_calls'),
        usageChunk,
      ]),
    );
    const model = openaiModel({ baseURL: stub.baseURL, apiKey: 'test', model: 'm', maxRetries: 0 });
    const parts = await collect(model.stream(request()));
    expect(parts.filter((p) => p.type === 'tool-call')).toEqual([
      {
        type: 'tool-call',
        call: { id: 'call_a', name: 'get_weather', arguments: '{"city":"Bronx"}' },
      },
      { type: 'tool-call', call: { id: 'call_b', name: 'note', arguments: '{"text":"hi"}' } },
    ]);
  });

  it('turns a 500 into a ModelError with the status', async () => {
    queue.push((_req, res) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end('{"error":{"message":"the model fell over","type":"server_error"}}');
    });
    const model = openaiModel({ baseURL: stub.baseURL, apiKey: 'test', model: 'm', maxRetries: 0 });
    const err = (await collect(model.stream(request())).catch((e: unknown) => e)) as ModelError;
    expect(isModelError(err)).toBe(true);
    expect(err.code).toBe('http_status');
    expect(err.status).toBe(500);
    expect(err.message).toContain('HTTP 500');
    expect(err.message).toContain('the model fell over');
  });

  it('a refused connection names the base URL, without its credentials', async () => {
    // A port that was just free: nothing listens there, so the connection is refused.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const model = openaiModel({
      baseURL: `http://127.0.0.1:${port}/v1/?api-key=k3y#x`,
      apiKey: 'test',
      model: 'm',
      maxRetries: 0,
    });
    const err = (await collect(model.stream(request())).catch((e: unknown) => e)) as ModelError;
    expect(isModelError(err)).toBe(true);
    expect(err.code).toBe('network');
    expect(err.message).toBe(
      `model openai:m is unreachable at http://127.0.0.1:${port}/v1: connection refused (ECONNREFUSED)`,
    );
    expect(err.message).not.toContain('k3y');
  });

  it('a base URL with a password is refused by fetch: the message says so, without it', async () => {
    const model = openaiModel({
      baseURL: 'http://user:s3cret@127.0.0.1:1/v1',
      apiKey: 'test',
      model: 'm',
      maxRetries: 0,
    });
    const err = (await collect(model.stream(request())).catch((e: unknown) => e)) as ModelError;
    expect(err.code).toBe('network');
    expect(err.message).toMatch(
      /^model openai:m is unreachable at http:\/\/127\.0\.0\.1:1\/v1: .*credentials/,
    );
    expect(err.message).not.toMatch(/s3cret|user/);
  });

  it('shownURL keeps origin and path only', () => {
    expect(shownURL('https://k:p@example.com/openai/v1/?key=1')).toBe(
      'https://example.com/openai/v1',
    );
    expect(shownURL('not a url')).toBe('(an unparsable base URL)');
  });

  it('times out when the server never answers', async () => {
    queue.push(() => undefined);
    const model = openaiModel({
      baseURL: stub.baseURL,
      apiKey: 'test',
      model: 'm',
      maxRetries: 0,
      timeoutMs: 300,
    });
    const err = (await collect(model.stream(request())).catch((e: unknown) => e)) as ModelError;
    expect(isModelError(err)).toBe(true);
    expect(err.code).toBe('timeout');
    expect(err.message).toContain('300 ms');
  });

  it('times out when the stream stalls after the first chunk', async () => {
    queue.push((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: ${JSON.stringify(chunk({ content: 'partial' }))}\n\n`);
    });
    const model = openaiModel({
      baseURL: stub.baseURL,
      apiKey: 'test',
      model: 'm',
      maxRetries: 0,
      timeoutMs: 300,
    });
    const seen: ModelStreamPart[] = [];
    const err = (await (async () => {
      for await (const p of model.stream(request())) seen.push(p);
    })().catch((e: unknown) => e)) as ModelError;
    expect(seen).toEqual([{ type: 'text-delta', text: 'partial' }]);
    expect(err.code).toBe('timeout');
  });

  it('runs a whole session turn: tools sent natively, tool results sent back', async () => {
    const tools = await loadTools([
      {
        type: 'log',
        tool: {
          type: 'function',
          function: {
            name: 'note',
            description: 'Take a note',
            parameters: { type: 'object', properties: { text: { type: 'string' } } },
          },
        },
      },
    ]);
    queue.push(
      sse([
        chunk({
          tool_calls: [
            {
              index: 0,
              id: 'c1',
              type: 'function',
              function: { name: 'note', arguments: '{"text":"x"}' },
            },
          ],
        }),
        chunk({}, 'tool_calls'),
      ]),
      sse([chunk({ content: 'Noted.' }), chunk({}, 'stop'), usageChunk]),
    );
    const s = createSession({
      tools,
      model: openaiModel({ baseURL: stub.baseURL, apiKey: 'test', model: 'm', maxRetries: 0 }),
      prompt: 'Be brief.',
    });
    const r = await s.run('note x');
    expect(r.content).toBe('Noted.');
    expect(r.usage).toEqual({ inputTokens: 11, outputTokens: 7 });
    const second = bodies.at(-1) as { messages: unknown[]; tools: unknown[] };
    expect(second.tools).toEqual([
      {
        type: 'function',
        function: { name: 'note', description: 'Take a note', parameters: expect.any(Object) },
      },
    ]);
    expect(second.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'note x' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'note', arguments: '{"text":"x"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: '{"status":"logged"}' },
    ]);
  });

  it('ends a session turn with a ModelError on a 500, and the session survives', async () => {
    const tools = await loadTools([]);
    queue.push((_req, res) => {
      res.writeHead(503);
      res.end('overloaded');
    });
    queue.push(sse([chunk({ content: 'back' }), chunk({}, 'stop')]));
    const s = createSession({
      tools,
      model: openaiModel({ baseURL: stub.baseURL, apiKey: 'test', model: 'm', maxRetries: 0 }),
    });
    const stream = s.send('x');
    const types: string[] = [];
    for await (const e of stream) types.push(e.type);
    expect(types).toEqual(['turn-start', 'model-error']);
    await expect(stream.result).rejects.toMatchObject({ name: 'ModelError', status: 503 });
    expect((await s.run('again')).content).toBe('back');
  });

  it('stops promptly when the request is aborted', async () => {
    queue.push((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: ${JSON.stringify(chunk({ content: 'a' }))}\n\n`);
    });
    const controller = new AbortController();
    const model = openaiModel({
      baseURL: stub.baseURL,
      apiKey: 'test',
      model: 'm',
      maxRetries: 0,
      timeoutMs: 10_000,
    });
    // An AbortError, not the 10 s timeout: the abort ended the stream.
    const err = await (async () => {
      for await (const p of model.stream(request(controller.signal)))
        if (p.type === 'text-delta') controller.abort();
    })().catch((e: unknown) => e);
    expect((err as Error).name).toBe('AbortError');
  });
});
