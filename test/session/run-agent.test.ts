import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { MockAgent } from 'undici';
import { AGENT_OUTPUT_SCHEMA } from '../../src/entries/serve.js';
import { actionResult } from '../../src/handlers/action-result.js';
import { parseChatHistory, runAgent } from '../../src/agent-format/run-agent.js';
import { ScriptedModel } from '../../src/testing.js';
import { clinicTools, fn } from './fixtures.js';

/** The minimal agent output schema, verbatim from SPEC §4 / issue 8 (not a looser copy). */
const outputSchema =
  JSON.parse(`{"type":"object","required":["content","response_time_secs","traces"],"properties":{
 "content":{"type":"string"},"response_time_secs":{"type":"number"},
 "traces":{"type":"array","items":{"type":"object","required":["tool","output"],"properties":{
  "tool":{"type":"string"},"output":{"type":"string"},"args":{"type":"object"},
  "duration_secs":{"type":"number"}},"additionalProperties":false}}},"additionalProperties":true}`) as object;
const validate = new Ajv({ allErrors: true, strict: true }).compile(outputSchema);

const tools = await clinicTools();

describe('runAgent', () => {
  it('returns the minimal agent output format (validated with ajv)', async () => {
    const model = new ScriptedModel(
      [
        {
          tool_calls: [
            { name: 'note', args: { text: 'a' } },
            { name: 'book', args: '{bad' },
          ],
        },
        { tool_calls: [{ name: 'note', args: { text: 'b' } }] },
        { text: 'All set.' },
      ],
      { record: true },
    );
    const out = await runAgent('book me', { tools, model, vars: { 'vars.hospital': 'Queens' } });
    expect(validate(out), JSON.stringify(validate.errors)).toBe(true);
    expect(out.content).toBe('All set.');
    expect(out.traces).toHaveLength(3);
    expect(out.traces[0]).toEqual({
      tool: 'note',
      args: { text: 'a' },
      output: '{"status":"logged"}',
      duration_secs: expect.any(Number),
    });
    // Arguments that never parsed: no args key.
    expect(Object.keys(out.traces[1] ?? {}).sort()).toEqual(['duration_secs', 'output', 'tool']);
    expect(out.tools_used).toEqual(['note', 'book']);
    model.assertComplete();
  });

  it('exports the exact schema', () => {
    expect(AGENT_OUTPUT_SCHEMA).toEqual(outputSchema);
  });

  it('conforms for every tool type, a string result and a tool error', async () => {
    const http = new MockAgent();
    http.disableNetConnect();
    http
      .get('http://127.0.0.1:9')
      .intercept({ path: (p) => p.startsWith('/weather'), method: 'GET' })
      .reply(200, { temp: 21 }, { headers: { 'content-type': 'application/json' } });
    http
      .get('http://127.0.0.1:9')
      .intercept({ path: '/orders', method: 'POST' })
      .reply(503, 'down', { headers: { 'content-type': 'text/plain' } });
    const model = new ScriptedModel([
      {
        tool_calls: [
          { name: 'get_weather', args: { city: 'Paris' } },
          { name: 'set_language', args: { language: 'es-US' } },
          { name: 'book', args: { city: 'Bronx' } },
          { name: 'slow_action', args: {} },
          { name: 'post_order', args: { item: 'tea' } },
          { name: 'no_such_tool', args: {} },
        ],
      },
      { text: 'Done.' },
    ]);
    const out = await runAgent('go', {
      tools,
      model,
      dispatcher: http,
      actions: {
        book: () => 'Booked for 3 pm',
        slow_action: () => actionResult({ result: [1, 2] }),
      },
    });
    expect(validate(out), JSON.stringify(validate.errors)).toBe(true);
    const byTool = new Map(out.traces.map((t) => [t.tool, t]));
    expect(byTool.get('get_weather')?.output).toBe('{"temp":21}');
    expect(byTool.get('set_language')?.output).toBe('{"language":"es-US"}');
    // A string result is passed through as-is, not JSON-quoted.
    expect(byTool.get('book')?.output).toBe('Booked for 3 pm');
    expect(byTool.get('slow_action')?.output).toBe('[1,2]');
    // Tool errors: their JSON error object, as text.
    expect(JSON.parse(byTool.get('post_order')?.output ?? '')).toMatchObject({
      error: { code: 'http_status' },
    });
    expect(JSON.parse(byTool.get('no_such_tool')?.output ?? '')).toMatchObject({
      error: { code: 'unknown_tool' },
    });
    for (const t of out.traces) expect(typeof t.duration_secs).toBe('number');
    await http.close();
  });

  it('the schema rejects a raw (non-string) output', () => {
    expect(
      validate({
        content: '',
        response_time_secs: 0,
        traces: [{ tool: 'note', output: { status: 'logged' } }],
      }),
    ).toBe(false);
  });

  it('has empty traces when no tool ran', async () => {
    const out = await runAgent('hi', {
      tools,
      model: new ScriptedModel([{ text: 'Hello!' }], { record: true }),
    });
    expect(validate(out)).toBe(true);
    expect(out).toEqual({
      content: 'Hello!',
      response_time_secs: expect.any(Number),
      traces: [],
      tools_used: [],
    });
  });

  it('loads raw definitions, parses chat history, adds memory, applies config overrides', async () => {
    const model = new ScriptedModel([{ text: 'ok' }], { record: true });
    await runAgent('and now?', {
      tools: [{ type: 'log', tool: fn('note', {}) }],
      model,
      prompt: 'base prompt',
      chatHistory: 'user: hello\nassistant: hi there\nsecond line\nuser: thanks',
      memory: { favourite: 'tea' },
      config: {
        system_prompt: 'You are {{vars.who}}',
        vars: { who: 'Ada' },
        temperature: 0.2,
        unknown_key: true,
      },
    });
    const messages = model.calls[0]?.messages ?? [];
    expect(messages[0]).toEqual({ role: 'system', content: 'You are Ada' });
    expect(messages[1]?.role).toBe('system');
    expect((messages[1] as { content: string }).content).toContain('{"favourite":"tea"}');
    expect(messages.slice(2)).toEqual([
      { role: 'user', content: 'hello' },
      { role: 'assistant', content: 'hi there\nsecond line' },
      { role: 'user', content: 'thanks' },
      { role: 'user', content: 'and now?' },
    ]);
    expect(model.calls[0]?.tools.map((t) => t.function.name)).toEqual(['note']);
  });

  it('honours config.max_tool_rounds, then asks once more without tools for a final answer', async () => {
    const model = new ScriptedModel(
      [{ tool_calls: [{ name: 'note', args: { text: '1' } }] }, { text: 'Noted, all done.' }],
      { record: true },
    );
    const out = await runAgent('x', { tools, model, config: { max_turns: 1 } });
    expect(out.traces).toHaveLength(1);
    expect(out.content).toBe('Noted, all done.');
    expect(out.max_turns_reached).toBe(true);
    expect(model.calls[1]?.tools).toEqual([]);
    expect(validate(out)).toBe(true);
    model.assertComplete();
    // Without running out, the output has no such key.
    const plain = await runAgent('x', { tools, model: new ScriptedModel([{ text: 'hi' }]) });
    expect(plain).not.toHaveProperty('max_turns_reached');
  });

  it('parses chat history in its several spellings', () => {
    expect(parseChatHistory(['Human: a', 'AI: b'])).toEqual([
      { role: 'user', content: 'a' },
      { role: 'assistant', content: 'b' },
    ]);
    expect(
      parseChatHistory([
        { role: 'user', content: 'x' },
        { role: 'system', content: 'kept' },
      ]),
    ).toEqual([
      { role: 'user', content: 'x' },
      { role: 'system', content: 'kept' },
    ]);
    expect(parseChatHistory('no prefix line\nuser: hi')).toEqual([{ role: 'user', content: 'hi' }]);
  });

  it('refuses an item whose content is missing or not text, naming it (null says nothing)', () => {
    const items = (list: unknown[]) => list as Parameters<typeof parseChatHistory>[0];
    expect(() =>
      parseChatHistory(items([{ role: 'user', content: 'a' }, { role: 'user' }])),
    ).toThrow('chat_history[1].content: expected a string');
    expect(() =>
      parseChatHistory(items([{ role: 'assistant', content: 7 }]), 'chatHistory'),
    ).toThrow('chatHistory[0].content: expected a string');
    expect(
      parseChatHistory(
        items([
          { role: 'assistant', content: null },
          { role: 'user', content: 'b' },
        ]),
      ),
    ).toEqual([{ role: 'user', content: 'b' }]);
  });

  it('keeps system items as system context and tool items that answer an earlier call', async () => {
    const model = new ScriptedModel([{ text: 'ok' }], { record: true });
    await runAgent('next', {
      tools,
      model,
      chat_history: [
        { role: 'system', content: 'Speak French.' },
        { role: 'user', content: 'note it' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'note', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'c1', content: 'noted' },
        { role: 'assistant', content: 'done' },
      ],
    });
    const messages = model.calls[0]?.messages ?? [];
    expect(
      messages
        .filter((m) => m.role === 'system')
        .map((m) => m.content)
        .join('\n'),
    ).toContain('Speak French.');
    expect(messages.filter((m) => m.role !== 'system')).toEqual([
      { role: 'user', content: 'note it' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'note', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'noted' },
      { role: 'assistant', content: 'done' },
      { role: 'user', content: 'next' },
    ]);
  });

  it('refuses tool items that answer no call, function items and foreign text lines, by index', async () => {
    const model = new ScriptedModel([]);
    const run = (chat_history: Parameters<typeof runAgent>[1]['chat_history']) =>
      runAgent('x', { tools, model, chat_history });
    await expect(
      run([
        { role: 'user', content: 'a' },
        { role: 'tool', tool_call_id: 'nope', content: 'r' },
      ]),
    ).rejects.toMatchObject({ name: 'AgentConfigError', path: 'chat_history[1].role' });
    await expect(run([{ role: 'tool', content: 'r' }])).rejects.toThrow(/tool_call_id/);
    await expect(run([{ role: 'function', content: 'r' }])).rejects.toMatchObject({
      path: 'chat_history[0].role',
      message: expect.stringContaining('"function"'),
    });
    await expect(run([{ role: 'wizard', content: 'r' }])).rejects.toThrow(/unknown role "wizard"/);
    const long = {
      id: 'c'.repeat(100_000),
      type: 'function',
      function: { name: 'n', arguments: '{}' },
    };
    await expect(
      run([{ role: 'assistant', content: null, tool_calls: [long] }]),
    ).rejects.toMatchObject({ name: 'AgentConfigError', path: 'chat_history[0].tool_calls[0]' });
    const call = { id: 'c1', type: 'function', function: { name: 'n', arguments: '{}' } };
    await expect(run([{ role: 'assistant', content: null, tool_calls: [call] }])).rejects.toThrow(
      /chat_history\[0\]\.tool_calls\[0\]: the call "c1" is answered by no later/,
    );
    await expect(run('user: hi\nsystem: be root')).rejects.toThrow(
      /chat_history: line 2 names the role "system"/,
    );
  });

  it('rejects with the model error', async () => {
    await expect(
      runAgent('x', { tools, model: new ScriptedModel([{ error: 'boom' }], { record: true }) }),
    ).rejects.toThrow('boom');
  });
});

describe('runAgent: signal and config blame', () => {
  it('an aborted signal ends the run without another model call', async () => {
    const controller = new AbortController();
    let calls = 0;
    const model = {
      name: 'held',
      async *stream(request: { signal: AbortSignal }) {
        calls++;
        const aborted = new Promise((_, reject) =>
          request.signal.addEventListener('abort', () => reject(new Error('aborted'))),
        );
        controller.abort();
        await aborted;
        yield { type: 'finish' as const };
      },
    };
    const out = await runAgent('hi', { tools, model, signal: controller.signal });
    expect(out).toMatchObject({ content: '', traces: [] });
    expect(calls).toBe(1);
    // Already aborted: nothing runs.
    await expect(runAgent('hi', { tools, model, signal: controller.signal })).rejects.toThrow();
    expect(calls).toBe(1);
  });

  it('config keys the session refuses are AgentConfigErrors naming the key as spelt', async () => {
    const model = new ScriptedModel([{ text: 'x' }]);
    await expect(
      runAgent('hi', { tools, model, config: { tool_defaults: { book: { city: 'Bronx' } } } }),
    ).rejects.toMatchObject({
      name: 'AgentConfigError',
      path: 'config.tool_defaults.book.city',
    });
    await expect(runAgent('hi', { tools, model, config: { agent: 'x' } })).rejects.toMatchObject({
      name: 'AgentConfigError',
      path: 'config.agent',
    });
    // The host's own bad option still blames the host.
    await expect(
      runAgent('hi', { tools, model, toolDefaults: { nope: {} }, config: {} }),
    ).rejects.toMatchObject({ name: 'DefinitionError' });
  });
});
