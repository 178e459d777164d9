/**
 * One submission of a steps task, what it returns, and the task's state after it
 * (docs/workflows.md, "One submission", "State"): cases each written against a fault seeded into
 * src/session/workflow/ that no other test caught (docs/reliability.md, "Faults seeded into the
 * engine that no test caught").
 */
import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { createSession } from '../../src/session/create-session.js';
import { ScriptedModel } from '../../src/testing.js';
import { container, rating, turn } from './step-helpers.js';

describe('go_to_step', () => {
  it('is refused, with valid inputs beside it, on a step that does not allow it', async () => {
    const { r } = await turn(rating(), [
      { name: 'submit_rating', args: { rating: 5, go_to_step: 'DONE' } },
    ]);
    expect(r.traces[0]).toMatchObject({ isError: true, errorCode: 'invalid_arguments' });
    expect((r.traces[0]!.output as { error: { message: string } }).error.message).toBe(
      'step RATE does not take "go_to_step"; its inputs are: rating',
    );
    expect(r.state.workflows?.['survey']).toMatchObject({ step: 'RATE', inputs: {} });
  });
});

describe('transitions', () => {
  it('requires counts {} and [] as not collected', async () => {
    const task = {
      type: 'steps',
      id: 'req',
      tool: { name: 'submit_req' },
      steps: [
        {
          id: 'A',
          goal: 'a',
          inputs: [
            { name: 'o', type: 'object', required: false },
            { name: 'l', type: 'array', required: false },
          ],
          next: [{ id: 'B', requires: ['o'] }, { id: 'C', requires: ['l'] }, 'D'],
        },
        { id: 'B', goal: 'b' },
        { id: 'C', goal: 'c' },
        { id: 'D', goal: 'd' },
      ],
    };
    const step = async (args: Record<string, unknown>) =>
      (await turn(task, [{ name: 'submit_req', args }])).r.state.workflows?.['req']?.step;
    expect(await step({ o: {}, l: [] })).toBe('D');
    expect(await step({ o: { a: 1 }, l: [] })).toBe('B');
    expect(await step({ o: {}, l: [0] })).toBe('C');
  });
});

describe('the submit result', () => {
  it('says call_now only when the step it delivers has tools.call', async () => {
    const { r, model } = await turn(rating(), [{ name: 'submit_rating', args: { rating: 5 } }]);
    const started = model.calls[0]!.messages.find((m) => m.role === 'tool');
    expect(JSON.parse(String(started?.content))).not.toHaveProperty('call_now');
    expect(r.traces[0]!.output).toMatchObject({
      step: 'DONE',
      call_now: 'Call submit_rating now, without waiting for the user.',
    });
  });
});

describe('a submission refused by a limit', () => {
  it('puts back the inputs and locals as they were before the call', async () => {
    const { r } = await turn(
      {
        type: 'steps',
        id: 'w',
        tool: { name: 'submit' },
        variables: [{ name: 'n', value: 0 }],
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
                { action: 'inc', name: 'local.n' },
                // 20 × 60,000 characters: past the 1 MiB cap on rendered text.
                { action: 'say', text: '{{#inputs.l}}{{inputs.s}}{{/inputs.l}}' },
              ],
            },
            next: ['B'],
          },
          { id: 'B', goal: 'b' },
        ],
      },
      [
        // Fails validation (no `l`): `s` stays collected, as a retry keeps it.
        { name: 'submit', args: { s: 'kept' } },
        { name: 'submit', args: { l: Array.from({ length: 20 }, () => 0), s: 'x'.repeat(60_000) } },
      ],
    );
    expect(r.traces.map((t) => t.errorCode)).toEqual(['invalid_arguments', 'result_too_large']);
    expect(r.state.workflows?.['w']).toEqual({
      status: 'active',
      step: 'A',
      inputs: { s: 'kept' },
      local: { n: 0 },
    });
  });
});

describe('expression tasks', () => {
  it('run on.submit after a call that validates, never after a refused one', async () => {
    const { r } = await turn(
      {
        type: 'expression',
        id: 'calc',
        tool: { name: 'add' },
        inputs: [{ name: 'a', type: 'integer' }],
        expression: { type: 'cel', expression: 'inputs.a + 1' },
        on: { submit: [{ action: 'inc', name: 'submits' }] },
      },
      [
        { name: 'add', args: { a: 1 } },
        { name: 'add', args: { a: 'one' } },
      ],
    );
    expect(r.traces.map((t) => t.errorCode)).toEqual([undefined, 'invalid_arguments']);
    expect(r.state.vars).toEqual({ submits: 1 });
  });

  it('refuse a result past 1 MiB whose strings each fit the cap', async () => {
    const each = '{{#inputs.l}}{{inputs.s}}{{/inputs.l}}';
    const { r } = await turn(
      {
        type: 'expression',
        id: 'twice',
        tool: { name: 'twice' },
        inputs: [
          { name: 'l', type: 'array' },
          { name: 's', type: 'string' },
        ],
        // Two texts of 10 × 60,000 characters: 1.2 MB together.
        output: { a: each, b: each },
      },
      [{ name: 'twice', args: { l: Array.from({ length: 10 }, () => 0), s: 'x'.repeat(60_000) } }],
    );
    expect(r.traces[0]).toMatchObject({ isError: true, errorCode: 'result_too_large' });
  });
});

describe('snapshots of workflow progress', () => {
  it('toJSON and a turn state keep the progress of their moment after later submissions', async () => {
    const tools = await loadTools([container(rating())]);
    const model = new ScriptedModel([
      { text: 'Your rating?' },
      { tool_calls: [{ name: 'submit_rating', args: { rating: 5 } }] },
      { text: 'Thanks' },
    ]);
    const session = createSession({ tools, model });
    const t1 = await session.run('hi');
    const saved = session.toJSON();
    await session.run('5');
    const before = { status: 'active', step: 'RATE', inputs: {}, local: {} };
    expect(saved.workflows?.['survey']).toEqual(before);
    expect(t1.state.workflows?.['survey']).toEqual(before);
    expect(session.toJSON().workflows?.['survey']).toMatchObject({ step: 'DONE' });
  });
});

describe('the trace of a submission', () => {
  it('keeps the arguments the model sent, whatever on.presubmit writes into the inputs', async () => {
    const { r } = await turn(
      {
        type: 'steps',
        id: 'o',
        tool: { name: 'submit_o' },
        steps: [
          {
            id: 'A',
            goal: 'a',
            inputs: [{ name: 'o', type: 'object' }],
            on: { presubmit: [{ action: 'set', name: 'inputs.o.extra', value: 1 }] },
          },
        ],
      },
      [{ name: 'submit_o', args: { o: { a: 1 } } }],
    );
    expect(r.traces[0]).toMatchObject({ isError: false });
    expect(r.traces[0]!.args).toEqual({ o: { a: 1 } });
  });

  it('gives its duration in seconds, on the session clock', async () => {
    let t = 0;
    const tools = await loadTools([
      container({
        type: 'steps',
        id: 'slow',
        tool: { name: 'submit_slow' },
        steps: [{ id: 'A', goal: 'a', on: { submit: [{ action: 'call', name: 'wait' }] } }],
      }),
      {
        type: 'action',
        tool: {
          type: 'function',
          function: { name: 'wait', parameters: { type: 'object', properties: {} } },
        },
      },
    ]);
    const model = new ScriptedModel([{ tool_calls: [{ name: 'submit_slow' }] }, { text: 'ok' }]);
    const r = await createSession({
      tools,
      model,
      actions: {
        wait: () => {
          t += 2500;
          return { ok: true };
        },
      },
      _internal: { now: () => t },
    }).run('go');
    const submit = r.traces.find((x) => x.tool === 'submit_slow');
    expect(submit?.duration_secs).toBe(2.5);
  });
});
