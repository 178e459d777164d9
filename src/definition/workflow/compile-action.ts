/**
 * Compiles one hook action (`set`, `get`, `inc`, `save`, `call`, `say`) and a task's variables,
 * checking their targets, value sources and mustache templates.
 */
import { checkMustache } from '../../expressions/mustache.js';
import type { CompiledExpression } from '../../expressions/expression.js';
import { joinPath } from '../json-path.js';
import type { RawAction, RawExpression, RawVariable } from './schema.js';
import type { TaskVariable, ValueSource, VariableTarget, WorkflowAction } from './types.js';
import { FORBIDDEN, type At } from './compile-options.js';

export function compileAction(
  a: RawAction,
  path: string,
  expr: (value: RawExpression | null | undefined, where: string) => CompiledExpression | undefined,
  at: At,
  inputs: ReadonlySet<string> | undefined,
): WorkflowAction {
  const cond = expr(a.if, joinPath(path, 'if'));
  const ifPart = cond !== undefined ? { if: cond } : {};
  const checkInputs = (names: readonly string[] | null | undefined): void => {
    (names ?? []).forEach((n, i) => {
      if (inputs !== undefined && !inputs.has(n))
        at(
          `${joinPath(path, 'inputs')}[${i}]`,
          'unknown_input',
          `input "${n}" is not declared by this step`,
        );
    });
  };
  switch (a.action) {
    case 'set':
      return {
        action: 'set',
        target: target(a.name, joinPath(path, 'name'), at, inputs),
        value: valueSource(a, path, expr, at),
        ...ifPart,
      };
    case 'get':
    case 'load':
      checkInputs(a.inputs);
      return {
        action: 'get',
        ...(a.inputs ? { inputs: [...a.inputs] } : {}),
        overwrite: a.overwrite ?? false,
        value: valueSource(a, path, expr, at),
        ...ifPart,
      };
    case 'inc':
      return {
        action: 'inc',
        target: target(a.name, joinPath(path, 'name'), at, inputs),
        by: a.by ?? 1,
        ...ifPart,
      };
    case 'save':
      checkInputs(a.inputs);
      return {
        action: 'save',
        ...(a.name ? { target: target(a.name, joinPath(path, 'name'), at, inputs) } : {}),
        ...(a.inputs ? { inputs: [...a.inputs] } : {}),
        ...ifPart,
      };
    case 'call': {
      const save = (a.result?.save ?? []).flatMap((m, i) => {
        const where = `${joinPath(joinPath(path, 'result'), 'save')}[${i}]`;
        const from = expr(m.from, joinPath(where, 'from'));
        const to = target(m.to, joinPath(where, 'to'), at, inputs);
        return from === undefined ? [] : [{ from, to }];
      });
      if (a.arguments) templateProblems(a.arguments, joinPath(path, 'arguments'), at);
      const autoPopulate = autoPopulateOf(a.autoPopulate, joinPath(path, 'autoPopulate'), at);
      if (!autoPopulate && save.length > 0)
        at(
          joinPath(joinPath(path, 'result'), 'save'),
          'field_not_honoured',
          'result.save applies only to a call the engine makes; with autoPopulate false the model makes it, so nothing is saved',
          'warning',
        );
      return {
        action: 'call',
        tool: a.name,
        autoPopulate,
        ...(a.arguments ? { arguments: structuredClone(a.arguments) } : {}),
        save,
        ...ifPart,
      };
    }
    case 'say':
      checkTemplate(a.text, joinPath(path, 'text'), at);
      if (a.role === 'user')
        at(
          joinPath(path, 'role'),
          'field_not_honoured',
          'role "user" is spoken like "assistant": a session has no way to speak as the user',
          'warning',
        );
      return { action: 'say', text: a.text, role: a.role ?? 'assistant', ...ifPart };
    default: {
      const _exhaustive: never = a;
      return _exhaustive;
    }
  }
}

/** `autoPopulate` as written → true when the engine may make the call itself. */
function autoPopulateOf(value: boolean | string | null | undefined, path: string, at: At): boolean {
  if (value === false) return false;
  if (value === undefined || value === null || value === true || value === 'required') return true;
  at(
    path,
    'field_not_honoured',
    `autoPopulate "${value}" is not a documented strategy (true, false or "required"); treated as true`,
    'warning',
  );
  return true;
}

function valueSource(
  a: {
    value?: unknown;
    valueFrom?: RawExpression | null | undefined;
    value_from?: RawExpression | null | undefined;
  },
  path: string,
  expr: (value: RawExpression | null | undefined, where: string) => CompiledExpression | undefined,
  at: At,
): ValueSource {
  const from = a.valueFrom ?? a.value_from;
  const fromKey = a.valueFrom !== undefined && a.valueFrom !== null ? 'valueFrom' : 'value_from';
  // Syllable's API writes the unset one of the pair as null (OptionalNullable): a null `value`
  // beside a `valueFrom` is not set; on its own it is the literal null.
  if (a.value !== undefined && a.value !== null && from !== undefined && from !== null) {
    at(
      joinPath(path, fromKey),
      'value_and_value_from',
      '"value" and "valueFrom" are mutually exclusive',
    );
  }
  if (from !== undefined && from !== null) {
    const e = expr(from, joinPath(path, fromKey));
    return e === undefined ? { kind: 'none' } : { kind: 'expression', expression: e };
  }
  if (a.value !== undefined) return { kind: 'literal', value: structuredClone(a.value) };
  return { kind: 'none' };
}

export function compileVariable(
  v: RawVariable,
  path: string,
  expr: (value: RawExpression | null | undefined, where: string) => CompiledExpression | undefined,
  at: At,
): TaskVariable {
  if (FORBIDDEN.has(v.name))
    at(joinPath(path, 'name'), 'forbidden_name', `"${v.name}" cannot be a variable name`);
  return { name: v.name, value: valueSource(v, path, expr, at) };
}

/** `local.x` → the workflow's own variables; `inputs.x` → the step's inputs; else the session. */
function target(name: string, path: string, at: At, inputs?: ReadonlySet<string>): VariableTarget {
  const dot = name.indexOf('.');
  const head = dot < 0 ? name : name.slice(0, dot);
  const rest = dot < 0 ? '' : name.slice(dot + 1);
  const t: VariableTarget =
    (head === 'local' || head === 'inputs') && rest !== ''
      ? { scope: head, name: rest }
      : { scope: 'global', name };
  if (name.split('.').some((s) => FORBIDDEN.has(s) || s === ''))
    at(path, 'forbidden_name', `"${name}" is not a usable variable name`);
  // Inputs hold declared names only (the submit schema is closed), so a write elsewhere would
  // make every later submission fail validation.
  const input = t.name.split('.', 1)[0]!;
  if (t.scope === 'inputs' && inputs !== undefined && !inputs.has(input))
    at(path, 'unknown_input', `input "${input}" is not declared by this step`);
  return t;
}

export function checkTemplate(text: string, path: string, at: At): void {
  const problem = checkMustache(text);
  if (problem) at(path, 'template_syntax', `invalid mustache template: ${problem}`);
}

function templateProblems(value: unknown, path: string, at: At): void {
  if (typeof value === 'string') checkTemplate(value, path, at);
  else if (Array.isArray(value)) value.forEach((v, i) => templateProblems(v, `${path}[${i}]`, at));
  else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) templateProblems(v, joinPath(path, k), at);
}
