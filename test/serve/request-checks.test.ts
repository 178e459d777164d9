// Client mistakes are 4xx naming the field, never a 500 (a body nested 150 000 levels deep, a
// `config` the session refuses, history the run would drop, a body that is not JSON by its content
// type), and the server's network policy denies private addresses unless the host opts out.
import { afterEach, describe, expect, it } from 'vitest';
import { type AgentServer, type AgentServerOptions } from '../../src/entries/serve.js';
import { loadTools } from '../../src/index.js';
import { fn } from '../session/fixtures.js';
import { ScriptModel, heldUpstream, post, startServer } from './helpers.js';

const tools = await loadTools([
  {
    type: 'action',
    tool: fn('book', { city: { type: 'string' } }),
    static_parameters: [{ name: 'clinic', type: 'string', default: 'Bronx' }],
  },
]);
let running: AgentServer | undefined;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await running?.close();
  running = undefined;
  for (const c of cleanups.splice(0)) await c();
});

async function start(options: Partial<AgentServerOptions> = {}): Promise<string> {
  const started = await startServer({ tools, model: new ScriptModel(), ...options });
  running = started.agent;
  return started.url;
}

function nested(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

describe('content type', () => {
  it('415 for a body that is not JSON by its content type; JSON types and none are read', async () => {
    const url = await start();
    for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
      const res = await fetch(url, {
        method: 'POST',
        body: '{"prompt":"x"}',
        headers: { 'content-type': type },
      });
      expect(res.status).toBe(415);
      expect(res.headers.get('connection')).toBe('close');
      expect(await res.json()).toMatchObject({ error: { code: 'unsupported_media_type' } });
    }
    for (const type of ['application/json; charset=utf-8', 'application/vnd.api+json'])
      expect((await post(url, { prompt: 'x' }, { 'content-type': type })).status).toBe(200);
    // No content type at all (Blob without a type: fetch sends none).
    const bare = await fetch(url, { method: 'POST', body: new Blob(['{"prompt":"bare"}']) });
    expect(bare.status).toBe(200);
  });
});

describe('400, not 500, for what the client sent', () => {
  it('a missing prompt is "required", with the misspelt key the body has', async () => {
    const url = await start();
    expect(await post(url, { promt: 'Book me' })).toMatchObject({
      status: 400,
      json: {
        error: {
          code: 'invalid_request',
          field: 'prompt',
          message: 'prompt: is required (the body has "promt"; did you mean prompt?)',
        },
      },
    });
    expect(await post(url, { chat_history: [] })).toMatchObject({
      json: { error: { field: 'prompt', message: 'prompt: is required' } },
    });
    expect(await post(url, { prompt: 3 })).toMatchObject({
      json: { error: { field: 'prompt', message: 'prompt: expected a string' } },
    });
  });

  it('a memory object 150 000 levels deep', async () => {
    const url = await start();
    const r = await post(url, `{"prompt":"x","memory":${nested(150_000)}}`);
    expect(r).toMatchObject({
      status: 400,
      json: { error: { code: 'invalid_request', field: 'memory' } },
    });
    const config = await post(url, `{"prompt":"x","config":{"vars":${nested(80)}}}`);
    expect(config).toMatchObject({ status: 400, json: { error: { field: 'config' } } });
    // 60 levels is within the limit and runs.
    expect((await post(url, `{"prompt":"x","memory":${nested(60)}}`)).status).toBe(200);
  });

  it('the depth limit is exactly 64 levels, the body itself being level 1', async () => {
    const url = await start();
    // memory's outer object is level 2: 63 objects reach level 64, 64 objects level 65.
    expect((await post(url, `{"prompt":"x","memory":${nested(63)}}`)).status).toBe(200);
    expect(await post(url, `{"prompt":"x","memory":${nested(64)}}`)).toMatchObject({
      status: 400,
      json: { error: { field: 'memory', message: 'memory: nests deeper than 64 levels' } },
    });
  });

  it('config.tool_defaults on a parameter that is not static, named as the client spelt it', async () => {
    const url = await start();
    const r = await post(url, {
      prompt: 'x',
      config: { tool_defaults: { book: { city: 'Queens' } } },
    });
    expect(r).toMatchObject({
      status: 400,
      json: { error: { code: 'invalid_config', field: 'config.tool_defaults.book.city' } },
    });
    expect((r.json as { error: { message: string } }).error.message).toContain('clinic');
    const camel = await post(url, { prompt: 'x', config: { toolDefaults: { nope: {} } } });
    expect(camel).toMatchObject({
      status: 400,
      json: { error: { field: 'config.toolDefaults.nope' } },
    });
    const ok = await post(url, {
      prompt: 'x',
      config: { tool_defaults: { book: { clinic: 'Queens' } } },
    });
    expect(ok.status).toBe(200);
  });

  it('config.language and config.agent the session refuses (tool_root too)', async () => {
    const url = await start();
    const lang = await post(url, { prompt: 'x', config: { language: 'not a tag!' } });
    expect(lang).toMatchObject({ status: 400, json: { error: { field: 'config.language' } } });
    const agent = await post(url, { prompt: 'x', config: { agent: 'nobody' } });
    expect(agent).toMatchObject({ status: 400, json: { error: { field: 'config.agent' } } });
    // The server's tools are loaded at start: a caller cannot point it at files to read.
    const root = await post(url, { prompt: 'x', config: { tool_root: '/etc' } });
    expect(root).toMatchObject({
      status: 400,
      json: { error: { code: 'invalid_config', field: 'config.tool_root' } },
    });
  });
});

describe('both history spellings', () => {
  it('is a 400 naming chat_history, not one of them chosen', async () => {
    const url = await start();
    const r = await post(url, {
      prompt: 'x',
      chat_history: ['user: a'],
      chatHistory: ['user: b'],
    });
    expect(r).toMatchObject({
      status: 400,
      json: { error: { code: 'invalid_request', field: 'chat_history' } },
    });
  });
});

describe('chat_history the run would drop', () => {
  it('a message with an unknown role', async () => {
    const url = await start();
    const r = await post(url, {
      prompt: 'x',
      chat_history: [
        { role: 'user', content: 'hi' },
        { role: 'wizard', content: 'you are root' },
      ],
    });
    expect(r).toMatchObject({ status: 400, json: { error: { field: 'chat_history[1].role' } } });
    expect((r.json as { error: { message: string } }).error.message).toContain('"wizard"');
    const tool = await post(url, {
      prompt: 'x',
      chat_history: [{ role: 'tool', tool_call_id: 'c9', content: 'r' }],
    });
    expect(tool).toMatchObject({
      status: 400,
      json: { error: { code: 'invalid_request', field: 'chat_history[0].role' } },
    });
    // A system item has a place: the run's system context.
    const system = await post(url, {
      prompt: 'x',
      chat_history: [{ role: 'system', content: 'be brief' }],
    });
    expect(system.status).toBe(200);
  });

  it('an item with a missing or mistyped field is named, not the whole history', async () => {
    const url = await start();
    const cases: [unknown, string, string][] = [
      [
        [{ role: 'user', content: 'hi' }, { role: 'user' }],
        'chat_history[1].content',
        'expected a string',
      ],
      [
        [{ role: 'user', content: 'hi' }, { content: 'hello' }],
        'chat_history[1].role',
        'unknown role',
      ],
      [[{ role: 'user', content: 7 }], 'chat_history[0].content', 'expected a string'],
      [
        ['user: hi', { role: 'assistant', content: 'hello' }],
        'chat_history[1]',
        'expected a line of text',
      ],
    ];
    for (const [history, field, message] of cases) {
      const r = await post(url, { prompt: 'x', chat_history: history });
      expect({ history, ...r }).toMatchObject({
        status: 400,
        json: { error: { code: 'invalid_request', field } },
      });
      expect((r.json as { error: { message: string } }).error.message).toContain(message);
    }
    // Neither text nor a list: the history as a whole.
    const number = await post(url, { prompt: 'x', chat_history: 7 });
    expect(number).toMatchObject({ status: 400, json: { error: { field: 'chat_history' } } });
  });

  it('lines that name no role, are empty, or name another format role', async () => {
    const url = await start();
    const cases: [unknown, string][] = [
      [['user: hi', 'hello there'], 'chat_history[1]'],
      [['user: hi', ''], 'chat_history[1]'],
      ['hello\nuser: hi', 'chat_history'],
      ['user: hi\nsystem: obey', 'chat_history'],
      [['tool: {"ok":true}'], 'chat_history[0]'],
    ];
    for (const [history, field] of cases) {
      const r = await post(url, { prompt: 'x', chat_history: history });
      expect({ history, ...r }).toMatchObject({ status: 400, json: { error: { field } } });
      if (typeof history === 'string')
        expect((r.json as { error: { message: string } }).error.message).toMatch(/line [12] /);
    }
    // Said as runAgent says it (docs/agent-format.md): the role is known, the text form has no
    // place for it.
    const system = await post(url, { prompt: 'x', chat_history: 'user: hi\nsystem: obey' });
    expect((system.json as { error: { message: string } }).error.message).toBe(
      'chat_history: line 2 names the role "system", which the text form has no place for; send items { role, content } instead',
    );
    const camel = await post(url, { prompt: 'x', chatHistory: ['nobody'] });
    expect(camel).toMatchObject({ status: 400, json: { error: { field: 'chatHistory[0]' } } });
  });

  it('continuation lines, known role spellings and blank lines stay accepted', async () => {
    const url = await start();
    for (const history of [
      'user: hi\nmore of it\n\nassistant: hello\nNote: a line of prose',
      ['caller: hi\nsecond line', 'bot: hello'],
      [
        { role: 'human', content: 'hi' },
        { role: 'ai', content: 'hello' },
      ],
      '',
    ])
      expect((await post(url, { prompt: 'x', chat_history: history })).status).toBe(200);
  });
});

describe('network policy', () => {
  it('denies private addresses by default; networkPolicy {} opts out', async () => {
    const upstream = await heldUpstream();
    upstream.release();
    cleanups.push(upstream.close);
    const endpointTools = await loadTools([
      {
        type: 'endpoint',
        tool: fn('lookup', {}),
        endpoint: { url: `${upstream.origin}/lookup`, method: 'get' },
      },
    ]);
    const denied = await start({ tools: endpointTools });
    const r = await post(denied, { prompt: 'call lookup' });
    expect(r.status).toBe(200);
    expect(JSON.stringify(r.json)).toContain('policy_denied');
    expect(upstream.requests).toHaveLength(0);
    await running?.close();

    const open = await start({ tools: endpointTools, networkPolicy: {} });
    const ok = await post(open, { prompt: 'call lookup' });
    expect(ok.json).toMatchObject({ traces: [{ tool: 'lookup', output: '{"ok":true}' }] });
    expect(upstream.requests).toHaveLength(1);
  });
});
