// Servers that do not stream as asked: one that answers `stream: true` with a whole
// chat.completion JSON document (read, not taken for an empty answer), and one whose stream
// holds a chunk that is not JSON (a bad_response naming it, and nothing printed by the client).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isModelError, type ModelError } from '../../src/models/errors.js';
import { openaiModel } from '../../src/models/openai.js';
import { collect, openaiStub } from './openai-stub.js';

let scenario: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end();
const stub = openaiStub((req, res) => scenario(req, res));

function json(body: unknown, type = 'application/json'): typeof scenario {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': type });
    res.end(JSON.stringify(body));
  };
}

const ask = () =>
  collect(
    openaiModel({ model: 'm', baseURL: stub.baseURL, maxRetries: 0 }).stream({
      messages: [{ role: 'user', content: 'hi' }],
      tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }],
      signal: new AbortController().signal,
    }),
  );

afterEach(() => vi.restoreAllMocks());

describe('openaiModel and a server that answers a streamed request with one JSON document', () => {
  it('reads its text, tool calls and usage', async () => {
    scenario = json({
      id: 'x',
      object: 'chat.completion',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'Let me look.',
            tool_calls: [
              {
                id: 'c1',
                type: 'function',
                function: { name: 'lookup', arguments: '{"q":"A17"}' },
              },
              { id: 'c2', type: 'function', function: { name: 'lookup', arguments: { q: 'B2' } } },
            ],
          },
          finish_reason: 'tool_calls',
        },
      ],
      usage: { prompt_tokens: 12, completion_tokens: 4 },
    });
    expect(await ask()).toEqual([
      { type: 'text-delta', text: 'Let me look.' },
      { type: 'tool-call', call: { id: 'c1', name: 'lookup', arguments: '{"q":"A17"}' } },
      { type: 'tool-call', call: { id: 'c2', name: 'lookup', arguments: '{"q":"B2"}' } },
      { type: 'finish', usage: { inputTokens: 12, outputTokens: 4 } },
    ]);
    expect(stub.bodies.at(-1)?.['stream']).toBe(true);
  });

  it('reads a plain answer under a +json content type, without usage', async () => {
    scenario = json(
      { choices: [{ index: 0, message: { role: 'assistant', content: 'Hello.' } }] },
      'application/vnd.example+json; charset=utf-8',
    );
    expect(await ask()).toEqual([{ type: 'text-delta', text: 'Hello.' }, { type: 'finish' }]);
  });

  it('is a bad_response when the document is not a chat completion', async () => {
    scenario = json({ result: 'Hello.' });
    const err = await ask();
    expect(isModelError(err) && err.code).toBe('bad_response');
    expect((err as ModelError).message).toBe(
      'model openai:m answered a streamed request with one JSON document without "choices"; is it a chat completion?',
    );
    scenario = json({ error: { message: 'model not loaded' } });
    expect(((await ask()) as ModelError).message).toContain('holding an error: model not loaded');
    scenario = json({ choices: [{ index: 0, message: { tool_calls: [{ function: {} }] } }] });
    expect(((await ask()) as ModelError).message).toContain('tool_calls[0] has no function name');
  });
});

describe('openaiModel and a stream chunk that is not JSON', () => {
  it('is a bad_response saying so, and the client prints nothing', async () => {
    const printed = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const warned = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    scenario = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('data: {not json\n\n');
    };
    const err = await ask();
    expect(isModelError(err) && err.code).toBe('bad_response');
    expect((err as ModelError).message).toMatch(
      /^model openai:m sent an answer that is not JSON \(is http:\/\/127\.0\.0\.1:\d+\/v1 an OpenAI-compatible server\?\): /,
    );
    expect(printed).not.toHaveBeenCalled();
    expect(warned).not.toHaveBeenCalled();
  });
});
