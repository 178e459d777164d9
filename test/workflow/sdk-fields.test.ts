/**
 * The current Syllable SDK's `context.task` component models load (docs/workflows.md, "Syllable
 * SDK fields"): the SDK's own examples, `CallAction.autoPopulate`, case expressions, and a named
 * warning for each field switchboard cannot honour.
 */
import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { DefinitionError } from '../../src/errors.js';
import { createSession } from '../../src/session/create-session.js';
import { ScriptedModel } from '../../src/testing.js';
import type { ToolSet } from '../../src/definition/types.js';

function container(task: unknown, name = 'flow'): Record<string, unknown> {
  return {
    type: 'context',
    context: { task },
    tool: { type: 'function', function: { name, parameters: { type: 'object', properties: {} } } },
  };
}

const lookup = {
  type: 'action',
  tool: {
    type: 'function',
    function: {
      name: 'lookup',
      parameters: {
        type: 'object',
        properties: { id: { type: 'string' } },
        required: ['id'],
      },
    },
  },
};

/** The SDK's `StepsTask` example (docs/models/components/stepstask.md), verbatim. */
function sdkStepsTaskExample(): Record<string, unknown> {
  return {
    variables: [{ valueFrom: 'inputs.provided_dob == patient_dob', name: '<value>' }],
    type: 'steps',
    steps: [
      {
        id: '<id>',
        goal: '<value>',
        instructions: ['<value>'],
        on: {
          start: [{ text: '<value>', action: 'say', role: 'assistant' }],
          enter: [{ action: 'inc', name: '<value>', by: 1 }],
          presubmit: [{ action: 'load', overwrite: false }],
          submit: [{ action: 'set', name: '<value>' }],
        },
        next: ['<value>'],
      },
    ],
  };
}

async function issuesOf(tools: unknown): Promise<{ errors: string[]; warnings: string[] }> {
  try {
    const set = await loadTools(tools);
    return { errors: [], warnings: set.warnings.map((w) => `${w.code} ${w.path}: ${w.message}`) };
  } catch (err) {
    if (!(err instanceof DefinitionError)) throw err;
    const of = (s: string) =>
      err.issues.filter((i) => i.severity === s).map((i) => `${i.code} ${i.path}: ${i.message}`);
    return { errors: of('error'), warnings: of('warning') };
  }
}

describe('Syllable SDK component models', () => {
  it("keeps the lint error for the SDK example's placeholder next, naming the step", async () => {
    const { errors } = await issuesOf([container(sdkStepsTaskExample())]);
    expect(errors).toEqual([
      'unknown_step tools[0].context.task.steps[0].next[0]: names no step: "<value>" (steps: <id>)',
    ]);
    const fixed = sdkStepsTaskExample();
    (fixed['steps'] as Record<string, unknown>[])[0]!['next'] = ['<id>'];
    expect((await issuesOf([container(fixed)])).errors).toEqual([]);
  });

  it('loads a current example with autoPopulate (each documented value)', async () => {
    for (const autoPopulate of [true, false, 'required']) {
      const task = sdkStepsTaskExample();
      const step = (task['steps'] as Record<string, unknown>[])[0]!;
      step['next'] = [];
      step['on'] = {
        enter: [
          {
            if: 'inputs.can_sign_consent == `true`',
            action: 'call',
            name: 'lookup',
            arguments: { id: '{{local.id}}' },
            autoPopulate,
          },
        ],
      };
      const { errors, warnings } = await issuesOf([container(task), lookup]);
      expect(errors, String(autoPopulate)).toEqual([]);
      expect(warnings, String(autoPopulate)).toEqual([]);
    }
  });

  it('warns by name for each field it cannot honour', async () => {
    const { errors, warnings } = await issuesOf([
      container({
        type: 'steps',
        id: 'wf',
        config: { llm: 'x' },
        metadata: { priority: 2, parent_tool_name: 'p' },
        steps: [
          {
            id: 'A',
            goal: 'a',
            on: {
              enter: [
                { action: 'say', text: 'hi', role: 'user' },
                { action: 'call', name: 'lookup', autoPopulate: 'sometimes' },
                {
                  action: 'call',
                  name: 'lookup',
                  autoPopulate: false,
                  result: { save: [{ from: 'x', to: 'y' }] },
                },
              ],
            },
            next: [{ id: 'A', if: { case: [{ if: 'inputs.x', value: true }] } }],
          },
        ],
      }),
      container(
        { type: 'event', on: { start: [{ action: 'call', name: 'lookup', autoPopulate: false }] } },
        'events',
      ),
      lookup,
    ]);
    expect(errors).toEqual([]);
    const t = 'tools[0].context.task';
    expect(warnings.map((w) => w.split(':')[0])).toEqual(
      expect.arrayContaining([
        `field_not_honoured ${t}.config`,
        `field_not_honoured ${t}.metadata.priority`,
        `field_not_honoured ${t}.metadata.parent_tool_name`,
        `field_not_honoured ${t}.steps[0].on.enter[0].role`,
        `field_not_honoured ${t}.steps[0].on.enter[1].autoPopulate`,
        `field_not_honoured ${t}.steps[0].on.enter[2].result.save`,
        `case_expression ${t}.steps[0].next[0].if`,
        'field_not_honoured tools[1].context.task.on.start[0].autoPopulate',
      ]),
    );
    expect(warnings.find((w) => w.includes('enter[1].autoPopulate'))).toContain('"sometimes"');
  });

  it('refuses a misspelt call field still (autoPopulate is the only new key)', async () => {
    const { errors } = await issuesOf([
      container({
        type: 'steps',
        steps: [
          {
            id: 'A',
            goal: 'a',
            on: { enter: [{ action: 'call', name: 'lookup', autopopulate: true }] },
          },
        ],
      }),
      lookup,
    ]);
    expect(errors.join('\n')).toMatch(/on\.enter\[0\]/);
  });
});

describe('autoPopulate at run time', () => {
  async function runWith(autoPopulate: unknown): Promise<{
    synthetic: Record<string, unknown>;
    calls: string[];
    vars: Record<string, unknown>;
  }> {
    const tools: ToolSet = await loadTools([
      container({
        type: 'steps',
        id: 'wf',
        tool: { name: 'submit_wf' },
        steps: [
          {
            id: 'A',
            goal: 'look it up',
            inputs: [{ name: 'x', required: false }],
            on: {
              enter: [
                {
                  action: 'call',
                  name: 'lookup',
                  arguments: { id: 'c-1' },
                  ...(autoPopulate === undefined ? {} : { autoPopulate }),
                  ...(autoPopulate === false
                    ? {}
                    : { result: { save: [{ from: 'name', to: 'who' }] } }),
                },
              ],
            },
          },
        ],
      }),
      lookup,
    ]);
    const calls: string[] = [];
    const model = new ScriptedModel([{ text: 'ok' }], { record: true });
    const session = createSession({
      tools,
      model,
      actions: {
        lookup: (args: Record<string, unknown>) => {
          calls.push(String(args['id']));
          return { name: 'Ada' };
        },
      },
    });
    const turn = await session.run('hi');
    const msg = model.calls[0]!.messages.find((m) => m.role === 'tool');
    return {
      synthetic: JSON.parse(String(msg?.content)) as Record<string, unknown>,
      calls,
      vars: { ...turn.state.vars },
    };
  }

  it('true, "required" and absent: the engine makes the call and result.save applies', async () => {
    for (const value of [undefined, true, 'required']) {
      const r = await runWith(value);
      expect(r.calls, String(value)).toEqual(['c-1']);
      expect(r.vars['who'], String(value)).toBe('Ada');
      expect(r.synthetic['pending_tool_calls'], String(value)).toBeUndefined();
    }
  });

  it('false: the call is never made by the engine; the model is asked to make it', async () => {
    const r = await runWith(false);
    expect(r.calls).toEqual([]);
    expect(r.synthetic['pending_tool_calls']).toEqual([
      { name: 'lookup', arguments: { id: 'c-1' } },
    ]);
  });
});

describe('case expressions', () => {
  it('take the first branch whose if holds; value or valueFrom', async () => {
    const tools = await loadTools([
      container({
        type: 'expression',
        tool: { name: 'grade' },
        inputs: [{ name: 'score', type: 'integer' }],
        expression: {
          case: [
            { if: { type: 'cel', expression: 'inputs.score >= 90' }, value: 'A' },
            {
              if: 'inputs.score >= `50`',
              valueFrom: "join('', ['pass:', to_string(inputs.score)])",
            },
            { value: 'fail' },
          ],
        },
      }),
    ]);
    const model = new ScriptedModel([
      { tool_calls: [{ name: 'grade', args: { score: 95 } }] },
      { tool_calls: [{ name: 'grade', args: { score: 60 } }] },
      { tool_calls: [{ name: 'grade', args: { score: 10 } }] },
      { text: 'done' },
    ]);
    const session = createSession({ tools, model });
    const turn = await session.run('grade these');
    expect(turn.traces.map((t) => t.output)).toEqual(['A', 'pass:60', 'fail']);
  });

  it('refuses a malformed branch at load, naming it', async () => {
    const { errors } = await issuesOf([
      container({
        type: 'expression',
        expression: { case: [{ value: 1 }, { if: 'x', value: 1, valueFrom: 'y' }] },
      }),
    ]);
    expect(errors).toEqual([
      'bad_expression tools[0].context.task.expression: case[1]: "value" and "valueFrom" are mutually exclusive',
    ]);
  });

  it('a null "value" beside a "valueFrom" (how the API writes the unset one) is not set', async () => {
    // Syllable's API returns every unset OptionalNullable field as null, so a tool fetched from
    // it has `"value": null` next to each `valueFrom`: a variable, a set action, a case branch.
    const fromApi = (task: Record<string, unknown>) =>
      container({ ...task, variables: [{ name: 'v', value: null, valueFrom: 'inputs.score' }] });
    const steps = {
      type: 'steps',
      steps: [
        {
          id: 's',
          goal: 'g',
          inputs: [{ name: 'n', type: 'string', required: true }],
          on: { submit: [{ action: 'set', name: 'who', value: null, valueFrom: 'inputs.n' }] },
        },
      ],
    };
    const grade = {
      type: 'expression',
      tool: { name: 'grade' },
      inputs: [{ name: 'score', type: 'integer' }],
      expression: { case: [{ if: 'inputs.score > `5`', value: null, valueFrom: 'inputs.score' }] },
    };
    expect(await issuesOf([fromApi(steps)])).toMatchObject({ errors: [] });
    const tools = await loadTools([fromApi(grade)]);
    const model = new ScriptedModel([
      { tool_calls: [{ name: 'grade', args: { score: 9 } }] },
      { text: 'done' },
    ]);
    const turn = await createSession({ tools, model }).run('grade');
    expect(turn.traces.map((t) => t.output)).toEqual([9]);
  });

  it('bounds case expressions at load: branch count and nesting', async () => {
    let nested: unknown = { case: [{ value: 1 }] };
    for (let i = 0; i < 5; i++) nested = { case: [{ valueFrom: nested }] };
    const wide = { case: Array.from({ length: 65 }, () => ({ value: 1 })) };
    const errors = [
      ...(await issuesOf([container({ type: 'expression', expression: nested })])).errors,
      ...(await issuesOf([container({ type: 'expression', expression: wide })])).errors,
    ];
    expect(errors).toEqual([
      expect.stringMatching(/case\[0\]: valueFrom: .*nest deeper than 4 levels$/),
      expect.stringMatching(/has 65 branches; at most 64 are allowed$/),
    ]);
  });
});
