/**
 * Compiles a definition's `context.task` (one task or a list) into {@link WorkflowTask}s, and
 * lints what a schema cannot see: `next` naming unknown steps, unreachable steps, inputs
 * referenced (`requires`, `save.inputs`, `get.inputs`) but never declared, expressions that do not
 * compile, duplicate step ids. Cross-tool checks (submit tool names colliding with tools, `call`
 * naming unknown tools) are in lint-workflows.ts.
 */
import type { z } from 'zod';
import type { DefinitionIssue } from '../../errors.js';
import { joinPath } from '../json-path.js';
import type { ValidatorFactory } from '../validator.js';
import { checkMustache } from '../../expressions/mustache.js';
import { compileExpression, type CompiledExpression } from '../../expressions/expression.js';
import {
  taskSchema,
  type RawAction,
  type RawExpression,
  type RawInput,
  type RawStep,
  type RawTask,
  type RawVariable,
} from './schema.js';
import type {
  GeneratedTool,
  Instruction,
  JsonSchemaObject,
  TaskVariable,
  Transition,
  ValueSource,
  VariableTarget,
  WorkflowAction,
  WorkflowInput,
  WorkflowStep,
  WorkflowTask,
} from './types.js';

/** Where the task sits and what compiles schemas. */
export interface CompileTaskOptions {
  /** JSON path of the `context` field, e.g. `tools[2].context`. */
  readonly path: string;
  readonly file: string | undefined;
  /** The function name of the definition holding the task. */
  readonly owner: string;
  readonly validators: ValidatorFactory;
}

/** The compiled tasks (empty when any error was found) and every issue. */
export interface CompileTaskResult {
  readonly tasks: readonly WorkflowTask[];
  readonly issues: readonly DefinitionIssue[];
}

const FORBIDDEN = new Set(['__proto__', 'prototype', 'constructor']);

/** Compiles `context` as written (absent, null, or `{ task }`). */
export function compileContext(context: unknown, options: CompileTaskOptions): CompileTaskResult {
  const issues: DefinitionIssue[] = [];
  const at = (
    path: string,
    code: string,
    message: string,
    severity: 'error' | 'warning' = 'error',
  ) =>
    issues.push({
      code,
      severity,
      path,
      message,
      ...(options.file !== undefined ? { file: options.file } : {}),
    });
  if (context === undefined || context === null) return { tasks: [], issues };
  if (typeof context !== 'object' || Array.isArray(context)) {
    at(options.path, 'schema', 'expected an object with "task"');
    return { tasks: [], issues };
  }
  if (!Object.hasOwn(context, 'task')) return { tasks: [], issues };
  const rawTask = (context as { task?: unknown }).task;
  if (rawTask === null || rawTask === undefined) return { tasks: [], issues };
  const taskPath = joinPath(options.path, 'task');
  const list = Array.isArray(rawTask) ? rawTask : [rawTask];
  const tasks: WorkflowTask[] = [];
  list.forEach((value, i) => {
    const path = Array.isArray(rawTask) ? `${taskPath}[${i}]` : taskPath;
    // `type` defaults to "steps" in the SDK's StepsTask schema.
    const typed =
      value !== null &&
      typeof value === 'object' &&
      !Array.isArray(value) &&
      !Object.hasOwn(value, 'type')
        ? { ...value, type: 'steps' }
        : value;
    const parsed = taskSchema.safeParse(typed);
    if (!parsed.success) {
      for (const zi of parsed.error.issues) at(zodPath(path, zi), 'schema', zi.message);
      return;
    }
    const key = parsed.data.id ?? `${options.owner}#${i}`;
    const task = compileTask(parsed.data, key, path, options, at);
    if (task !== undefined) tasks.push(task);
  });
  const keys = new Set<string>();
  tasks.forEach((t) => {
    if (keys.has(t.key)) at(taskPath, 'duplicate_task', `two tasks have the id "${t.key}"`);
    keys.add(t.key);
  });
  return { tasks: issues.some((i) => i.severity === 'error') ? [] : tasks, issues };
}

type At = (path: string, code: string, message: string, severity?: 'error' | 'warning') => void;

function compileTask(
  raw: RawTask,
  key: string,
  path: string,
  options: CompileTaskOptions,
  at: At,
): WorkflowTask | undefined {
  const p = (...s: (string | number)[]) =>
    s.reduce<string>(
      (acc, seg) => (typeof seg === 'number' ? `${acc}[${seg}]` : joinPath(acc, seg)),
      path,
    );
  const expr = (
    value: RawExpression | null | undefined,
    where: string,
  ): CompiledExpression | undefined => {
    if (value === null || value === undefined) return undefined;
    const result = compileExpression(value);
    if (!result.ok) {
      at(where, 'bad_expression', result.message);
      return undefined;
    }
    return result.expression;
  };
  const variables = (raw.variables ?? []).map((v, i) =>
    compileVariable(v, p('variables', i), expr, at),
  );
  const base = { key, owner: options.owner, variables };
  const compileActions = (
    list: readonly RawAction[] | null | undefined,
    where: string,
    inputs?: ReadonlySet<string>,
  ) => (list ?? []).map((a, i) => compileAction(a, `${where}[${i}]`, expr, at, inputs));

  switch (raw.type) {
    case 'import':
      at(
        p('type'),
        'unsupported_task',
        'import tasks load tool files at run time (Syllable: local developer use only); inline the tool instead',
      );
      return undefined;
    case 'event':
      return {
        ...base,
        type: 'event',
        on: { start: compileActions(raw.on?.start, p('on', 'start')) },
      };
    case 'expression': {
      const inputs = (raw.inputs ?? []).map(toInput);
      const declared = new Set(inputs.map((x) => x.name));
      checkInputNames(raw.inputs ?? [], p('inputs'), at);
      const tool = generateTool(raw.inputs ?? [], false, [], p('inputs'), options, at);
      if (raw.expression === undefined || raw.expression === null) {
        if (raw.output === undefined)
          at(
            p('expression'),
            'missing_expression',
            'an expression task needs "expression" or "output"',
          );
      }
      const expression = expr(raw.expression, p('expression'));
      if (tool === undefined) return undefined;
      return {
        ...base,
        type: 'expression',
        toolName: raw.tool?.name ?? options.owner,
        description: raw.tool?.description ?? '',
        inputs,
        tool,
        ...(expression !== undefined ? { expression } : {}),
        hasOutput: raw.output !== undefined,
        ...(raw.output !== undefined ? { output: structuredClone(raw.output) } : {}),
        on: {
          start: compileActions(raw.on?.start, p('on', 'start')),
          submit: compileActions(raw.on?.submit, p('on', 'submit'), declared),
        },
      };
    }
    case 'steps': {
      const ids = new Set<string>();
      raw.steps.forEach((s, i) => {
        if (ids.has(s.id))
          at(p('steps', i, 'id'), 'duplicate_step', `step id "${s.id}" is used twice`);
        ids.add(s.id);
      });
      const steps: WorkflowStep[] = [];
      raw.steps.forEach((s, i) => {
        const step = compileStep(s, p('steps', i), ids, options, expr, at, compileActions);
        if (step !== undefined) steps.push(step);
        if (i > 0 && (s.on?.start?.length ?? 0) > 0)
          at(
            p('steps', i, 'on', 'start'),
            'unused_hook',
            'on.start runs only for the first step; ignored',
            'warning',
          );
      });
      // Reachability from the first step.
      const reached = new Set<string>();
      const queue = raw.steps.length > 0 ? [raw.steps[0]!.id] : [];
      const byId = new Map(raw.steps.map((s) => [s.id, s] as const));
      while (queue.length > 0) {
        const id = queue.pop()!;
        if (reached.has(id)) continue;
        reached.add(id);
        for (const n of byId.get(id)?.next ?? []) queue.push(typeof n === 'string' ? n : n.id);
      }
      const goTo = raw.steps.some(
        (s) => (s.tools?.allowGoToStep ?? s.tools?.allow_go_to_step) === true,
      );
      raw.steps.forEach((s, i) => {
        if (!reached.has(s.id) && !goTo)
          at(
            p('steps', i, 'id'),
            'unreachable_step',
            `step "${s.id}" is never reached from "${raw.steps[0]!.id}"`,
            'warning',
          );
      });
      if (steps.length !== raw.steps.length) return undefined;
      return {
        ...base,
        type: 'steps',
        submitName: raw.tool?.name ?? options.owner,
        description: raw.tool?.description ?? steps[0]!.goal,
        start: raw.start ?? 'auto',
        steps,
        stepById: new Map(steps.map((s) => [s.id, s] as const)),
      };
    }
    default: {
      const _exhaustive: never = raw;
      return _exhaustive;
    }
  }
}

function compileStep(
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

function compileAction(
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
      return {
        action: 'call',
        tool: a.name,
        ...(a.arguments ? { arguments: structuredClone(a.arguments) } : {}),
        save,
        ...ifPart,
      };
    }
    case 'say':
      checkTemplate(a.text, joinPath(path, 'text'), at);
      return { action: 'say', text: a.text, role: a.role ?? 'assistant', ...ifPart };
    default: {
      const _exhaustive: never = a;
      return _exhaustive;
    }
  }
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
  if (a.value !== undefined && from !== undefined && from !== null) {
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

function compileVariable(
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

function toInput(i: RawInput): WorkflowInput {
  return { name: i.name, required: i.required ?? true };
}

function checkInputNames(inputs: readonly RawInput[], path: string, at: At): void {
  const seen = new Set<string>();
  inputs.forEach((i, n) => {
    if (FORBIDDEN.has(i.name))
      at(`${path}[${n}].name`, 'forbidden_name', `"${i.name}" cannot be an input name`);
    if (i.name === 'go_to_step')
      at(`${path}[${n}].name`, 'reserved_name', '"go_to_step" is reserved for allowGoToStep');
    if (seen.has(i.name))
      at(`${path}[${n}].name`, 'duplicate_input', `input "${i.name}" is declared twice`);
    seen.add(i.name);
  });
}

/** The submit tool's JSON Schema (parameters from the inputs) and its compiled validator. */
function generateTool(
  inputs: readonly RawInput[],
  goToStep: boolean,
  stepIds: readonly string[],
  path: string,
  options: CompileTaskOptions,
  at: At,
): GeneratedTool | undefined {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const i of inputs) {
    const schema: JsonSchemaObject = {};
    if (i.type !== undefined && i.type !== null) schema['type'] = i.type;
    for (const k of ['description', 'title', 'format', 'pattern', 'enum', 'examples'] as const) {
      const v = i[k];
      if (v !== undefined && v !== null) schema[k] = structuredClone(v);
    }
    Object.defineProperty(properties, i.name, {
      value: schema,
      enumerable: true,
      writable: true,
      configurable: true,
    });
    if (i.required ?? true) required.push(i.name);
  }
  if (goToStep)
    properties['go_to_step'] = {
      type: 'string',
      enum: [...stepIds],
      description: 'Escape hatch: jump to this step instead of submitting the current one.',
    };
  // Closed: a key the definition did not declare is refused, so a submission can never carry a
  // name a later `save` would write over a session variable.
  const parameters: JsonSchemaObject = {
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
  try {
    return { parameters, validator: options.validators.compile(parameters) };
  } catch (error) {
    at(
      path,
      'bad_schema',
      `the inputs do not make a valid JSON Schema: ${(error as Error).message}`,
    );
    return undefined;
  }
}

function checkTemplate(text: string, path: string, at: At): void {
  const problem = checkMustache(text);
  if (problem) at(path, 'template_syntax', `invalid mustache template: ${problem}`);
}

function templateProblems(value: unknown, path: string, at: At): void {
  if (typeof value === 'string') checkTemplate(value, path, at);
  else if (Array.isArray(value)) value.forEach((v, i) => templateProblems(v, `${path}[${i}]`, at));
  else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) templateProblems(v, joinPath(path, k), at);
}

function zodPath(base: string, zi: z.core.$ZodIssue): string {
  let path = base;
  for (const seg of zi.path)
    path = typeof seg === 'number' ? `${path}[${seg}]` : joinPath(path, String(seg));
  return path;
}
