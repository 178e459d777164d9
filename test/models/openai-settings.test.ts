// Model settings users expect, seen where they matter: in the request body an OpenAI-compatible
// server on 127.0.0.1 receives from the real `openai` client.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { openaiModel, type OpenAIModelOptions } from '../../src/models/openai.js';
import type { ChatTool } from '../../src/models/types.js';
import { createSession } from '../../src/session/create-session.js';
import { ScriptedModel } from '../../src/models/scripted.js';
import { actionResult } from '../../src/handlers/action-result.js';
import { toolSet } from '../session/helpers.js';
import { openaiStub } from './openai-stub.js';

/** Answers every request with a one-chunk streamed "ok". */
const stub = openaiStub((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const chunk = {
    id: 'x',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm',
    choices: [{ index: 0, delta: { content: 'ok' }, finish_reason: 'stop' }],
  };
  res.end(`data: ${JSON.stringify(chunk)}\n\ndata: [DONE]\n\n`);
});
const bodies = stub.bodies;
beforeEach(() => {
  bodies.length = 0;
});

const TOOL: ChatTool = {
  type: 'function',
  function: { name: 'lookup', parameters: { type: 'object', properties: {} } },
};

/** The body the server received for one request made with these settings. */
async function bodyFor(
  settings: Partial<OpenAIModelOptions>,
  tools: readonly ChatTool[] = [TOOL],
): Promise<Record<string, unknown>> {
  const model = openaiModel({
    baseURL: stub.baseURL,
    apiKey: 'test',
    model: 'm',
    maxRetries: 0,
    ...settings,
  });
  const signal = new AbortController().signal;
  for await (const part of model.stream({
    messages: [{ role: 'user', content: 'hi' }],
    tools,
    signal,
  }))
    void part;
  expect(bodies).toHaveLength(1);
  return bodies[0]!;
}

describe('openaiModel settings reach the request body', () => {
  it('temperature', async () => {
    expect(await bodyFor({ temperature: 0 })).toMatchObject({ temperature: 0 });
  });

  it('maxTokens as max_tokens, maxCompletionTokens as max_completion_tokens', async () => {
    expect(await bodyFor({ maxTokens: 256 })).toMatchObject({ max_tokens: 256 });
    bodies.length = 0;
    expect(await bodyFor({ maxCompletionTokens: 512 })).toMatchObject({
      max_completion_tokens: 512,
    });
  });

  it('toolChoice: a mode, or a tool name forcing that tool', async () => {
    expect(await bodyFor({ toolChoice: 'required' })).toMatchObject({ tool_choice: 'required' });
    bodies.length = 0;
    expect(await bodyFor({ toolChoice: { name: 'lookup' } })).toMatchObject({
      tool_choice: { type: 'function', function: { name: 'lookup' } },
    });
  });

  it('parallelToolCalls as parallel_tool_calls', async () => {
    expect(await bodyFor({ parallelToolCalls: false })).toMatchObject({
      parallel_tool_calls: false,
    });
  });

  it('extraBody fields are sent as given; the named options win over them', async () => {
    const body = await bodyFor({
      temperature: 0.2,
      extraBody: { top_p: 0.9, seed: 7, temperature: 1.5, metadata: { app: 'clinic' } },
    });
    expect(body).toMatchObject({
      top_p: 0.9,
      seed: 7,
      temperature: 0.2,
      metadata: { app: 'clinic' },
    });
    expect(body['model']).toBe('m');
  });

  it('nothing is sent for settings left unset; tool settings only with tools', async () => {
    const plain = await bodyFor({});
    for (const key of [
      'temperature',
      'max_tokens',
      'max_completion_tokens',
      'tool_choice',
      'parallel_tool_calls',
    ])
      expect(plain).not.toHaveProperty(key);
    bodies.length = 0;
    const noTools = await bodyFor({ toolChoice: 'required', parallelToolCalls: true }, []);
    expect(noTools).not.toHaveProperty('tool_choice');
    expect(noTools).not.toHaveProperty('parallel_tool_calls');
    expect(noTools).not.toHaveProperty('tools');
  });

  it('refuses settings no server accepts, naming the option', () => {
    const make = (s: Partial<OpenAIModelOptions>) => () => openaiModel({ model: 'm', ...s });
    const refused = (s: Record<string, unknown>, message: string): void =>
      expect(make(s as Partial<OpenAIModelOptions>)).toThrow(new TypeError(message));
    refused({ temperature: 3 }, 'openaiModel: temperature: expected a number from 0 to 2, got 3');
    refused({ maxTokens: 0 }, 'openaiModel: maxTokens: expected an integer of at least 1, got 0');
    refused(
      { maxCompletionTokens: 1.5 },
      'openaiModel: maxCompletionTokens: expected an integer of at least 1, got 1.5',
    );
    refused(
      { toolChoice: { name: '' } },
      'openaiModel: toolChoice.name: expected a non-empty string, got an empty string',
    );
    refused(
      { extraBody: { messages: [], stream: false } },
      'openaiModel: extraBody: cannot set "messages", "stream" (the adapter writes them)',
    );
  });

  it('checks every option when created: each wrong one named, never its value', () => {
    const make = (s: Record<string, unknown>) => () =>
      openaiModel(s as unknown as OpenAIModelOptions);
    // Each was accepted: the first call failed, waited 0 ms, or let the server choose.
    expect(make({})).toThrow(new TypeError('openaiModel: model: is required'));
    expect(make({ model: 'm', timeoutMs: '5000', toolChoice: 'requierd', apiKey: 42 })).toThrow(
      new TypeError(
        'openaiModel: timeoutMs: must be a number of milliseconds above 0 and at most 2147483647; toolChoice: expected "auto" or "none" or "required", got a string (did you mean `required`?); apiKey: expected a string, got a number',
      ),
    );
    expect(make({ model: 'm', maxRetries: -1, parallelToolCalls: 'yes' })).toThrow(
      new TypeError(
        'openaiModel: maxRetries: expected an integer of at least 0, got -1; parallelToolCalls: expected true or false, got a string',
      ),
    );
    expect(make({ model: 'm', apiKey: 'sk-secret', baseURL: 7 })).toThrow(
      /^openaiModel: baseURL: expected a non-empty string, got a number$/,
    );
  });

  it('an unknown option is a process warning naming the nearest one; a correct model is made', () => {
    const emit = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      const model = openaiModel({ model: 'm', apiKey: 'k', temprature: 0.2 } as OpenAIModelOptions);
      expect(model.name).toBe('openai:m');
      expect(emit.mock.calls).toEqual([
        [
          'temprature: is not a known option (did you mean `temperature`?); it is ignored',
          { code: 'SWITCHBOARD_UNKNOWN_OPTION' },
        ],
      ]);
    } finally {
      emit.mockRestore();
    }
  });

  it('refuses a base URL that is not an http(s) URL, naming where it came from', () => {
    const make = (s: Partial<OpenAIModelOptions>) => () => openaiModel({ model: 'm', ...s });
    expect(make({ baseURL: '127.0.0.1:11434/v1' })).toThrow(
      'openaiModel: baseURL must be an http(s) URL such as http://127.0.0.1:11434/v1, got "127.0.0.1:11434/v1"',
    );
    // What it shows never includes a user name, password or query (where keys travel).
    expect(make({ baseURL: 'ftp://me:s3cret@host/v1?key=k3y' })).toThrow(
      'openaiModel: baseURL must be an http(s) URL such as http://127.0.0.1:11434/v1, got "ftp://host/v1"',
    );
    // A long value is cut at 100 characters.
    expect(make({ baseURL: `ftp://${'h'.repeat(300)}` })).toThrow(`got "ftp://${'h'.repeat(94)}…"`);
    vi.stubEnv('OPENAI_BASE_URL', 'localhost:11434');
    try {
      expect(make({})).toThrow(
        'openaiModel: OPENAI_BASE_URL must be an http(s) URL such as http://127.0.0.1:11434/v1, got "localhost:11434"',
      );
      expect(make({ baseURL: stub.baseURL })).not.toThrow(); // an explicit baseURL wins over the variable
      // Blank, as the openai client reads it (trimmed): its default URL.
      vi.stubEnv('OPENAI_BASE_URL', '  ');
      expect(make({})).not.toThrow();
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("a local server named in another tool's variable (OPENAI_API_BASE) is a warning, not a silent call to OpenAI", () => {
    const emit = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      vi.stubEnv('OPENAI_BASE_URL', '');
      vi.stubEnv('OPENAI_API_BASE', 'http://127.0.0.1:18912/v1');
      openaiModel({ model: 'm', apiKey: 'k' });
      openaiModel({ model: 'm2', apiKey: 'k' }); // once per process
      // An explicit baseURL, or OPENAI_BASE_URL itself, says where: nothing to warn about.
      openaiModel({ model: 'm', apiKey: 'k', baseURL: 'http://127.0.0.1:1/v1' });
      vi.stubEnv('OPENAI_BASE_URL', 'http://127.0.0.1:2/v1');
      openaiModel({ model: 'm', apiKey: 'k' });
      expect(emit.mock.calls).toEqual([
        [
          "OPENAI_API_BASE: OPENAI_API_BASE is set, but the base URL is read from OPENAI_BASE_URL (the openai package's name), so requests go to https://api.openai.com/v1: rename it to OPENAI_BASE_URL",
          { code: 'SWITCHBOARD_MISNAMED_ENV' },
        ],
      ]);
    } finally {
      emit.mockRestore();
      vi.unstubAllEnvs();
    }
  });
});

describe('a model per agent (agents[x].model)', () => {
  it("each agent's turns call its own model, also right after a handoff; the session's model is the default", async () => {
    const front = new ScriptedModel([{ tool_calls: [{ name: 'transfer', args: {} }] }], {
      record: true,
      name: 'front-small',
    });
    const billing = openaiModel({
      baseURL: stub.baseURL,
      apiKey: 'test',
      model: 'billing-large',
      maxRetries: 0,
    });
    const sessionModel = new ScriptedModel([{ text: 'from the session model' }], { record: true });
    const agents = {
      front: { prompt: 'You route calls.', model: front },
      billing: { prompt: 'You handle billing.', model: billing },
      other: { prompt: 'No model of its own.' },
    };
    const tools = toolSet({ name: 'transfer' });
    const actions = { transfer: () => actionResult({ handoff: 'billing' }) };
    const session = createSession({ tools, model: sessionModel, agents, actions });
    expect((await session.run('I have a billing question')).content).toBe('ok');
    expect(front.calls).toHaveLength(1);
    expect(bodies.map((b) => b['model'])).toEqual(['billing-large']);
    expect(sessionModel.calls).toHaveLength(0);
    await session.close();

    const plain = createSession({ tools, model: sessionModel, agents, agent: 'other' });
    expect((await plain.run('hello')).content).toBe('from the session model');
    await plain.close();
  });
});
