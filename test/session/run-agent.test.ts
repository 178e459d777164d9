import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parseChatHistory, runAgent } from '../../src/session/run-agent.js';
import { ScriptedModel } from '../../src/testing.js';
import { clinicTools, fn } from './fixtures.js';

/** The minimal agent output format. */
const outputSchema = {
  type: 'object',
  required: ['content', 'response_time_secs', 'traces'],
  properties: {
    content: { type: 'string' },
    response_time_secs: { type: 'number', minimum: 0 },
    traces: {
      type: 'array',
      items: {
        type: 'object',
        required: ['tool', 'output', 'duration_secs'],
        properties: {
          tool: { type: 'string' },
          args: { type: 'object' },
          output: {},
          duration_secs: { type: 'number', minimum: 0 },
        },
        additionalProperties: false,
      },
    },
  },
};
const validate = new Ajv({ allErrors: true, strict: true }).compile(outputSchema);

const tools = await clinicTools();

describe('runAgent', () => {
  it('returns the minimal agent output format (validated with ajv)', async () => {
    const model = new ScriptedModel([
      {
        tool_calls: [
          { name: 'note', args: { text: 'a' } },
          { name: 'book', args: '{bad' },
        ],
      },
      { tool_calls: [{ name: 'note', args: { text: 'b' } }] },
      { text: 'All set.' },
    ]);
    const out = await runAgent('book me', { tools, model, vars: { 'vars.hospital': 'Queens' } });
    expect(validate(out), JSON.stringify(validate.errors)).toBe(true);
    expect(out.content).toBe('All set.');
    expect(out.traces).toHaveLength(3);
    expect(out.traces[0]).toEqual({
      tool: 'note',
      args: { text: 'a' },
      output: { status: 'logged' },
      duration_secs: expect.any(Number),
    });
    // Arguments that never parsed: no args key.
    expect(Object.keys(out.traces[1] ?? {}).sort()).toEqual(['duration_secs', 'output', 'tool']);
    expect(out.tools_used).toEqual(['note', 'book']);
    model.assertComplete();
  });

  it('has empty traces when no tool ran', async () => {
    const out = await runAgent('hi', { tools, model: new ScriptedModel([{ text: 'Hello!' }]) });
    expect(validate(out)).toBe(true);
    expect(out).toEqual({
      content: 'Hello!',
      response_time_secs: expect.any(Number),
      traces: [],
      tools_used: [],
    });
  });

  it('loads raw definitions, parses chat history, adds memory, applies config overrides', async () => {
    const model = new ScriptedModel([{ text: 'ok' }]);
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

  it('honours config.max_tool_rounds', async () => {
    const model = new ScriptedModel([{ tool_calls: [{ name: 'note', args: { text: '1' } }] }]);
    const out = await runAgent('x', { tools, model, config: { max_tool_rounds: 1 } });
    expect(out.traces).toHaveLength(1);
    model.assertComplete();
  });

  it('parses chat history in its several spellings', () => {
    expect(parseChatHistory(['Human: a', 'AI: b'])).toEqual([
      { role: 'user', content: 'a' },
      { role: 'assistant', content: 'b' },
    ]);
    expect(
      parseChatHistory([
        { role: 'user', content: 'x' },
        { role: 'system', content: 'dropped' },
      ]),
    ).toEqual([{ role: 'user', content: 'x' }]);
    expect(parseChatHistory('no prefix line\nuser: hi')).toEqual([{ role: 'user', content: 'hi' }]);
  });

  it('rejects with the model error', async () => {
    await expect(
      runAgent('x', { tools, model: new ScriptedModel([{ error: 'boom' }]) }),
    ).rejects.toThrow('boom');
  });
});
