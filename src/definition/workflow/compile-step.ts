/**
 * Compiles one step of a steps task: its instructions, its `next` transitions (naming known
 * steps and declared inputs), its hooks and its submit tool.
 */
import type { CompiledExpression } from '../../expressions/expression.js';
import { joinPath } from '../json-path.js';
import type { RawAction, RawExpression, RawStep } from './schema.js';
import type { Instruction, Transition, WorkflowAction, WorkflowStep } from './types.js';
import { checkTemplate } from './compile-action.js';
import type { At, CompileTaskOptions } from './compile-options.js';
import { checkInputNames, generateTool, toInput } from './generate-tool.js';

export function compileStep(
  s: RawStep,
  path: string,
  ids: ReadonlySet<string>,
  options: CompileTaskOptions,
  expr: (value: RawExpression | null | undefined, where: string) => CompiledExpression | undefined,
  at: At,
  compileActions: (
    list: readonly RawAction[] | null | undefined,
    where: string,
    inputs?: ReadonlySet<string>,
  ) => WorkflowAction[],
): WorkflowStep | undefined {
  const p = (...seg: (string | number)[]) =>
    seg.reduce<string>(
      (acc, x) => (typeof x === 'number' ? `${acc}[${x}]` : joinPath(acc, x)),
      path,
    );
  const rawInputs = s.inputs ?? [];
  checkInputNames(rawInputs, p('inputs'), at);
  const declared = new Set(rawInputs.map((x) => x.name));
  const instructions: Instruction[] = [];
  const lines = typeof s.instructions === 'string' ? [s.instructions] : (s.instructions ?? []);
  lines.forEach((line, i) => {
    const where = typeof s.instructions === 'string' ? p('instructions') : p('instructions', i);
    const text = typeof line === 'string' ? line : line.text;
    checkTemplate(text, typeof line === 'string' ? where : joinPath(where, 'text'), at);
    const cond = typeof line === 'string' ? undefined : expr(line.if, joinPath(where, 'if'));
    instructions.push({ text, ...(cond !== undefined ? { if: cond } : {}) });
  });
  const next: Transition[] = [];
  (s.next ?? []).forEach((n, i) => {
    const where = p('next', i);
    const id = typeof n === 'string' ? n : n.id;
    if (!ids.has(id))
      at(
        typeof n === 'string' ? where : joinPath(where, 'id'),
        'unknown_step',
        `names no step: "${id}" (steps: ${[...ids].join(', ')})`,
      );
    const requires = typeof n === 'string' ? [] : (n.requires ?? []);
    requires.forEach((r, j) => {
      if (!declared.has(r))
        at(
          `${joinPath(where, 'requires')}[${j}]`,
          'unknown_input',
          `input "${r}" is not declared by step "${s.id}"`,
        );
    });
    const cond = typeof n === 'string' ? undefined : expr(n.if, joinPath(where, 'if'));
    next.push({ id, requires, ...(cond !== undefined ? { if: cond } : {}) });
  });
  const allowGoToStep = (s.tools?.allowGoToStep ?? s.tools?.allow_go_to_step) === true;
  const submit = generateTool(rawInputs, allowGoToStep, [...ids], p('inputs'), options, at);
  const on = {
    start: compileActions(s.on?.start, p('on', 'start'), declared),
    enter: compileActions(s.on?.enter, p('on', 'enter'), declared),
    presubmit: compileActions(s.on?.presubmit, p('on', 'presubmit'), declared),
    submit: compileActions(s.on?.submit, p('on', 'submit'), declared),
  };
  if (submit === undefined) return undefined;
  return {
    id: s.id,
    goal: s.goal,
    instructions,
    inputs: rawInputs.map(toInput),
    inputNames: declared,
    submit,
    on,
    next,
    tools: {
      ...(s.tools?.allow !== undefined && s.tools.allow !== null
        ? { allow: [...s.tools.allow] }
        : {}),
      call: s.tools?.call === true,
      allowGoToStep,
    },
  };
}
