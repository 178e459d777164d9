/**
 * Activation of workflow tasks (docs/workflows.md, "Activation"): at the session's first user
 * input for `start: auto` steps tasks, expression and event tasks; at the first call of its submit
 * tool for `start: manual`. A task whose hooks hit a workflow limit is not started: its state is
 * removed (so the next input tries again), nothing it wrote is kept, and the failure is reported
 * (a `tool-error` event, and for a steps task the synthetic call's result).
 */
import type { ToolDefinition } from '../../definition/types.js';
import { isToolError, ToolError } from '../../errors.js';
import type { ToolCallResult } from '../execute-tool-call.js';
import type { LiveState } from '../session-state.js';
import type { TurnEvent } from '../types.js';
import { Execution, type ExecutionIO } from './execution.js';
import { generatedName, tasksOf } from './runtime.js';
import { setOwnValue, writableWorkflows, type WorkflowState } from './state.js';
import { enterStep, stepResult } from './submit-step.js';
import type { WorkflowTask } from '../../definition/workflow/types.js';

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
    const s = startState(task, state);
    const run = newRun(task, s, io);
    let output: unknown;
    let failure: ToolError | undefined;
    try {
      output = await startTask(task, s, run);
    } catch (err) {
      if (!isToolError(err)) throw err;
      failure = err;
      state.workflows.delete(task.key);
    }
    for (const r of run.nested) apply(r);
    nested.push(...run.nested);
    const id = task.type === 'steps' ? generateId() : undefined;
    if (failure !== undefined) {
      emit({
        type: 'tool-error',
        callId: id ?? `${task.key}:start`,
        tool: generatedName(task) ?? task.owner,
        code: failure.code,
        message: failure.message,
        durationSecs: 0,
        // Only workflow limits throw here; the next input tries again.
        retryable: true,
      });
      output = failure.toJSON();
    } else {
      for (const text of run.says)
        emit({ type: 'say', text, source: 'tool', tool: generatedName(task) ?? task.owner });
      if (run.wroteGlobals) {
        for (const k of Object.keys(run.globals)) setOwnValue(state.vars, k, run.globals[k]);
        emit({ type: 'vars', vars: { ...run.globals } });
      }
      emit({
        type: 'workflow',
        workflow: task.key,
        status: s.status,
        ...(s.step === undefined ? {} : { step: s.step }),
      });
    }
    if (task.type === 'steps' && id !== undefined) {
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

/** A task's fresh state, registered in the session. */
export function startState(task: WorkflowTask, state: LiveState): WorkflowState {
  const s: WorkflowState = { status: 'active', inputs: {}, local: {} };
  writableWorkflows(state).set(task.key, s);
  return s;
}

/** A run over a task's state; the inputs `get`/`save` see are step 1's (steps) or the task's. */
export function newRun(task: WorkflowTask, s: WorkflowState, io: ExecutionIO): Execution {
  const inputs =
    task.type === 'steps'
      ? (task.steps[0]?.inputs ?? [])
      : task.type === 'expression'
        ? task.inputs
        : [];
  return new Execution(io, s, () => inputs);
}

/** Runs a task's activation; the output is the synthetic submit result (steps tasks). */
export async function startTask(
  task: WorkflowTask,
  s: WorkflowState,
  run: Execution,
): Promise<unknown> {
  for (const v of task.variables)
    run.write({ scope: 'local', name: v.name }, run.value(v.value) ?? null);
  switch (task.type) {
    case 'steps': {
      const step = task.steps[0]!;
      await run.run(step.on.start);
      await enterStep(task, step, s, run);
      return { status: 'started', ...stepResult(task, s, run) };
    }
    case 'expression':
      await run.run(task.on.start);
      return undefined;
    case 'event':
      await run.run(task.on.start);
      s.status = 'completed';
      return undefined;
    default: {
      const _exhaustive: never = task;
      return _exhaustive;
    }
  }
}
