/**
 * A step input's JSON Schema `default` fills it when the model leaves it out, as a tool
 * parameter's does: before `required` is checked, so `on.submit`, `next.requires` and `save` see
 * it; a value the model gave, or `on.presubmit` set, is kept.
 */
import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { DefinitionError } from '../../src/errors.js';
import { createSession } from '../../src/session/create-session.js';
import { ScriptedModel } from '../../src/testing.js';

function flow(inputs: unknown[], presubmit: unknown[] = []): Record<string, unknown>[] {
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
              goal: 'Ask how many seats',
              inputs,
              on: { presubmit, submit: [{ action: 'save' }] },
              next: [{ id: 'DONE', requires: ['seats'] }],
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

async function submit(tools: Awaited<ReturnType<typeof loadTools>>, args: Record<string, unknown>) {
  const model = new ScriptedModel(
    [{ tool_calls: [{ name: 'submit_booking', args }] }, { text: 'ok' }],
    { record: true },
  );
  const r = await createSession({ tools, model }).run('book');
  return { r, model };
}

const inputs = [
  { name: 'name', type: 'string' },
  { name: 'seats', type: 'integer', default: 2 },
  { name: 'extras', type: 'object', required: false, default: { wheelchair: false } },
];

describe('step input defaults', () => {
  it('fills a required input the model left out, before validation; on.submit saves it and next.requires sees it', async () => {
    const { r, model } = await submit(await loadTools(flow(inputs)), { name: 'Ada' });
    expect(r.traces[0]).toMatchObject({ isError: false });
    expect(r.traces[0]!.output).toMatchObject({ completed_step: 'ASK', step: 'DONE' });
    expect(r.state.vars).toEqual({ name: 'Ada', seats: 2, extras: { wheelchair: false } });
    // The model is shown the defaults, as with tool parameters.
    expect(model.calls[0]!.tools[0]!.function.parameters).toMatchObject({
      properties: { seats: { type: 'integer', default: 2 } },
    });
  });

  it('keeps what the model gave, and what on.presubmit set', async () => {
    const given = await submit(await loadTools(flow(inputs)), { name: 'Ada', seats: 5 });
    expect(given.r.state.vars['seats']).toBe(5);
    const preset = await submit(
      await loadTools(flow(inputs, [{ action: 'set', name: 'inputs.seats', value: 7 }])),
      { name: 'Ada' },
    );
    expect(preset.r.state.vars['seats']).toBe(7);
  });

  it('gives each submission its own copy of an object default', async () => {
    const tools = await loadTools(flow(inputs));
    const first = await submit(tools, { name: 'Ada' });
    const second = await submit(tools, { name: 'Bob' });
    expect(first.r.state.vars['extras']).not.toBe(second.r.state.vars['extras']);
  });

  it('fills an expression task input the model left out', async () => {
    const tools = await loadTools([
      {
        type: 'context',
        context: {
          task: {
            type: 'expression',
            id: 'calc',
            tool: { name: 'price' },
            inputs: [{ name: 'qty', type: 'integer', default: 3 }],
            expression: { type: 'cel', expression: 'inputs.qty * 10' },
          },
        },
        tool: {
          type: 'function',
          function: { name: 'flow', parameters: { type: 'object', properties: {} } },
        },
      },
    ]);
    const model = new ScriptedModel([
      { tool_calls: [{ name: 'price', args: {} }] },
      { text: 'ok' },
    ]);
    const r = await createSession({ tools, model }).run('price?');
    expect(r.traces[0]).toMatchObject({ isError: false, output: 30 });
  });

  it('refuses at load a default that does not match its own input', async () => {
    const bad = flow([{ name: 'seats', type: 'integer', default: 'two' }]);
    const err = await loadTools(bad).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DefinitionError);
    expect((err as DefinitionError).issues).toEqual([
      expect.objectContaining({
        code: 'bad_default',
        path: 'tools[0].context.task.steps[0].inputs[0].default',
      }),
    ]);
    expect((err as Error).message).toMatch(/inputs\[0\]\.default: .*must be integer/);
  });
});
