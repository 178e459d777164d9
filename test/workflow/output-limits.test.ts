/**
 * Issue 43, item 3: what a workflow renders or computes is capped (a typed tool error, nothing of
 * the call applied), objects in templates print as JSON, and no template ever throws out of a turn.
 */
import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { createSession } from '../../src/session/create-session.js';
import { ScriptedModel } from '../../src/testing.js';
import { freezeTimeSlice } from './expression-helpers.js';

freezeTimeSlice();

function container(task: unknown, name = 'flow'): Record<string, unknown> {
  return {
    type: 'context',
    context: { task },
    tool: { type: 'function', function: { name, parameters: { type: 'object', properties: {} } } },
  };
}

/** An expression task `render` whose tool returns `output` over inputs `l` (array) and `s`. */
async function renderTool(output: unknown) {
  return loadTools([
    container({
      type: 'expression',
      id: 'r',
      tool: { name: 'render' },
      inputs: [
        { name: 'l', type: 'array', required: false },
        { name: 's', type: 'string', required: false },
        { name: 'o', type: 'object', required: false },
      ],
      output,
    }),
  ]);
}

/** The 62 KB argument: 1,000 items and a 60 KB string (1,000 × 60 KB = 60 MB). */
const BIG = { l: Array.from({ length: 1000 }, () => 0), s: 'x'.repeat(60_000) };

describe('workflow output caps', () => {
  it('a mustache section in an expression task output is refused past 1 MiB', async () => {
    const tools = await renderTool('{{#inputs.l}}{{inputs.s}}{{/inputs.l}}');
    const model = new ScriptedModel(
      [{ tool_calls: [{ name: 'render', args: BIG }] }, { text: 'ok' }],
      { record: true },
    );
    const r = await createSession({ tools, model }).run('go');
    expect(r.traces[0]).toMatchObject({ isError: true, errorCode: 'result_too_large' });
    const sent = model.calls[1]!.messages.at(-1)!;
    expect(sent.role).toBe('tool');
    expect(String(sent.content).length).toBeLessThan(1000);
  });

  it('nested sections over model data are stopped by the step budget', async () => {
    const tools = await renderTool('{{#inputs.l}}{{#inputs.l}}{{/inputs.l}}{{/inputs.l}}');
    const l = Array.from({ length: 1000 }, () => 0);
    const model = new ScriptedModel(
      [{ tool_calls: [{ name: 'render', args: { l } }] }, { text: 'ok' }],
      { record: true },
    );
    const r = await createSession({ tools, model }).run('go');
    expect(r.traces[0]).toMatchObject({ isError: true, errorCode: 'expression_budget' });
  });

  it('a step say past 1 MiB refuses the submission whole: step, inputs and vars stay', async () => {
    const tools = await loadTools([
      container({
        type: 'steps',
        id: 'w',
        tool: { name: 'submit' },
        steps: [
          {
            id: 'A',
            goal: 'a',
            inputs: [
              { name: 'l', type: 'array' },
              { name: 's', type: 'string' },
            ],
            on: {
              submit: [
                { action: 'save' },
                { action: 'say', text: '{{#inputs.l}}{{inputs.s}}{{/inputs.l}}' },
              ],
            },
            next: ['B'],
          },
          { id: 'B', goal: 'b' },
        ],
      }),
    ]);
    const model = new ScriptedModel(
      [{ tool_calls: [{ name: 'submit', args: BIG }] }, { text: 'ok' }],
      { record: true },
    );
    const r = await createSession({ tools, model, vars: { s: 'host' } }).run('go');
    expect(r.traces[0]).toMatchObject({ isError: true, errorCode: 'result_too_large' });
    expect(r.state.workflows?.['w']).toMatchObject({ step: 'A', inputs: {} });
    expect(r.state.vars).toEqual({ s: 'host' });
    expect(r.events.some((e) => e.type === 'say')).toBe(false);
  });

  it('a CEL result over 1 MiB is refused (inputs.l.map(x, inputs.s))', async () => {
    const tools = await loadTools([
      container({
        type: 'expression',
        id: 'm',
        tool: { name: 'spread' },
        inputs: [
          { name: 'l', type: 'array' },
          { name: 's', type: 'string' },
        ],
        expression: { type: 'cel', expression: 'inputs.l.map(x, inputs.s)' },
      }),
    ]);
    // 20 × 60 KB: over the cap in 20 iterations, far from any step or time budget.
    const args = { l: BIG.l.slice(0, 20), s: BIG.s };
    const model = new ScriptedModel([{ tool_calls: [{ name: 'spread', args }] }, { text: 'ok' }], {
      record: true,
    });
    const r = await createSession({ tools, model }).run('go');
    expect(r.traces[0]).toMatchObject({ isError: true, errorCode: 'result_too_large' });
  });
});

describe('objects in templates print as JSON, never throw', () => {
  it('{{x}} and {{{x}}} of an object in an expression task output', async () => {
    const tools = await renderTool('a={{inputs.o}} b={{{inputs.o}}} c={{&inputs.l}}');
    const model = new ScriptedModel(
      [
        { tool_calls: [{ name: 'render', args: { o: { k: 'v', n: [1] }, l: [1, 2] } }] },
        { text: 'ok' },
      ],
      { record: true },
    );
    const r = await createSession({ tools, model }).run('go');
    expect(r.traces[0]).toMatchObject({
      isError: false,
      output: 'a={"k":"v","n":[1]} b={"k":"v","n":[1]} c=[1,2]',
    });
  });

  it("a list's prototype methods are not reachable: {{inputs.l.map}} prints nothing", async () => {
    // Array.prototype.map was found and called with the view as `this`: a TypeError out of the call.
    const tools = await renderTool(
      '[{{inputs.l.map}}{{inputs.l.constructor}}] {{inputs.l.length}}',
    );
    const model = new ScriptedModel([
      { tool_calls: [{ name: 'render', args: { l: [1, 2] } }] },
      { text: 'ok' },
    ]);
    const r = await createSession({ tools, model }).run('go');
    expect(r.traces[0]).toMatchObject({ isError: false, output: '[] 2' });
  });

  it('an object in step instructions renders as JSON on every turn', async () => {
    const tools = await loadTools([
      container({
        type: 'steps',
        id: 'p',
        tool: { name: 'submit' },
        steps: [{ id: 'A', goal: 'a', instructions: ['Caller: {{vars.profile}}'] }],
      }),
    ]);
    const model = new ScriptedModel([{ text: 'one' }, { text: 'two' }], { record: true });
    const session = createSession({ tools, model, vars: { 'vars.profile': { name: 'Ada' } } });
    await session.run('hi');
    await session.run('again');
    const context = model.calls[1]!.messages.filter((m) => m.role === 'system').at(-1);
    expect(String(context?.content)).toContain('- Caller: {"name":"Ada"}');
  });

  it('an instruction past the cap is replaced by a note; turns go on', async () => {
    const tools = await loadTools([
      container({
        type: 'steps',
        id: 'p',
        tool: { name: 'submit' },
        steps: [
          {
            id: 'A',
            goal: 'a',
            instructions: ['Always.', '{{#vars.l}}{{vars.s}}{{/vars.l}}'],
          },
        ],
      }),
    ]);
    const model = new ScriptedModel([{ text: 'one' }, { text: 'two' }], { record: true });
    const session = createSession({
      tools,
      model,
      vars: { 'vars.l': BIG.l, 'vars.s': BIG.s },
    });
    await session.run('hi');
    const r = await session.run('again');
    expect(r.content).toBe('two');
    const context = String(
      model.calls[1]!.messages.filter((m) => m.role === 'system').at(-1)?.content,
    );
    expect(context).toContain('- Always.');
    expect(context).toMatch(
      /- \(an instruction is not shown: the text rendered by .* exceeds 1048576 bytes/,
    );
    expect(context.length).toBeLessThan(2000);
  });

  it('an activation over the cap leaves the task not started and reports a tool-error', async () => {
    const tools = await loadTools([
      container({
        type: 'event',
        id: 'greet',
        on: {
          start: [
            { action: 'set', name: 'greeted', value: true },
            { action: 'say', text: '{{#vars.l}}{{vars.s}}{{/vars.l}}' },
          ],
        },
      }),
    ]);
    const model = new ScriptedModel([{ text: 'one' }], { record: true });
    const r = await createSession({
      tools,
      model,
      vars: { 'vars.l': BIG.l, 'vars.s': BIG.s },
    }).run('hi');
    expect(r.content).toBe('one');
    expect(r.events.filter((e) => e.type === 'tool-error')).toMatchObject([
      { tool: 'flow', code: 'result_too_large' },
    ]);
    expect(r.events.some((e) => e.type === 'say')).toBe(false);
    expect(r.state.vars).not.toHaveProperty('greeted');
    expect(r.state.workflows ?? {}).not.toHaveProperty('greet');
  });
});
