/**
 * A workflow author's mistakes (docs/reliability.md, "A tool author's mistakes"): a misspelt
 * field names the field meant, at its own path; a CEL call of a function CEL does not have is a
 * warning at load (it would make the condition false on every run).
 */
import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { DefinitionError } from '../../src/errors.js';

const workflow = (step: Record<string, unknown>, task: Record<string, unknown> = {}) => [
  {
    type: 'context',
    tool: {
      type: 'function',
      function: { name: 'form', description: 'f', parameters: { type: 'object', properties: {} } },
    },
    context: {
      task: {
        type: 'steps',
        id: 'form',
        steps: [
          {
            id: 'NAME',
            goal: 'Get the name',
            inputs: [{ name: 'user_name', type: 'string' }],
            next: ['DONE'],
            ...step,
          },
          { id: 'DONE', goal: 'Thank' },
        ],
        ...task,
      },
    },
  },
];

async function errors(value: unknown): Promise<string[]> {
  try {
    await loadTools(value);
  } catch (error) {
    expect(error).toBeInstanceOf(DefinitionError);
    return (error as DefinitionError).issues
      .filter((i) => i.severity === 'error')
      .map((i) => `${i.path}: ${i.message}`);
  }
  throw new Error('expected a load error');
}

describe('a misspelt workflow field names the field meant, at its path', () => {
  it('in a step, a hook, an action, a variable, an instruction', async () => {
    expect(await errors(workflow({ instructons: ['Ask'] }))).toEqual([
      'tools[0].context.task.steps[0].instructons: is not a field here (did you mean `instructions`?); fields here: id, goal, instructions, tools, inputs, on, next',
    ]);
    expect(await errors(workflow({ on: { sumbit: [] } }))).toEqual([
      'tools[0].context.task.steps[0].on.sumbit: is not a field here (did you mean `submit`?); fields here: start, enter, presubmit, submit',
    ]);
    const action = await errors(
      workflow({ on: { submit: [{ action: 'set', name: 'x', valuFrom: 'inputs.user_name' }] } }),
    );
    expect(action).toEqual([
      expect.stringMatching(
        /^tools\[0\]\.context\.task\.steps\[0\]\.on\.submit\[0\]\.valuFrom: is not a field here \(did you mean `valueFrom`\?\)/,
      ),
    ]);
    const variable = await errors(workflow({}, { variables: [{ name: 'n', vale: 1 }] }));
    expect(variable).toEqual([
      expect.stringMatching(
        /^tools\[0\]\.context\.task\.variables\[0\]\.vale: is not a field here \(did you mean `value`\?\)/,
      ),
    ]);
  });
});

describe('a CEL function that does not exist is found at load', () => {
  it('is an unknown_function warning naming the expression, with the function meant', async () => {
    const set = await loadTools(
      workflow({
        next: [
          {
            id: 'DONE',
            if: {
              type: 'cel',
              expression: 'inputs.user_name.startWith("A") || lenght(inputs.user_name) > 0',
            },
          },
        ],
      }),
    );
    expect(
      set.warnings
        .filter((w) => w.code === 'unknown_function')
        .map((w) => `${w.path}: ${w.message}`),
    ).toEqual([
      'tools[0].context.task.steps[0].next[0].if: unknown function startWith() (did you mean `startsWith`?): evaluating it always fails, so a condition is false and a value absent',
    ]);
    // Known functions, macros and operators are not flagged.
    const fine = await loadTools(
      workflow({
        next: [
          {
            id: 'DONE',
            if: {
              type: 'cel',
              expression:
                'size(inputs.user_name) > 0 && [1].all(x, x > 0) && inputs.user_name.lowerAscii().startsWith("a") ? true : inputs.user_name[0] == "b"',
            },
          },
        ],
      }),
    );
    expect(fine.warnings).toEqual([]);
    await expect(
      loadTools(
        workflow({
          next: [{ id: 'DONE', if: { type: 'cel', expression: 'lenght(inputs.user_name) > 0' } }],
        }),
        { strict: true },
      ),
    ).rejects.toThrow('unknown function lenght()');
  });
});

describe('a wrong value deep inside a union is named at its own path', () => {
  it('a misspelt if.type in next[], an instruction or a valueFrom names the types allowed', async () => {
    const cell = { type: 'cell', expression: 'true' };
    const allowed = 'expected "cel", "jp" or "jmespath", got "cell" (did you mean "cel"?)';
    expect(await errors(workflow({ next: [{ id: 'DONE', if: cell }] }))).toEqual([
      `tools[0].context.task.steps[0].next[0].if.type: ${allowed}`,
    ]);
    expect(await errors(workflow({ instructions: [{ if: cell, text: 'Ask' }] }))).toEqual([
      `tools[0].context.task.steps[0].instructions[0].if.type: ${allowed}`,
    ]);
    expect(
      await errors(workflow({ on: { submit: [{ action: 'set', name: 'x', valueFrom: cell }] } })),
    ).toEqual([`tools[0].context.task.steps[0].on.submit[0].valueFrom.type: ${allowed}`]);
  });

  it('a value that fits no form keeps the message naming the forms', async () => {
    expect(await errors(workflow({ next: [5] }))).toEqual([
      'tools[0].context.task.steps[0].next[0]: expected a step id or {"id": …, "if"?: …, "requires"?: […]}',
    ]);
    expect(await errors(workflow({ next: [{ id: 'DONE', iff: 'true' }] }))).toEqual([
      expect.stringMatching(/next\[0\]\.iff: is not a field here \(did you mean `if`\?\)/),
    ]);
  });
});
