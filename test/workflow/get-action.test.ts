/**
 * The step action `get` (alias `load`), docs/workflows.md "Actions": for each input named (every
 * input of the step when `inputs` is absent) that is empty, or always with `overwrite: true`, it
 * sets the input from `value`/`valueFrom`, else from the session variable of the same name.
 */
import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { createSession } from '../../src/session/create-session.js';
import { ScriptedModel } from '../../src/testing.js';

function flow(presubmit: unknown[]): Record<string, unknown>[] {
  return [
    {
      type: 'context',
      context: {
        task: {
          type: 'steps',
          id: 'booking',
          tool: { name: 'submit_booking' },
          steps: [
            {
              id: 'ASK',
              goal: 'Ask for the name and the zip code',
              inputs: [
                { name: 'name', type: 'string' },
                { name: 'zip', type: 'string' },
              ],
              on: { presubmit, submit: [{ action: 'save', name: 'booking' }] },
              next: [{ id: 'DONE' }],
            },
            { id: 'DONE', goal: 'Confirm' },
          ],
        },
      },
      tool: {
        type: 'function',
        function: { name: 'flow', parameters: { type: 'object', properties: {} } },
      },
    },
  ];
}

/** Submits `args` once in a session holding `vars`; returns what `save` stored. */
async function submitted(
  presubmit: unknown[],
  args: Record<string, unknown>,
  vars: Record<string, unknown> = { name: 'Stored Name', zip: '10001' },
): Promise<unknown> {
  const model = new ScriptedModel([
    { tool_calls: [{ name: 'submit_booking', args }] },
    { text: 'ok' },
  ]);
  const r = await createSession({ tools: await loadTools(flow(presubmit)), model, vars }).run(
    'book',
  );
  expect(r.traces[0]).toMatchObject({ isError: false });
  return r.state.vars['booking'];
}

describe('the get action', () => {
  it('fills an input the model left out from the session variable of its name', async () => {
    expect(await submitted([{ action: 'get' }], { name: 'Ada' })).toEqual({
      name: 'Ada',
      zip: '10001',
    });
  });

  it('keeps an input the model gave, unless overwrite is true', async () => {
    expect(await submitted([{ action: 'get' }], { name: 'Ada', zip: '94103' })).toEqual({
      name: 'Ada',
      zip: '94103',
    });
    expect(
      await submitted([{ action: 'get', overwrite: true }], { name: 'Ada', zip: '94103' }),
    ).toEqual({ name: 'Stored Name', zip: '10001' });
  });

  it('counts an empty string as empty', async () => {
    expect(await submitted([{ action: 'get' }], { name: 'Ada', zip: '' })).toEqual({
      name: 'Ada',
      zip: '10001',
    });
  });

  it('touches only the inputs it names', async () => {
    expect(
      await submitted([{ action: 'get', inputs: ['zip'], overwrite: true }], {
        name: 'Ada',
        zip: '94103',
      }),
    ).toEqual({ name: 'Ada', zip: '10001' });
  });

  it('takes value when given, in place of the session variable', async () => {
    expect(
      await submitted([{ action: 'get', inputs: ['zip'], value: '00000' }], { name: 'Ada' }),
    ).toEqual({ name: 'Ada', zip: '00000' });
  });

  it('leaves an input empty when there is no session variable to take', async () => {
    const model = new ScriptedModel([
      { tool_calls: [{ name: 'submit_booking', args: { name: 'Ada' } }] },
      { text: 'ok' },
    ]);
    const r = await createSession({
      tools: await loadTools(flow([{ action: 'get' }])),
      model,
    }).run('book');
    // zip is required: still missing after get, so the submission is refused and nothing saved.
    expect(r.traces[0]).toMatchObject({ isError: true, errorCode: 'invalid_arguments' });
    expect(r.state.vars['booking']).toBeUndefined();
  });

  it('load is the same action', async () => {
    expect(await submitted([{ action: 'load' }], { name: 'Ada' })).toEqual({
      name: 'Ada',
      zip: '10001',
    });
  });
});
