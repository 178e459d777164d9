import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { DefinitionError } from '../../src/errors.js';

const DIR = 'fixtures/syllable/workflows';

function container(task: unknown, name = 'flow'): Record<string, unknown> {
  return {
    type: 'context',
    context: { task },
    tool: { type: 'function', function: { name, parameters: { type: 'object', properties: {} } } },
  };
}

function steps(list: unknown[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { type: 'steps', id: 'wf', tool: { name: 'submit_wf' }, steps: list, ...extra };
}

async function errorsOf(tools: unknown): Promise<string[]> {
  try {
    await loadTools(tools);
  } catch (err) {
    if (err instanceof DefinitionError)
      return err.issues.filter((i) => i.severity === 'error').map((i) => `${i.path}: ${i.message}`);
    throw err;
  }
  return [];
}

describe('context.task: load', () => {
  it('loads every tutorial example and compiles its steps', async () => {
    const files = (await readdir(DIR)).filter((f) => f.endsWith('.tools.json'));
    expect(files.length).toBe(7);
    for (const f of files) {
      const set = await loadTools(join(DIR, f));
      const tasks = [...set.tools.values()].flatMap((t) => t.tasks);
      expect(tasks.length, f).toBe(1);
      expect(
        set.warnings.filter((w) => w.code === 'unknown_field'),
        f,
      ).toEqual([]);
    }
    const ex5 = await loadTools(join(DIR, 'ex05-conditional.tools.json'));
    const task = [...ex5.tools.values()][0]!.tasks[0]!;
    expect(task.type).toBe('steps');
    if (task.type !== 'steps') return;
    expect(task.submitName).toBe('submit_contact_info');
    expect(task.steps.map((s) => s.id)).toEqual([
      'COLLECT_NAME',
      'COLLECT_EMAIL',
      'COLLECT_TIME',
      'SCHEDULE_CALL',
      'SEND_EMAIL',
    ]);
    expect(task.steps[2]!.submit.parameters).toMatchObject({
      required: ['contact_time'],
      properties: { contact_time: { type: 'string', enum: expect.any(Array) } },
    });
  });

  it('refuses a malformed task with the path of each problem', async () => {
    const errors = await errorsOf([
      container(
        steps([
          { id: 'A', goal: 'a', on: { enter: [{ action: 'save' }] } },
          { id: 'B', goal: 7 },
          { id: 'C', goal: 'c', inputs: [{ name: 'x', type: 'text' }] },
        ]),
      ),
    ]);
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^tools\[0\]\.context\.task\.steps\[0\]\.on\.enter\[0\]\.action: on\.enter allows the actions get, set, inc, call, say; got "save"/,
        ),
        expect.stringMatching(
          /^tools\[0\]\.context\.task\.steps\[1\]\.goal: expected the step goal/,
        ),
        expect.stringMatching(
          /^tools\[0\]\.context\.task\.steps\[2\]\.inputs\[0\]\.type: expected one of string/,
        ),
      ]),
    );
    expect(await errorsOf([container({ type: 'loop', steps: [] })])).toEqual([
      expect.stringMatching(/^tools\[0\]\.context\.task\.type: expected a task with "type"/),
    ]);
  });

  it('lints unknown next ids, undeclared inputs, bad expressions and name collisions', async () => {
    const errors = await errorsOf([
      container(
        steps([
          {
            id: 'A',
            goal: 'a',
            inputs: [{ name: 'x' }],
            on: { submit: [{ action: 'save', inputs: ['y'] }] },
            next: [
              { id: 'NOPE' },
              { id: 'B', requires: ['z'], if: 'inputs.x ==' },
              { id: 'B', if: { type: 'cel', expression: 'inputs.x +' } },
            ],
          },
          { id: 'B', goal: 'b' },
        ]),
      ),
    ]);
    const p = 'tools[0].context.task.steps[0]';
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          new RegExp(`^${escape(p)}\\.next\\[0\\]\\.id: names no step: "NOPE"`),
        ),
        expect.stringMatching(
          new RegExp(`^${escape(p)}\\.next\\[1\\]\\.requires\\[0\\]: input "z" is not declared`),
        ),
        expect.stringMatching(new RegExp(`^${escape(p)}\\.next\\[1\\]\\.if: invalid JMESPath`)),
        expect.stringMatching(new RegExp(`^${escape(p)}\\.next\\[2\\]\\.if: invalid CEL`)),
        expect.stringMatching(
          new RegExp(
            `^${escape(p)}\\.on\\.submit\\[0\\]\\.inputs\\[0\\]: input "y" is not declared`,
          ),
        ),
      ]),
    );
  });

  it('refuses generated tool names that collide and calls to unknown tools', async () => {
    const errors = await errorsOf([
      container(
        steps([{ id: 'A', goal: 'a', on: { enter: [{ action: 'call', name: 'missing_tool' }] } }]),
      ),
      { type: 'action', result: 1, tool: { type: 'function', function: { name: 'submit_wf' } } },
      container(steps([{ id: 'A', goal: 'a' }], { id: 'other' }), 'flow2'),
    ]);
    expect(errors).toEqual([
      'tools[0].context.task.tool.name: generated tool "submit_wf" has the name of tools[1]',
      'tools[0].context.task.steps[0].on.enter[0].name: calls tool "missing_tool", which is not defined',
      'tools[2].context.task.tool.name: generated tool "submit_wf" has the name of tools[1]',
      'tools[2].context.task.tool.name: generated tool "submit_wf" is also generated by task "wf"',
    ]);
  });

  it('warns about unreachable steps', async () => {
    const set = await loadTools([
      container(
        steps([
          { id: 'A', goal: 'a' },
          { id: 'B', goal: 'b' },
        ]),
      ),
    ]);
    expect(set.warnings.map((w) => `${w.code} ${w.path}`)).toContain(
      'unreachable_step tools[0].context.task.steps[1].id',
    );
  });

  it('bounds hostile expressions at load: long, deep and nested comprehensions', async () => {
    const long = `inputs.x == '${'a'.repeat(3000)}'`;
    const deep = `${'('.repeat(200)}inputs.x${')'.repeat(200)}`;
    const slow = '[1,2].all(a, [1,2].all(b, [1,2].all(c, [1,2].all(d, true))))';
    const errors = await errorsOf([
      container(
        steps([
          {
            id: 'A',
            goal: 'a',
            next: [
              { id: 'A', if: long },
              { id: 'A', if: deep },
              { id: 'A', if: { type: 'cel', expression: deep } },
              { id: 'A', if: { type: 'cel', expression: slow } },
            ],
          },
        ]),
      ),
    ]);
    // Each refused by its bound (no wall-clock check: a loaded machine would fail one).
    expect(errors).toEqual([
      expect.stringMatching(/next\[0\]\.if: expression is 3\d{3} characters long; at most 2000/),
      expect.stringMatching(/next\[1\]\.if: expression nests brackets deeper than 32/),
      expect.stringMatching(/next\[2\]\.if: expression nests brackets deeper than 32/),
      expect.stringMatching(/next\[3\]\.if: CEL comprehensions nest 4 deep; at most 2/),
    ]);
  });

  it('counts bracket depth exactly, and only outside string literals', async () => {
    const nest = (n: number) => `${'('.repeat(n)}inputs.x${')'.repeat(n)}`;
    // Closing brackets first cannot bank depth for the openings after them.
    const banked = `inputs.x == ')))))))))))))))))))))' || ${nest(33)}`;
    const inString = `inputs.x == '${'('.repeat(40)}'`;
    const escaped = `inputs.x == '\\'' + '${'('.repeat(40)}'`;
    const errors = await errorsOf([
      container(
        steps([
          {
            id: 'A',
            goal: 'a',
            next: [
              { id: 'A', if: { type: 'cel', expression: nest(32) } },
              { id: 'A', if: { type: 'cel', expression: nest(33) } },
              { id: 'A', if: { type: 'cel', expression: `)))) == ${nest(33)}` } },
              { id: 'A', if: { type: 'cel', expression: inString } },
              { id: 'A', if: { type: 'cel', expression: escaped } },
              { id: 'A', if: { type: 'cel', expression: banked } },
            ],
          },
        ]),
      ),
    ]);
    expect(errors).toEqual([
      expect.stringMatching(/next\[1\]\.if: expression nests brackets deeper than 32/),
      expect.stringMatching(/next\[2\]\.if: expression nests brackets deeper than 32/),
      expect.stringMatching(/next\[5\]\.if: expression nests brackets deeper than 32/),
    ]);
  });

  it('accepts both spellings of valueFrom and allowGoToStep', async () => {
    const set = await loadTools([
      container(
        steps([
          {
            id: 'A',
            goal: 'a',
            tools: { allow_go_to_step: true },
            on: {
              enter: [
                { action: 'set', name: 'local.a', value_from: 'inputs.x' },
                { action: 'set', name: 'local.b', valueFrom: { type: 'cel', expression: '1 + 1' } },
              ],
            },
          },
          { id: 'B', goal: 'b' },
        ]),
      ),
    ]);
    const task = [...set.tools.values()][0]!.tasks[0]!;
    if (task.type !== 'steps') throw new Error('expected steps');
    expect(task.steps[0]!.tools.allowGoToStep).toBe(true);
    expect(task.steps[0]!.on.enter.map((a) => a.action)).toEqual(['set', 'set']);
  });
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('context.task: Syllable defaults', () => {
  it('a task without type is a steps task; an import task is dropped with a warning', async () => {
    const set = await loadTools([
      container({ id: 'untyped', tool: { name: 'submit_u' }, steps: [{ id: 'A', goal: 'a' }] }),
      container({ type: 'import', file: 'x.json' }, 'imported'),
    ]);
    const tasks = [...set.tools.values()].flatMap((t) => t.tasks);
    expect(tasks.map((t) => [t.key, t.type])).toEqual([['untyped', 'steps']]);
    expect(set.warnings.map((w) => w.code)).toContain('task_not_supported');
  });
});
