// A Symphony agent on the session engine: the system prompt it sees, its llm, its limits and
// failures, and the host set-up createSymphony refuses.
import { describe, expect, it, vi } from 'vitest';
import { createSymphony, loadSymphony, systemPromptOf } from '../../src/entries/symphony.js';
import { ScriptedModel } from '../../src/testing.js';

const lookup = {
  name: 'lookup',
  description: 'Look a thing up',
  type: 'search',
  config: {
    inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
  },
};

async function one(agent: Record<string, unknown>, tools: unknown[] = [lookup]) {
  return loadSymphony({ source: { tools, agents: [agent] } });
}

describe('Symphony agents', () => {
  it('the model sees systemPrompt, description, task and directives, verbatim, as its system prompt', async () => {
    const config = await one({
      name: 'writer',
      systemPrompt: 'You write {{short}} notes.',
      description: 'Writes release notes',
      task: 'Summarise the changes',
      directives: ['Use bullet points', 'No more than five'],
      llm: { model: 'gpt-4o' },
      tools: [],
    });
    const model = new ScriptedModel([{ text: '- fixed' }], { record: true });
    const r = await createSymphony({ config, model }).runAgent({ agent: 'writer', task: 'v1.2' });
    expect(r.success).toBe(true);
    const call = model.calls[0];
    expect(call?.messages[0]).toEqual({
      role: 'system',
      content:
        'You write {{short}} notes.\n\nAbout you: Writes release notes\n\nYour task: Summarise the changes\n\nDirectives:\n- Use bullet points\n- No more than five',
    });
    expect(call?.messages[1]).toEqual({ role: 'user', content: 'v1.2' });
    expect(call?.modelId).toBe('gpt-4o');
    expect(call?.tools).toEqual([]);
  });

  it("without systemPrompt the prompt starts with the agent's name; the run defaults to its task", async () => {
    const config = await one({ name: 'helper', task: 'Say hello', tools: ['lookup'] });
    expect(systemPromptOf(config.agents.get('helper')!)).toBe(
      'You are helper.\n\nYour task: Say hello',
    );
    const model = new ScriptedModel([{ text: 'Hello' }], { record: true });
    const r = await createSymphony({ config, model, actions: { lookup: () => 'x' } }).runAgent({
      agent: 'helper',
    });
    expect(model.calls[0]?.messages[1]).toEqual({ role: 'user', content: 'Say hello' });
    expect(model.calls[0]?.tools.map((t) => t.function.name)).toEqual(['lookup']);
    expect(r.metrics.llmUsage.model).toBe('scripted');
  });

  it("a model factory gets each agent's llm settings, once per agent", async () => {
    const config = await one({
      name: 'a',
      llm: { model: 'm1', temperature: 0.2, maxTokens: 300, provider: 'openai' },
    });
    const factory = vi.fn(() => new ScriptedModel([{ text: '1' }, { text: '2' }]));
    const s = createSymphony({ config, model: factory });
    await s.runAgent({ agent: 'a', task: 'x' });
    await s.runAgent({ agent: 'a', task: 'y' });
    expect(factory).toHaveBeenCalledTimes(1);
    expect(factory).toHaveBeenCalledWith({
      agent: 'a',
      llm: { model: 'm1', temperature: 0.2, maxTokens: 300, provider: 'openai' },
    });
  });

  it('llm settings with one shared model are a warning naming them', async () => {
    const config = await one({ name: 'a', llm: { model: 'm1', temperature: 0.2 } });
    const warnings: string[] = [];
    createSymphony({
      config,
      model: new ScriptedModel([]),
      onWarning: (w) => warnings.push(`${w.path}: ${w.message}`),
    });
    expect(warnings).toEqual([
      'agents.a.llm: temperature need a model factory (model: ({ agent, llm }) => Model); one model is shared, so they are not applied',
    ]);
  });

  it('maxCalls ends the loop; with no final answer the result fails with max_calls', async () => {
    const config = await one({ name: 'a', tools: ['lookup'], maxCalls: 2 });
    const call = { tool_calls: [{ name: 'lookup', args: { q: 'x' } }] };
    const model = new ScriptedModel([call, call]);
    const r = await createSymphony({ config, model, actions: { lookup: () => 'found' } }).runAgent({
      agent: 'a',
      task: 't',
    });
    expect(r).toMatchObject({ success: false, errorCode: 'max_calls', metrics: { toolCalls: 2 } });
    expect(model.callCount).toBe(2);
  });

  it("a tool's maxCalls is per run: the call past it is not run, and the model is told", async () => {
    const config = await one({ name: 'a', tools: ['lookup'] }, [{ ...lookup, maxCalls: 1 }]);
    const call = { tool_calls: [{ name: 'lookup', args: { q: 'x' } }] };
    const handler = vi.fn(() => 'found');
    const s = createSymphony({
      config,
      model: new ScriptedModel([call, call, { text: 'ok' }, call, { text: 'again' }]),
      actions: { lookup: handler },
    });
    const r = await s.runAgent({ agent: 'a', task: 't' });
    expect(r.result.toolsExecuted.map((t) => t.success)).toEqual([true, false]);
    expect(r.result.toolsExecuted[1]?.error).toMatch(
      /lookup may be called at most 1 time\(s\) per run/,
    );
    expect(handler).toHaveBeenCalledTimes(1);
    // A new run counts afresh.
    expect((await s.runAgent({ agent: 'a', task: 't' })).result.toolsExecuted[0]?.success).toBe(
      true,
    );
  });

  it('a model failure is a failed result (model_error), not a throw', async () => {
    const config = await one({ name: 'a' });
    const r = await createSymphony({
      config,
      model: new ScriptedModel([{ error: 'upstream down' }]),
    }).runAgent({ agent: 'a', task: 't' });
    expect(r).toMatchObject({ success: false, errorCode: 'model_error', result: { response: '' } });
    expect(r.error).toMatch(/upstream down/);
  });

  it('a model failure keeps the tokens of the model calls before it', async () => {
    const config = await one({ name: 'a', tools: ['lookup'] });
    const model = new ScriptedModel([
      {
        tool_calls: [{ name: 'lookup', args: { q: 'x' } }],
        usage: { inputTokens: 120, outputTokens: 8 },
      },
      {
        tool_calls: [{ name: 'lookup', args: { q: 'y' } }],
        usage: { inputTokens: 150, outputTokens: 9 },
      },
      { error: 'upstream down' },
    ]);
    const r = await createSymphony({ config, model, actions: { lookup: () => 'found' } }).runAgent({
      agent: 'a',
      task: 't',
    });
    expect(r).toMatchObject({ success: false, errorCode: 'model_error' });
    expect(r.metrics.toolCalls).toBe(2);
    expect(r.metrics.llmUsage).toEqual({
      promptTokens: 270,
      completionTokens: 17,
      totalTokens: 287,
      model: 'scripted',
    });
  });

  it('the agent timeout is the turn deadline: a timeout result', async () => {
    vi.useFakeTimers();
    try {
      const config = await one({ name: 'a', timeout: 1000 });
      const run = createSymphony({
        config,
        model: new ScriptedModel([{ text: 'late', delayMs: 5000 }]),
      }).runAgent({ agent: 'a', task: 't' });
      await vi.advanceTimersByTimeAsync(1000);
      expect(await run).toMatchObject({ success: false, errorCode: 'timeout' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('aborting the signal ends the run with a cancelled result, before or during it', async () => {
    const config = await one({ name: 'a' });
    const s = createSymphony({
      config,
      model: new ScriptedModel([{ text: 'slow', delayMs: 60_000 }]),
    });
    const before = new AbortController();
    before.abort();
    expect(await s.runAgent({ agent: 'a', task: 't', signal: before.signal })).toMatchObject({
      success: false,
      errorCode: 'cancelled',
    });
    const during = new AbortController();
    const run = s.runAgent({ agent: 'a', task: 't', signal: during.signal });
    setImmediate(() => during.abort());
    expect(await run).toMatchObject({ success: false, errorCode: 'cancelled' });
  });

  it('a handler given as a function in an object config runs', async () => {
    const config = await one({ name: 'a', tools: ['lookup'] }, [
      { ...lookup, handler: () => ({ success: true, result: 42 }) },
    ]);
    const model = new ScriptedModel([
      { tool_calls: [{ name: 'lookup', args: { q: 'x' } }] },
      { text: 'done' },
    ]);
    const r = await createSymphony({ config, model }).runAgent({ agent: 'a', task: 't' });
    expect(r.result.toolsExecuted[0]).toMatchObject({ name: 'lookup', success: true, result: 42 });
  });

  it('host mistakes throw at createSymphony, naming the tool or action', async () => {
    const config = await one({ name: 'a', tools: ['lookup'] });
    const model = new ScriptedModel([]);
    expect(() => createSymphony({ config, model })).toThrow(
      'tool lookup needs the host action "lookup" (actions: none)',
    );
    expect(() =>
      createSymphony({ config, model, actions: { lookup: () => 1, lokup: () => 2 } }),
    ).toThrow('actions.lokup is the handler of no tool (tools: lookup)');
    await expect(
      createSymphony({ config, model, actions: { lookup: () => 1 } }).runAgent({ agent: 'b' }),
    ).rejects.toThrow('no agent named "b" (agents: a)');
  });
});
