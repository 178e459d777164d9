// The agent over HTTP, end to end over loopback: good requests, bad bodies, oversized bodies,
// concurrent runs, failures that never end the server, graceful close during a run.
import { Ajv } from 'ajv';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AGENT_OUTPUT_SCHEMA,
  createAgentServer,
  type AgentServer,
} from '../../src/entries/serve.js';
import { loadTools, type Model, type ModelRequest, type ModelStreamPart } from '../../src/index.js';
import { fn } from '../session/fixtures.js';

const validate = new Ajv({ strict: true }).compile(AGENT_OUTPUT_SCHEMA);
const tools = await loadTools([{ type: 'log', tool: fn('note', { text: { type: 'string' } }) }]);

/** Answers "echo: <last user message>" once `release()` is called (or at once when open). */
class GatedModel implements Model {
  readonly name = 'gated';
  started = 0;
  #open: boolean;
  #waiters: (() => void)[] = [];
  constructor(open = true) {
    this.#open = open;
  }
  release(): void {
    this.#open = true;
    for (const w of this.#waiters.splice(0)) w();
  }
  async *stream(request: ModelRequest): AsyncIterable<ModelStreamPart> {
    this.started++;
    if (!this.#open) await new Promise<void>((r) => this.#waiters.push(r));
    const last = request.messages.filter((m) => m.role === 'user').at(-1);
    const text = last?.content ?? '';
    if (text === 'fail') throw new Error('model down');
    if (text === 'note' && !request.messages.some((m) => m.role === 'tool')) {
      yield { type: 'tool-call', call: { id: 'c1', name: 'note', arguments: '{"text":"hi"}' } };
    } else yield { type: 'text-delta', text: `echo: ${text}` };
    yield { type: 'finish' };
  }
}

let running: AgentServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function start(model: Model, maxBodyBytes?: number): Promise<string> {
  running = createAgentServer({
    tools,
    model,
    ...(maxBodyBytes === undefined ? {} : { maxBodyBytes }),
  });
  const address = await running.listen();
  expect(address.address).toBe('127.0.0.1');
  return `http://127.0.0.1:${address.port}/run_agent`;
}

async function post(url: string, body: string): Promise<{ status: number; json: unknown }> {
  const res = await fetch(url, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json' },
  });
  return { status: res.status, json: await res.json() };
}

describe('createAgentServer', () => {
  it('answers POST /run_agent with the minimal agent output', async () => {
    const url = await start(new GatedModel());
    const r = await post(
      url,
      JSON.stringify({ prompt: 'note', chat_history: ['user: a', 'assistant: b'], memory: 'm' }),
    );
    expect(r.status).toBe(200);
    expect(validate(r.json)).toBe(true);
    expect(r.json).toMatchObject({
      content: 'echo: note',
      traces: [{ tool: 'note', args: { text: 'hi' }, output: '{"status":"logged"}' }],
      tools_used: ['note'],
    });
  });

  it('400 with a JSON error for malformed JSON and wrong types, naming the field', async () => {
    const url = await start(new GatedModel());
    const bad = await post(url, '{"prompt": ');
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ error: { code: 'invalid_json' } });
    const noPrompt = await post(url, '{"memory":"x"}');
    expect(noPrompt).toMatchObject({
      status: 400,
      json: { error: { code: 'invalid_request', field: 'prompt' } },
    });
    const history = await post(url, JSON.stringify({ prompt: 'x', chat_history: 5 }));
    expect(history).toMatchObject({ status: 400, json: { error: { field: 'chat_history' } } });
    const config = await post(url, JSON.stringify({ prompt: 'x', config: [] }));
    expect(config).toMatchObject({ status: 400, json: { error: { field: 'config' } } });
    const key = await post(
      url,
      JSON.stringify({ prompt: 'x', config: { domain_timeout_secs: 'soon' } }),
    );
    expect(key).toMatchObject({
      status: 400,
      json: { error: { code: 'invalid_config', field: 'config.domain_timeout_secs' } },
    });
    const notObject = await post(url, '[1]');
    expect(notObject.status).toBe(400);
    // The server is still serving.
    expect((await post(url, '{"prompt":"still here"}')).status).toBe(200);
  });

  it('413 for an oversized body, declared or streamed', async () => {
    const url = await start(new GatedModel(), 64);
    const big = JSON.stringify({ prompt: 'x'.repeat(200) });
    expect(await post(url, big)).toMatchObject({
      status: 413,
      json: { error: { code: 'body_too_large' } },
    });
    // Without a content-length (chunked), the cap applies while reading.
    const chunked = await fetch(url, {
      method: 'POST',
      body: new Blob([big]).stream(),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect((await post(url, '{"prompt":"ok"}')).status).toBe(200);
  });

  it('the cap is exact: a streamed body of maxBodyBytes is read, one byte more is 413', async () => {
    const url = await start(new GatedModel(), 64);
    const sized = (bytes: number): string => {
      const text = JSON.stringify({ prompt: '' });
      return JSON.stringify({ prompt: 'x'.repeat(bytes - text.length) });
    };
    // Chunked (no content-length), so the check while reading decides, not the declared size.
    const send = (body: string): Promise<Response> =>
      fetch(url, {
        method: 'POST',
        body: new Blob([body]).stream(),
        duplex: 'half',
        headers: { 'content-type': 'application/json' },
      } as RequestInit);
    expect(sized(64)).toHaveLength(64);
    expect((await send(sized(64))).status).toBe(200);
    expect((await send(sized(65))).status).toBe(413);
  });

  it('404 and 405 as JSON', async () => {
    const url = await start(new GatedModel());
    const other = await fetch(url.replace('/run_agent', '/nope'), { method: 'POST' });
    expect(other.status).toBe(404);
    const get = await fetch(url);
    expect(get.status).toBe(405);
    expect(await get.json()).toMatchObject({ error: { code: 'method_not_allowed' } });
  });

  it('serves concurrent requests, each its own run', async () => {
    const model = new GatedModel(false);
    const url = await start(model);
    const runs = ['one', 'two', 'three'].map((p) => post(url, JSON.stringify({ prompt: p })));
    while (model.started < 3) await new Promise((r) => setTimeout(r, 5));
    expect(running?.inFlight).toBe(3);
    model.release();
    const out = await Promise.all(runs);
    expect(out.map((r) => (r.json as { content: string }).content)).toEqual([
      'echo: one',
      'echo: two',
      'echo: three',
    ]);
  });

  it("one request's failure is a JSON error and never ends the server", async () => {
    const url = await start(new GatedModel());
    const failed = await post(url, '{"prompt":"fail"}');
    expect(failed.status).toBe(502);
    expect(failed.json).toMatchObject({ error: { code: 'model_error' } });
    expect((await post(url, '{"prompt":"after"}')).json).toMatchObject({ content: 'echo: after' });
  });

  it('close() during a run lets it answer, then stops accepting', async () => {
    const model = new GatedModel(false);
    const url = await start(model);
    const run = post(url, '{"prompt":"in flight"}');
    while (model.started < 1) await new Promise((r) => setTimeout(r, 5));
    const server = running;
    running = undefined;
    const closed = server?.close();
    setTimeout(() => model.release(), 50);
    expect((await run).json).toMatchObject({ content: 'echo: in flight' });
    await closed;
    await expect(post(url, '{"prompt":"late"}')).rejects.toThrow();
  });
});
