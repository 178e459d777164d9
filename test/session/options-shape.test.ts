/**
 * From JavaScript nothing types the options: a session without tools or model, or given a
 * tools file's path, is refused at createSession naming the option (it crashed with
 * "Cannot read properties of undefined", or was created without a model and failed at send).
 */
import { describe, expect, it } from 'vitest';
import { AgentConfigError } from '../../src/agent-format/agent-config.js';
import { runAgent } from '../../src/agent-format/run-agent.js';
import { loadTools } from '../../src/definition/load.js';
import { createSession } from '../../src/session/create-session.js';
import type { SessionOptions } from '../../src/session/types.js';
import { ScriptedModel } from '../../src/testing.js';

const untyped = (options: Record<string, unknown>): SessionOptions =>
  options as unknown as SessionOptions;

describe('createSession names a missing or mistaken tools or model', () => {
  it('refuses each, with the fix', async () => {
    const tools = await loadTools('fixtures/tools/telephony.json');
    const model = new ScriptedModel([{ text: 'hi' }]);
    expect(() => createSession(untyped({ tools }))).toThrow(
      'model: is required: a Model such as openaiModel({ model }) or a ScriptedModel',
    );
    expect(() => createSession(untyped({ model }))).toThrow(
      'tools: is required: a ToolSet from await loadTools(…)',
    );
    expect(() => createSession(untyped({ tools: 'fixtures/tools/telephony.json', model }))).toThrow(
      'tools: expected a ToolSet, got the path "fixtures/tools/telephony.json": load it first with await loadTools("fixtures/tools/telephony.json")',
    );
    expect(() => createSession(untyped({ tools, model: { name: 'm' } }))).toThrow(
      'model: expected a Model (e.g. openaiModel({ model })): it has no stream() method',
    );
    expect(() => createSession({ tools, model })).not.toThrow();
  });

  it('refuses a prompt template that would fail at the first send', async () => {
    const tools = await loadTools('fixtures/tools/telephony.json');
    const model = new ScriptedModel([{ text: 'hi' }]);
    expect(() => createSession({ tools, model, prompt: 'Hi {{vars.name}' })).toThrow(
      'prompt: is not a valid mustache template: Unclosed tag at 15',
    );
    expect(() =>
      createSession({
        tools,
        model,
        agents: { desk: { prompt: 'Hi {{#vars.x}}' } },
        agent: 'desk',
      }),
    ).toThrow(/agents\.desk\.prompt: is not a valid mustache template: Unclosed section/);
  });

  it("runAgent blames the run's config for a broken config.system_prompt", async () => {
    const tools = await loadTools('fixtures/tools/telephony.json');
    const run = runAgent('x', {
      tools,
      model: new ScriptedModel([{ text: 'a' }]),
      config: { system_prompt: 'Hi {{x' },
    });
    await expect(run).rejects.toThrow(AgentConfigError);
    await expect(run).rejects.toThrow(
      'config.system_prompt: is not a valid mustache template: Unclosed tag at 6',
    );
  });
});
