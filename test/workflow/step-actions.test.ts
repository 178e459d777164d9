/**
 * Workflow actions, what expressions and templates read, what the model is shown and the REPL's
 * description (docs/workflows.md, "Actions", "State", "What the model sees"): cases each written
 * against a fault seeded into src/session/workflow/ that no other test caught (docs/reliability.md,
 * "Faults seeded into the engine that no test caught").
 */
import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { createSession } from '../../src/session/create-session.js';
import { describeWorkflows } from '../../src/session/workflow/describe.js';
import { ScriptedModel } from '../../src/testing.js';
import { container, rating, turn } from './step-helpers.js';

describe('actions', () => {
  it('inc adds by (default 1); a missing or non-numeric value counts as 0', async () => {
    const { r } = await turn(
      {
        type: 'steps',
        id: 'count',
        variables: [{ name: 'word', value: 'many' }],
        steps: [
          {
            id: 'A',
            goal: 'a',
            on: {
              enter: [
                { action: 'inc', name: 'local.missing' },
                { action: 'inc', name: 'local.word', by: 5 },
                { action: 'set', name: 'local.n', value: 10 },
                { action: 'inc', name: 'local.n', by: -3 },
                { action: 'inc', name: 'visits', by: 2 },
                // Reads this run's own write: 3, not 1.
                { action: 'inc', name: 'visits' },
              ],
            },
          },
        ],
      },
      [],
    );
    expect(r.state.workflows?.['count']?.local).toEqual({ word: 5, missing: 1, n: 7 });
    expect(r.state.vars).toEqual({ visits: 3 });
  });
  it('set writes null when its valueFrom yields nothing', async () => {
    const { r } = await turn(
      {
        type: 'steps',
        id: 'nothing',
        variables: [{ name: 'x', value: 'old' }],
        steps: [
          {
            id: 'A',
            goal: 'a',
            on: {
              enter: [
                {
                  action: 'set',
                  name: 'local.x',
                  valueFrom: { type: 'cel', expression: 'local.no_such_key' },
                },
              ],
            },
          },
        ],
      },
      [],
    );
    expect(r.state.workflows?.['nothing']?.local).toEqual({ x: null });
  });
  it('get leaves an input empty when its valueFrom yields null, so the default still fills it', async () => {
    const { r } = await turn(
      {
        type: 'steps',
        id: 'zip',
        tool: { name: 'submit_zip' },
        steps: [
          {
            id: 'A',
            goal: 'a',
            inputs: [{ name: 'zip', type: 'string', default: '00000' }],
            on: {
              presubmit: [{ action: 'get', valueFrom: 'no.such.path' }],
              submit: [{ action: 'save' }],
            },
          },
        ],
      },
      [{ name: 'submit_zip', args: {} }],
    );
    expect(r.traces[0]).toMatchObject({ isError: false });
    expect(r.state.vars).toEqual({ zip: '00000' });
  });
  it('a task variable without a value, or whose valueFrom yields nothing, starts as null', async () => {
    const { r } = await turn(
      {
        type: 'event',
        id: 'vars',
        variables: [
          { name: 'bare' },
          { name: 'failed', valueFrom: { type: 'cel', expression: 'local.no_such_key' } },
        ],
      },
      [],
    );
    expect(r.state.workflows?.['vars']?.local).toEqual({ bare: null, failed: null });
  });
});

describe('what expressions and templates read', () => {
  it('a session variable never shadows the system values, the task locals or the inputs', async () => {
    const { model } = await turn(
      {
        type: 'steps',
        id: 'shadow',
        variables: [{ name: 'n', value: 'own' }],
        steps: [
          {
            id: 'A',
            goal: 'a',
            instructions: ['id={{vars.session.id}} n={{local.n}} x={{inputs.x}}'],
            inputs: [{ name: 'x', type: 'string', required: false }],
            on: { enter: [{ action: 'set', name: 'inputs.x', value: 'real' }] },
          },
        ],
      },
      [],
      {
        id: 'sess-1',
        vars: {
          'vars.session.id': 'spoofed',
          'local.n': 'spoofed',
          local: 'x',
          'inputs.x': 'spoofed',
        },
      },
    );
    const started = model.calls[0]!.messages.find((m) => m.role === 'tool');
    expect(JSON.parse(String(started?.content)).instructions).toEqual(['id=sess-1 n=own x=real']);
  });
});

describe('call actions', () => {
  it('ask the model only when the arguments did not validate; result.save skips what is absent', async () => {
    const action = (name: string) => ({
      type: 'action',
      tool: {
        type: 'function',
        function: {
          name,
          parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
        },
      },
    });
    const tools = await loadTools([
      container({
        type: 'steps',
        id: 'wf',
        tool: { name: 'submit_wf' },
        steps: [
          {
            id: 'A',
            goal: 'look it up',
            on: {
              enter: [
                { action: 'call', name: 'lookup' },
                { action: 'call', name: 'broken', arguments: { id: 'c-1' } },
                {
                  action: 'call',
                  name: 'fine',
                  arguments: { id: 'c-2' },
                  result: {
                    save: [
                      { from: 'name', to: 'who' },
                      { from: 'missing', to: 'kept' },
                    ],
                  },
                },
                // An output that is not an object is read as `result`.
                {
                  action: 'call',
                  name: 'listing',
                  arguments: { id: 'c-3' },
                  result: { save: [{ from: 'result[1]', to: 'second' }] },
                },
              ],
            },
          },
        ],
      }),
      action('lookup'),
      action('broken'),
      action('fine'),
      action('listing'),
    ]);
    const model = new ScriptedModel([{ text: 'ok' }], { record: true });
    const r = await createSession({
      tools,
      model,
      vars: { kept: 'before' },
      actions: {
        lookup: () => ({ name: 'Ada' }),
        fine: () => ({ name: 'Ada' }),
        listing: () => ['a', 'b'],
        broken: () => {
          throw new Error('service down');
        },
      },
    }).run('hi');
    expect(r.traces.map((t) => [t.tool, t.isError, t.errorCode])).toEqual([
      ['lookup', true, 'invalid_arguments'],
      ['broken', true, expect.any(String)],
      ['fine', false, undefined],
      ['listing', false, undefined],
    ]);
    expect(r.state.vars).toEqual({ kept: 'before', who: 'Ada', second: 'b' });
    const started = model.calls[0]!.messages.find((m) => m.role === 'tool');
    expect(JSON.parse(String(started?.content)).pending_tool_calls).toEqual([
      { name: 'lookup', arguments: {} },
    ]);
  });
});

describe('call actions at activation', () => {
  it("apply the called tool's own effects (its options.save) to the session", async () => {
    const tools = await loadTools([
      container({
        type: 'steps',
        id: 'wf',
        steps: [{ id: 'A', goal: 'a', on: { enter: [{ action: 'call', name: 'lookup' }] } }],
      }),
      {
        type: 'action',
        tool: {
          type: 'function',
          function: { name: 'lookup', parameters: { type: 'object', properties: {} } },
        },
        options: { save: [{ from: 'name', to: 'looked_up' }] },
      },
    ]);
    const model = new ScriptedModel([{ text: 'ok' }]);
    const r = await createSession({
      tools,
      model,
      actions: { lookup: () => ({ name: 'Ada' }) },
    }).run('hi');
    expect(r.traces.map((t) => [t.tool, t.isError])).toEqual([['lookup', false]]);
    expect(r.state.vars).toEqual({ looked_up: 'Ada' });
  });
});

describe('what the model is shown', () => {
  it('several active steps with tools.allow show only the ordinary tools all of them allow', async () => {
    const flow = (id: string, allow: string[]) =>
      container(
        {
          type: 'steps',
          id,
          tool: { name: `submit_${id}` },
          steps: [{ id: 'A', goal: id, tools: { allow } }],
        },
        `flow_${id}`,
      );
    const action = (name: string) => ({
      type: 'action',
      tool: {
        type: 'function',
        function: { name, parameters: { type: 'object', properties: {} } },
      },
    });
    const tools = await loadTools([
      flow('a', ['t1', 't2']),
      flow('b', ['t2', 't3']),
      action('t1'),
      action('t2'),
      action('t3'),
    ]);
    const model = new ScriptedModel([{ text: 'ok' }], { record: true });
    await createSession({ tools, model }).run('go');
    expect(model.calls[0]!.tools.map((t) => t.function.name).sort()).toEqual([
      'submit_a',
      'submit_b',
      't2',
    ]);
  });

  it("a completed workflow's submit tool cannot be called any more", async () => {
    const { r, model } = await turn(rating(), [
      { name: 'submit_rating', args: { rating: 5 } },
      { name: 'submit_rating', args: {} },
      { name: 'submit_rating', args: {} },
    ]);
    expect(r.traces.map((t) => t.errorCode)).toEqual([undefined, undefined, 'unknown_tool']);
    expect(r.traces[1]!.output).toMatchObject({ status: 'completed' });
    expect(r.events.filter((e) => e.type === 'workflow')).toHaveLength(3);
    // Nor is it named in the system context once completed.
    const context = (call: number) =>
      model.calls[call]!.messages.some(
        (m) => m.role === 'system' && String(m.content).includes('Workflow "survey"'),
      );
    expect([context(1), context(2)]).toEqual([true, false]);
  });

  it('an auto workflow whose activation failed has no submit tool the model can call', async () => {
    const { r, model } = await turn(
      {
        type: 'steps',
        id: 'greet',
        tool: { name: 'submit_greet' },
        steps: [
          {
            id: 'A',
            goal: 'a',
            // 20 × 60,000 characters: past the 1 MiB cap, so activation fails.
            on: { start: [{ action: 'say', text: '{{#vars.l}}{{vars.s}}{{/vars.l}}' }] },
          },
        ],
      },
      [{ name: 'submit_greet', args: {} }],
      { vars: { 'vars.l': Array.from({ length: 20 }, () => 0), 'vars.s': 'x'.repeat(60_000) } },
    );
    const errors = r.events.flatMap((e) => (e.type === 'tool-error' ? [e.code] : []));
    expect(errors.slice(0, 2)).toEqual(['result_too_large', 'unknown_tool']);
    expect(model.calls[0]!.tools.map((t) => t.function.name)).toEqual([]);
    expect(r.traces.map((t) => t.errorCode)).toEqual(['unknown_tool']);
    expect(r.state.workflows ?? {}).not.toHaveProperty('greet');
  });
});

describe('describeWorkflows (the REPL /step)', () => {
  it("shows an active step's goal, conditions and next; a completed workflow only its state", async () => {
    const tools = await loadTools([
      container({
        type: 'steps',
        id: 'd',
        tool: { name: 'submit_d' },
        steps: [
          {
            id: 'A',
            goal: 'first',
            instructions: ['Always.', { if: 'vars.vip', text: 'Greet a VIP.' }],
            next: ['B'],
          },
          { id: 'B', goal: 'second' },
        ],
      }),
    ]);
    const model = new ScriptedModel([
      { text: 'hi' },
      { tool_calls: [{ name: 'submit_d' }] },
      { tool_calls: [{ name: 'submit_d' }] },
      { text: 'done' },
    ]);
    const session = createSession({ tools, model });
    await session.run('hi');
    expect(describeWorkflows(tools.tools, session.toJSON())).toEqual([
      'd [steps, submit tool submit_d]: active, step A',
      '  goal: first',
      '  - Always.',
      '  - Greet a VIP. (if vars.vip)',
      '  next: B',
      '  inputs: {}',
      '  local: {}',
    ]);
    await session.run('go on');
    expect(describeWorkflows(tools.tools, session.toJSON())).toEqual([
      'd [steps, submit tool submit_d]: completed, step B',
      '  inputs: {}',
      '  local: {}',
    ]);
  });
});
