// runAgent's config and input edges that seeded faults showed untested: limits at their bound,
// a prototype name for an agent, merge order of variables, which history spelling wins, blank
// memory, the id and name caps of history tool calls, and a tool result with no JSON form.
import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/index.js';
import { AgentConfigError, runAgent } from '../../src/entries/serve.js';
import { outputText } from '../../src/agent-format/agent-output.js';
import { ScriptedModel } from '../../src/testing.js';
import { fn } from './fixtures.js';

const tools = await loadTools([{ type: 'log', tool: fn('note', {}) }]);
const run = (config: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  runAgent('x', { tools, model: new ScriptedModel([{ text: 'ok' }]), config, ...extra });

describe('runAgent config limits', () => {
  it('refuses a zero timeout and zero rounds or calls, naming the key', async () => {
    await expect(run({ domain_timeout_secs: 0 })).rejects.toThrow(
      'config.domain_timeout_secs: expected a positive number',
    );
    for (const key of ['max_turns', 'max_tool_rounds', 'maxCalls'])
      await expect(run({ [key]: 0 })).rejects.toThrow(`config.${key}: must be at least 1`);
  });

  it("a timeout past what a timer holds is the caller's config error, not the host's", async () => {
    await expect(run({ domain_timeout_secs: 1e12 })).rejects.toMatchObject({
      name: 'AgentConfigError',
      path: expect.stringMatching(/^config\.domain_timeout_secs/),
    });
  });

  it('an agent named like an Object.prototype key names no agent', async () => {
    const error = await run({ agent: 'toString' }, { agents: { main: { prompt: 'p' } } }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AgentConfigError);
    expect(error).toMatchObject({ path: 'config.agent' });
  });

  it('vars: options below context_variables below config.vars', async () => {
    const model = new ScriptedModel([{ text: 'ok' }], { record: true });
    await runAgent('x', {
      tools,
      model,
      prompt: '{{vars.a}} {{vars.b}} {{vars.c}}',
      vars: { a: 'opt-a', b: 'opt-b', c: 'opt-c' },
      config: { context_variables: { b: 'ctx-b', c: 'ctx-c' }, vars: { c: 'cfg-c' } },
    });
    expect(model.calls[0]?.messages[0]).toEqual({ role: 'system', content: 'opt-a ctx-b cfg-c' });
  });
});

describe('runAgent history and memory', () => {
  // Before, runAgent took chatHistory and serve took chat_history: both given is refused.
  it('chatHistory and chat_history together are refused, naming both', async () => {
    const model = new ScriptedModel([{ text: 'ok' }], { record: true });
    await expect(
      runAgent('now', {
        tools,
        model,
        chatHistory: ['user: camel'],
        chat_history: ['user: snake'],
      }),
    ).rejects.toThrow(/^chat_history: given as both chatHistory and chat_history; give one$/);
    expect(model.calls).toEqual([]);
    await runAgent('now', { tools, model, chat_history: ['user: snake'] });
    expect(model.calls[0]?.messages[0]).toEqual({ role: 'user', content: 'snake' });
  });

  it('a blank memory adds no system message', async () => {
    const model = new ScriptedModel([{ text: 'ok' }], { record: true });
    await runAgent('now', { tools, model, memory: '  \n ' });
    expect(model.calls[0]?.messages).toEqual([{ role: 'user', content: 'now' }]);
  });

  it('refuses a history tool call whose function name is over 512 characters', async () => {
    const call = {
      id: 'c1',
      type: 'function',
      function: { name: 'n'.repeat(513), arguments: '{}' },
    };
    await expect(
      runAgent('now', {
        tools,
        model: new ScriptedModel([{ text: 'ok' }]),
        chat_history: [
          { role: 'assistant', content: null, tool_calls: [call] },
          { role: 'tool', tool_call_id: 'c1', content: '{}' },
        ],
      }),
    ).rejects.toMatchObject({
      name: 'AgentConfigError',
      path: 'chat_history[0].tool_calls[0]',
    });
  });
});

describe('runAgent refusals and the active agent', () => {
  it('a list mixing lines and items is refused at the odd item, not glued as [object Object]', async () => {
    const error = await runAgent('now', {
      tools,
      model: new ScriptedModel([{ text: 'ok' }]),
      chat_history: ['user: hi', { role: 'assistant', content: 'yes' }] as never,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentConfigError);
    expect(error).toMatchObject({ path: 'chat_history[1]' });
  });

  it('only_domains naming no agent of the session is refused', async () => {
    await expect(
      run({ only_domains: ['zzz'] }, { agents: { main: { prompt: 'p' } } }),
    ).rejects.toThrow('config.only_domains: names no agent of this session (agents: main)');
  });

  it('an empty tool_root is refused, not read as the working folder', async () => {
    await expect(
      runAgent('x', {
        tools: 'tools.json',
        model: new ScriptedModel([]),
        config: { tool_root: '' },
      }),
    ).rejects.toThrow('config.tool_root: expected a folder path');
  });

  it('only_domains keeps the active agent when it is among the named ones', async () => {
    const model = new ScriptedModel([{ text: 'ok' }], { record: true });
    await runAgent('x', {
      tools,
      model,
      agents: { main: { prompt: 'main' }, billing: { prompt: 'bill' }, support: { prompt: 'sup' } },
      agent: 'support',
      config: { only_domains: ['billing', 'support'] },
    });
    expect(model.calls[0]?.messages[0]).toEqual({ role: 'system', content: 'sup' });
  });

  it('history system items join the system context after the prompt and before memory', async () => {
    const model = new ScriptedModel([{ text: 'ok' }], { record: true });
    await runAgent('now', {
      tools,
      model,
      prompt: 'PROMPT-1',
      memory: 'MEMORY-3',
      chat_history: [
        { role: 'system', content: 'HISTORY-2' },
        { role: 'user', content: 'u' },
      ],
    });
    const system = (model.calls[0]?.messages ?? [])
      .filter((m) => m.role === 'system')
      .map((m) => m.content)
      .join('\n');
    const at = ['PROMPT-1', 'HISTORY-2', 'MEMORY-3'].map((marker) => system.indexOf(marker));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });
});

describe('trace output text', () => {
  it('an undefined result is the text null, as the model read it', () => {
    expect(outputText(undefined)).toBe('null');
  });
});
