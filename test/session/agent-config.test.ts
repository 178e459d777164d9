// The seed format's `config` keys change what a run does; config wins over options.
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/index.js';
import { AgentConfigError, runAgent } from '../../src/entries/serve.js';
import { ScriptedModel } from '../../src/testing.js';
import { fn } from './fixtures.js';

const tools = await loadTools([
  { type: 'log', tool: fn('note', {}) },
  { type: 'log', tool: fn('other', {}) },
  { type: 'action', tool: fn('hold', {}) },
]);
const names = (m: ScriptedModel, i = 0): string[] =>
  m.calls[i]?.tools.map((t) => t.function.name) ?? [];

describe('runAgent config', () => {
  it('model_overrides: the model id of every call (domain first; router without domain)', async () => {
    const a = new ScriptedModel([{ text: 'ok' }], { record: true });
    await runAgent('x', {
      tools,
      model: a,
      config: { model_overrides: { router: 'r-1', domain: 'd-1', synth: 's-1' } },
    });
    expect(a.calls[0]?.modelId).toBe('d-1');
    const b = new ScriptedModel([{ text: 'ok' }], { record: true });
    await runAgent('x', { tools, model: b, config: { model_overrides: { router: 'r-1' } } });
    expect(b.calls[0]?.modelId).toBe('r-1');
    const c = new ScriptedModel([{ text: 'ok' }], { record: true });
    await runAgent('x', { tools, model: c });
    expect(c.calls[0]?.modelId).toBeUndefined();
    // With agents, agent turns use `domain` only.
    const d = new ScriptedModel([{ text: 'ok' }], { record: true });
    await runAgent('x', {
      tools,
      model: d,
      agents: { main: { prompt: 'p' } },
      config: { model_overrides: { router: 'r-1' } },
    });
    expect(d.calls[0]?.modelId).toBeUndefined();
  });

  it('domain_timeout_secs caps every tool call deadline', async () => {
    const model = new ScriptedModel([{ tool_calls: [{ name: 'hold', args: {} }] }, { text: '.' }], {
      record: true,
    });
    // The action never settles: the `timeout` result below is the cap's doing.
    const out = await runAgent('x', {
      tools,
      model,
      actions: { hold: () => new Promise(() => undefined) },
      config: { domain_timeout_secs: 0.05 },
    });
    expect(JSON.parse(out.traces[0]?.output ?? '')).toEqual({
      error: { code: 'timeout', message: 'hold did not finish within 50 ms' },
    });
  });

  it('only_domains restricts the tools (no agents) or the agents', async () => {
    const a = new ScriptedModel([{ text: 'ok' }], { record: true });
    await runAgent('x', { tools, model: a, config: { only_domains: ['other', 'nope'] } });
    expect(names(a)).toEqual(['other']);

    const b = new ScriptedModel([{ text: 'ok' }], { record: true });
    await runAgent('x', {
      tools,
      model: b,
      agents: {
        main: { prompt: 'main', tools: ['note'] },
        billing: { prompt: 'bill', tools: ['hold'] },
      },
      config: { only_domains: ['billing'] },
    });
    expect(b.calls[0]?.messages[0]).toEqual({ role: 'system', content: 'bill' });
    expect(names(b)).toEqual(['hold']);

    await expect(
      runAgent('x', {
        tools,
        model: new ScriptedModel([], { record: true }),
        config: { only_domains: ['zzz'] },
      }),
    ).rejects.toThrow('config.only_domains: names no tool of this run');
  });

  it('execution_mode is accepted and ignored; unknown keys too; config wins over options', async () => {
    const model = new ScriptedModel([{ text: 'ok' }], { record: true });
    await runAgent('x', {
      tools,
      model,
      prompt: 'from options',
      config: { execution_mode: 'parallel', whatever: 1, prompt: 'from config' },
    });
    expect(model.calls[0]?.messages[0]).toEqual({ role: 'system', content: 'from config' });
  });

  it('chat_history is accepted in snake_case', async () => {
    const model = new ScriptedModel([{ text: 'ok' }], { record: true });
    await runAgent('now', { tools, model, chat_history: ['user: before', 'assistant: yes'] });
    expect(model.calls[0]?.messages).toEqual([
      { role: 'user', content: 'before' },
      { role: 'assistant', content: 'yes' },
      { role: 'user', content: 'now' },
    ]);
  });

  it('a known key of the wrong type is an error naming it', async () => {
    const run = (config: Record<string, unknown>) =>
      runAgent('x', { tools, model: new ScriptedModel([], { record: true }), config });
    await expect(run({ domain_timeout_secs: 'soon' })).rejects.toThrow(AgentConfigError);
    await expect(run({ domain_timeout_secs: -1 })).rejects.toThrow(
      'config.domain_timeout_secs: expected a positive number',
    );
    await expect(run({ model_overrides: { domain: 5 } })).rejects.toThrow(
      'config.model_overrides.domain',
    );
    await expect(run({ only_domains: ['a', 2] })).rejects.toThrow('config.only_domains[1]');
  });

  it('Swarm run arguments: context_variables, max_turns, model_override', async () => {
    const loop = { tool_calls: [{ name: 'note', args: {} }] };
    const model = new ScriptedModel([loop, loop, { text: 'final' }], { record: true });
    const out = await runAgent('x', {
      tools,
      model,
      prompt: 'for {{vars.user}}',
      config: { context_variables: { user: 'Ada' }, max_turns: 2, model_override: 'm-2' },
    });
    // Two tool rounds, then one tool-less call for the final answer (Swarm returns the last message).
    expect(model.calls).toHaveLength(3);
    expect(model.calls[2]?.tools).toEqual([]);
    expect(out).toMatchObject({ content: 'final', max_turns_reached: true });
    expect(model.calls[0]?.messages[0]).toEqual({ role: 'system', content: 'for Ada' });
    expect(model.calls[0]?.modelId).toBe('m-2');
    expect(out.traces).toHaveLength(2);
  });
});

describe('config.tool_root', () => {
  const root = mkdtempSync(join(tmpdir(), 'sb-tool-root-'));
  const outside = mkdtempSync(join(tmpdir(), 'sb-outside-'));
  mkdirSync(join(root, 'bot'));
  writeFileSync(
    join(root, 'bot', 'tools.json'),
    JSON.stringify([{ type: 'log', tool: fn('inner', {}) }]),
  );
  writeFileSync(
    join(outside, 'tools.json'),
    JSON.stringify([{ type: 'log', tool: fn('secret', {}) }]),
  );
  symlinkSync(join(outside, 'tools.json'), join(root, 'link.json'));

  it('reads a relative tools path from the root', async () => {
    const model = new ScriptedModel([{ text: 'ok' }], { record: true });
    await runAgent('x', { tools: 'bot/tools.json', model, config: { tool_root: root } });
    expect(names(model)).toEqual(['inner']);
  });

  it('refuses paths leading out of it (.., absolute, symbolic link) and loaded tools', async () => {
    const model = new ScriptedModel([]);
    for (const path of [
      '../' + basename(outside) + '/tools.json',
      join(outside, 'tools.json'),
      'link.json',
    ])
      await expect(
        runAgent('x', { tools: path, model, config: { tool_root: root } }),
      ).rejects.toMatchObject({ name: 'AgentConfigError', path: 'config.tool_root' });
    await expect(runAgent('x', { tools, model, config: { tool_root: root } })).rejects.toThrow(
      /config\.tool_root: this run's tools are already loaded/,
    );
  });
});
