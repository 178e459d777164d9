/**
 * The workflow runtime as the session sees it (docs/workflows.md): which generated tools the model
 * sees and which it does not, the system context naming each active workflow's current step,
 * activation at the first user input, and the handling of a call to a generated tool (a steps
 * task's submit tool, an expression task's tool). Each call produces an ordinary
 * {@link ToolCallResult}, so results, effects and events flow through the session like any tool's.
 */
import type { ToolDefinition } from '../definition/types.js';
import { ToolError } from '../errors.js';
import type { ChatMessage, ChatTool, ModelToolCall } from '../models/types.js';
import type { SessionEffect } from '../handlers/types.js';
import type { ToolCallResult } from '../session/execute-tool-call.js';
import type { LiveState } from '../session/session-state.js';
import type { TurnEvent } from '../session/types.js';
import { Execution, type ExecutionIO } from './execution.js';
import { setOwnValue, writableWorkflows, type WorkflowState } from './state.js';
import { enterStep, stepView, submitStep } from './submit-step.js';
import type { ExpressionTask, StepsTask, WorkflowTask } from './types.js';

// Tool maps are never changed once built (a ToolSet's, or an agent's cached subset), and this is
// asked several times per round: kept per map.
const taskCache = new WeakMap<ReadonlyMap<string, ToolDefinition>, readonly WorkflowTask[]>();

/** The tasks of the tools the active agent may use, in tool order. */
export function tasksOf(tools: ReadonlyMap<string, ToolDefinition>): readonly WorkflowTask[] {
  let out = taskCache.get(tools);
  if (out === undefined) {
    const found: WorkflowTask[] = [];
    for (const def of tools.values()) found.push(...def.tasks);
    out = found;
    taskCache.set(tools, out);
  }
  return out;
}

/** True when some tool of the map holds workflow tasks. */
export function hasTasks(tools: ReadonlyMap<string, ToolDefinition>): boolean {
  return tasksOf(tools).length > 0;
}

/** The tools workflows hide from the model and the ones they add. */
export interface WorkflowTools {
  readonly hidden: ReadonlySet<string>;
  readonly extra: readonly ChatTool[];
}

/** A `start: manual` submit tool before activation takes nothing. */
const MANUAL_START_PARAMETERS = Object.freeze({
  type: 'object',
  properties: {},
  additionalProperties: false,
});

/** What {@link workflowTools} gives for tools without tasks: nothing hidden, nothing added. */
export const NO_WORKFLOW_TOOLS: WorkflowTools = Object.freeze({
  hidden: new Set<string>(),
  extra: Object.freeze([]),
});

/** The name of a task's generated tool (none for event tasks). */
export function generatedName(task: WorkflowTask): string | undefined {
  return task.type === 'steps'
    ? task.submitName
    : task.type === 'expression'
      ? task.toolName
      : undefined;
}

/**
 * What the model sees: definitions holding tasks are hidden (their tasks' tools replace them);
 * a steps task's submit tool is shown while its workflow is active (or, for `start: manual`,
 * before activation) and removed once completed; a current step's `tools.allow` hides every other
 * ordinary tool.
 */
export function workflowTools(
  state: LiveState,
  tools: ReadonlyMap<string, ToolDefinition>,
): WorkflowTools {
  if (!hasTasks(tools)) return NO_WORKFLOW_TOOLS;
  const hidden = new Set<string>();
  const extra: ChatTool[] = [];
  let allowed: Set<string> | undefined;
  for (const def of tools.values()) if (def.tasks.length > 0) hidden.add(def.name);
  for (const task of tasksOf(tools)) {
    const s = state.workflows.get(task.key);
    switch (task.type) {
      case 'steps': {
        if (s?.status === 'completed') break;
        const step = s === undefined ? undefined : task.stepById.get(s.step ?? '');
        if (s === undefined && task.start === 'auto') break;
        extra.push({
          type: 'function',
          function: {
            name: task.submitName,
            description: step?.goal ?? task.description,
            parameters: step?.submit.parameters ?? MANUAL_START_PARAMETERS,
          },
        });
        if (step?.tools.allow !== undefined) {
          const names = new Set(step.tools.allow);
          allowed =
            allowed === undefined ? names : new Set([...allowed].filter((n) => names.has(n)));
        }
        break;
      }
      case 'expression':
        extra.push({
          type: 'function',
          function: {
            name: task.toolName,
            description: task.description,
            parameters: task.tool.parameters,
          },
        });
        break;
      case 'event':
        break;
      default: {
        const _exhaustive: never = task;
        void _exhaustive;
      }
    }
  }
  if (allowed !== undefined) {
    for (const name of tools.keys()) if (!allowed.has(name)) hidden.add(name);
  }
  return { hidden, extra };
}

/** The system context: each active workflow's current step, goal and instructions. */
export function workflowContext(
  state: LiveState,
  tools: ReadonlyMap<string, ToolDefinition>,
  io: ExecutionIO,
): string | undefined {
  const parts: string[] = [];
  for (const task of tasksOf(tools)) {
    if (task.type !== 'steps') continue;
    const s = state.workflows.get(task.key);
    if (s?.status !== 'active') continue;
    const step = task.stepById.get(s.step ?? '');
    if (step === undefined) continue;
    const view = stepView(task, step, new Execution(io, s, () => step.inputs));
    parts.push(
      [
        `Workflow "${task.key}" — current step ${step.id}. Goal: ${step.goal}`,
        ...view.instructions.map((line) => `- ${line}`),
        `When the step is done, call ${task.submitName}.`,
      ].join('\n'),
    );
  }
  return parts.length === 0 ? undefined : parts.join('\n\n');
}

/** The task whose generated tool is called `name`, among the available tasks. */
export function taskForTool(
  state: LiveState,
  tools: ReadonlyMap<string, ToolDefinition>,
  name: string,
): WorkflowTask | undefined {
  for (const task of tasksOf(tools)) {
    if (generatedName(task) !== name) continue;
    if (task.type === 'steps') {
      const s = state.workflows.get(task.key);
      if (s?.status === 'completed' || (s === undefined && task.start === 'auto')) return undefined;
    }
    return task;
  }
  return undefined;
}

/**
 * Activates every task that has no state yet (auto steps tasks, expression and event tasks) at
 * the first user input: variables, `on.start`, the first step's `on.enter`; a steps task also
 * gets a synthetic submit-tool call in history whose result delivers step 1's instructions.
 * Emits `say`/`vars`/`workflow` events and returns nested tool calls (already applied).
 */
export async function activateTasks(
  state: LiveState,
  tools: ReadonlyMap<string, ToolDefinition>,
  io: ExecutionIO,
  generateId: () => string,
  apply: (result: ToolCallResult) => void,
  emit: (event: TurnEvent) => void,
): Promise<ToolCallResult[]> {
  const nested: ToolCallResult[] = [];
  for (const task of tasksOf(tools)) {
    if (state.workflows.has(task.key)) continue;
    if (task.type === 'steps' && task.start === 'manual') continue;
    const { run, output } = await activate(task, state, io);
    for (const r of run.nested) apply(r);
    nested.push(...run.nested);
    for (const text of run.says)
      emit({ type: 'say', text, source: 'tool', tool: generatedName(task) ?? task.owner });
    if (run.wroteGlobals) {
      for (const k of Object.keys(run.globals)) setOwnValue(state.vars, k, run.globals[k]);
      emit({ type: 'vars', vars: { ...run.globals } });
    }
    const s = state.workflows.get(task.key)!;
    emit({
      type: 'workflow',
      workflow: task.key,
      status: s.status,
      ...(s.step === undefined ? {} : { step: s.step }),
    });
    if (task.type === 'steps') {
      const id = generateId();
      state.history.push(
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id, type: 'function', function: { name: task.submitName, arguments: '{}' } },
          ],
        },
        { role: 'tool', tool_call_id: id, content: JSON.stringify(output) },
      );
    }
  }
  return nested;
}

async function activate(
  task: WorkflowTask,
  state: LiveState,
  io: ExecutionIO,
): Promise<{ run: Execution; output: unknown }> {
  const s: WorkflowState = { status: 'active', inputs: {}, local: {} };
  writableWorkflows(state).set(task.key, s);
  const first = task.type === 'steps' ? task.steps[0] : undefined;
  const run = new Execution(io, s, () => first?.inputs ?? []);
  for (const v of task.variables)
    run.write({ scope: 'local', name: v.name }, run.value(v.value) ?? null);
  switch (task.type) {
    case 'steps': {
      const step = task.steps[0]!;
      await run.run(step.on.start);
      await enterStep(task, step, s, run);
      return { run, output: { status: 'started', ...stepResult(task, s, run) } };
    }
    case 'expression':
      await run.run(task.on.start);
      return { run, output: undefined };
    case 'event':
      await run.run(task.on.start);
      s.status = 'completed';
      return { run, output: undefined };
    default: {
      const _exhaustive: never = task;
      return _exhaustive;
    }
  }
}

const locks = new WeakMap<WorkflowState | LiveState, Promise<unknown>>();

/** Handles a call to a generated tool; serialised per session so parallel calls see each other. */
export function callTask(
  task: WorkflowTask,
  call: ModelToolCall,
  args: Record<string, unknown>,
  state: LiveState,
  io: ExecutionIO,
  startedAt: number,
  now: () => number,
): Promise<ToolCallResult> {
  const previous = locks.get(state) ?? Promise.resolve();
  const next = previous.then(() => runTask(task, call, args, state, io, startedAt, now));
  locks.set(
    state,
    next.catch(() => undefined),
  );
  return next;
}

async function runTask(
  task: WorkflowTask,
  call: ModelToolCall,
  args: Record<string, unknown>,
  state: LiveState,
  io: ExecutionIO,
  startedAt: number,
  now: () => number,
): Promise<ToolCallResult> {
  let s = state.workflows.get(task.key);
  let run: Execution;
  let output: unknown;
  let error: ToolError | undefined;
  const before = s === undefined ? undefined : { status: s.status, step: s.step };
  switch (task.type) {
    case 'steps': {
      if (s === undefined) {
        // start: manual — the first call activates the workflow and delivers step 1.
        const activated = await activate(task, state, io);
        run = activated.run;
        output = activated.output;
        s = state.workflows.get(task.key)!;
        break;
      }
      run = new Execution(io, s, () => task.stepById.get(s!.step ?? '')?.inputs ?? []);
      const outcome = await submitStep(task, s, args, run);
      if (outcome.type === 'error') error = outcome.error;
      else output = Object.assign({}, outcome.output, stepResult(task, s, run));
      break;
    }
    case 'expression': {
      s ??= { status: 'active', inputs: {}, local: {} };
      writableWorkflows(state).set(task.key, s);
      const outcome = runExpression(task, s, args, io);
      run = outcome.run;
      if (outcome.error !== undefined) error = outcome.error;
      else {
        output = outcome.output;
        await run.run(task.on.submit);
      }
      break;
    }
    case 'event':
      throw new Error('event tasks have no tool');
    default: {
      const _exhaustive: never = task;
      return _exhaustive;
    }
  }
  const effects: SessionEffect[] = [];
  if (run.wroteGlobals) effects.push({ type: 'set-vars', vars: { ...run.globals } });
  for (const text of run.says) effects.push({ type: 'say', text });
  const after = state.workflows.get(task.key)!;
  if (before === undefined || before.status !== after.status || before.step !== after.step) {
    effects.push({
      type: 'workflow',
      workflow: task.key,
      status: after.status,
      ...(after.step === undefined ? {} : { step: after.step }),
    });
  }
  const base = {
    tool: call.name,
    args,
    duration_secs: Math.max(0, now() - startedAt) / 1000,
    callId: call.id,
    rawArguments: call.arguments,
    transform: [],
    requests: [],
  };
  if (error !== undefined) {
    const out = error.toJSON();
    return {
      call,
      trace: Object.assign({}, base, { output: out, isError: true, errorCode: error.code }),
      effects,
      content: JSON.stringify(out),
      nested: run.nested,
    };
  }
  return {
    call,
    trace: Object.assign({}, base, { output, isError: false }),
    effects,
    content: typeof output === 'string' ? output : (JSON.stringify(output) ?? 'null'),
    nested: run.nested,
  };
}

function runExpression(
  task: ExpressionTask,
  s: WorkflowState,
  args: Record<string, unknown>,
  io: ExecutionIO,
): { run: Execution; output?: unknown; error?: ToolError } {
  const run = new Execution(io, s, () => task.inputs);
  // Validated before it becomes state: a refused call leaves the previous inputs as they were.
  const check = task.tool.validator.validate(args);
  if (!check.ok) {
    const text = check.failures
      .map((f) => `${f.path === '' ? '(root)' : f.path}: ${f.message}`)
      .join('; ');
    return {
      run,
      error: new ToolError('invalid_arguments', `arguments do not match the inputs: ${text}`),
    };
  }
  s.inputs = JSON.parse(JSON.stringify(args)) as Record<string, unknown>;
  const value = task.expression?.evaluate(run.data()) ?? null;
  const output = task.hasOutput ? run.renderDeep(task.output, { result: value }) : value;
  return { run, output };
}

/** The part of a submit result describing where the workflow now stands. */
function stepResult(task: StepsTask, s: WorkflowState, run: Execution): Record<string, unknown> {
  const out: Record<string, unknown> = { workflow: task.key };
  if (s.status === 'completed') {
    out['status'] = 'completed';
    out['message'] = 'The workflow is complete; respond to the user freely.';
  } else {
    const step = task.stepById.get(s.step ?? '')!;
    const view = stepView(task, step, run);
    out['step'] = step.id;
    out['goal'] = step.goal;
    out['instructions'] = view.instructions;
    if (step.tools.call)
      out['call_now'] = `Call ${task.submitName} now, without waiting for the user.`;
  }
  if (run.says.length > 0) out['say'] = [...run.says];
  if (run.pending.length > 0) out['pending_tool_calls'] = run.pending;
  return out;
}

/** Messages of a synthetic call, exported for tests of the history shape. */
export type SyntheticMessages = readonly [ChatMessage, ChatMessage];
