/**
 * Compiles a definition's `context.task` (one task or a list) into {@link WorkflowTask}s, and
 * lints what a schema cannot see: `next` naming unknown steps, unreachable steps, inputs
 * referenced (`requires`, `save.inputs`, `get.inputs`) but never declared, expressions that do not
 * compile, duplicate step ids. Cross-tool checks (submit tool names colliding with tools, `call`
 * naming unknown tools) are in lint-workflows.ts; steps, actions and submit tools compile in
 * compile-step.ts, compile-action.ts and generate-tool.ts.
 */
import type { z } from 'zod';
import type { DefinitionIssue } from '../../errors.js';
import { joinPath } from '../json-path.js';
import { getOwn } from '../../own-data.js';
import { didYouMean } from '../../did-you-mean.js';
import { keysAt } from '../../zod-keys.js';
import { deepestIssues } from '../../zod-union.js';
import { compileExpression, type CompiledExpression } from '../../expressions/expression.js';
import { taskSchemas, type RawAction, type RawExpression, type RawTask } from './schema.js';
import type { WorkflowStep, WorkflowTask } from './types.js';
import { compileAction, compileVariable } from './compile-action.js';
import type { At, CompileTaskOptions, CompileTaskResult } from './compile-options.js';
import { compileStep } from './compile-step.js';
import { checkInputNames, generateTool, toInput } from './generate-tool.js';

export type { CompileTaskOptions, CompileTaskResult } from './compile-options.js';

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
    const parsed = taskSchemas().taskSchema.safeParse(typed, { reportInput: true });
    if (!parsed.success) {
      for (const zi of deepestIssues(parsed.error.issues)) {
        if (zi.code !== 'unrecognized_keys') {
          at(zodPath(path, zi), 'schema', zi.message);
          continue;
        }
        // zod says only "Unrecognized key": name each at its own path, with the field meant.
        const known = keysAt(taskSchemas().taskSchema, zi.path);
        for (const key of zi.keys)
          at(
            joinPath(zodPath(path, zi), key),
            'schema',
            `is not a field here${didYouMean(key, known)}${known.length > 0 ? `; fields here: ${known.join(', ')}` : ''}`,
          );
      }
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
    if (typeof value === 'object' && 'case' in value)
      at(
        where,
        'case_expression',
        'Syllable reserves case expressions for future runtime support and does not run them yet; switchboard takes the first branch whose "if" holds',
        'warning',
      );
    const result = compileExpression(value);
    if (!result.ok) {
      at(where, 'bad_expression', result.message);
      return undefined;
    }
    if (result.expression.unknownFunction !== undefined)
      at(
        where,
        'unknown_function',
        `${result.expression.unknownFunction}: evaluating it always fails, so a condition is false and a value absent`,
        'warning',
      );
    return result.expression;
  };
  const variables = (raw.variables ?? []).map((v, i) =>
    compileVariable(v, p('variables', i), expr, at),
  );
  const base = { key, owner: options.owner, variables };
  ignoredTaskFields(raw, p, at);
  const compileActions = (
    list: readonly RawAction[] | null | undefined,
    where: string,
    inputs?: ReadonlySet<string>,
  ) => (list ?? []).map((a, i) => compileAction(a, `${where}[${i}]`, expr, at, inputs));
  // An expression or event task's hooks have no result the model reads, so a call there cannot
  // be handed to the model (autoPopulate false): the engine makes it.
  const engineCalls = (
    list: readonly RawAction[] | null | undefined,
    where: string,
    inputs?: ReadonlySet<string>,
  ) =>
    compileActions(list, where, inputs).map((a, i) => {
      if (a.action !== 'call' || a.autoPopulate) return a;
      at(
        `${where}[${i}].autoPopulate`,
        'field_not_honoured',
        `autoPopulate false needs a result the model reads; ${raw.type} task hooks have none, so the engine makes this call`,
        'warning',
      );
      return { ...a, autoPopulate: true };
    });

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
        on: { start: engineCalls(raw.on?.start, p('on', 'start')) },
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
          start: engineCalls(raw.on?.start, p('on', 'start')),
          submit: engineCalls(raw.on?.submit, p('on', 'submit'), declared),
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

/**
 * Task fields Syllable's SDK declares without a documented effect switchboard could reproduce:
 * each one present is named in a warning, so nothing is dropped silently.
 */
function ignoredTaskFields(raw: RawTask, p: (...s: string[]) => string, at: At): void {
  if (raw.config !== undefined && raw.config !== null && Object.keys(raw.config).length > 0)
    at(
      p('config'),
      'field_not_honoured',
      'task config has no documented meaning switchboard can apply; ignored',
      'warning',
    );
  const metadata: Readonly<Record<string, unknown>> = raw.metadata ?? {};
  for (const k of Object.keys(metadata)) {
    const v = getOwn(metadata, k);
    if (v === null || v === undefined) continue;
    at(
      p('metadata', k),
      'field_not_honoured',
      k === 'priority'
        ? 'metadata.priority has no documented effect switchboard can reproduce; ignored'
        : `metadata.${k} is not a field of Syllable's current task metadata; ignored`,
      'warning',
    );
  }
}

function zodPath(base: string, zi: z.core.$ZodIssue): string {
  let path = base;
  for (const seg of zi.path)
    path = typeof seg === 'number' ? `${path}[${seg}]` : joinPath(path, String(seg));
  return path;
}
