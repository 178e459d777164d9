/**
 * A call of a generated tool (a steps task's submit tool, an expression task's tool), serialised
 * per session so parallel calls see each other. Each call produces an ordinary
 * {@link ToolCallResult}, so results, effects and events flow through the session like any tool's.
 *
 * A call refused by a workflow limit (`expression_budget`, `result_too_large`) is applied not at
 * all: the task's state is put back as it was before the call (or removed, when the call was the
 * manual activation), and the session-variable writes and `say` texts of the call are dropped.
 * Tools its `call` actions ran did run; their results are reported as usual.
 */
import { isToolError, ToolError } from '../../errors.js';
import type { SessionEffect } from '../../handlers/types.js';
import type { ModelToolCall } from '../../models/types.js';
import type { ToolCallResult } from '../execute-tool-call.js';
import type { LiveState } from '../session-state.js';
import { newRun, startState, startTask } from './activate.js';
import { checkResultSize } from '../../expressions/budget.js';
import { Execution, type ExecutionIO } from './execution.js';
import { copyState, restoreState, type WorkflowState } from './state.js';
import { stepResult, submitStep } from './submit-step.js';
import type { ExpressionTask, WorkflowTask } from '../../definition/workflow/types.js';

const locks = new WeakMap<WorkflowState | LiveState, Promise<unknown>>();

/** One call of a generated tool, as the round hands it over. */
export interface TaskCall {
  readonly task: WorkflowTask;
  readonly call: ModelToolCall;
  readonly args: Record<string, unknown>;
  readonly state: LiveState;
  readonly io: ExecutionIO;
  /** When the call started (the session clock), for its trace's duration. */
  readonly startedAt: number;
  readonly now: () => number;
}

/** Handles a call to a generated tool; serialised per session so parallel calls see each other. */
export function callTask(c: TaskCall): Promise<ToolCallResult> {
  const previous = locks.get(c.state) ?? Promise.resolve();
  const next = previous.then(() => runTask(c));
  locks.set(
    c.state,
    next.catch(() => undefined),
  );
  return next;
}

interface Outcome {
  output?: unknown;
  error?: ToolError;
}

async function runTask(c: TaskCall): Promise<ToolCallResult> {
  const { task, call, args, state, io, startedAt, now } = c;
  const existing = state.workflows.get(task.key);
  const saved = existing === undefined ? undefined : copyState(existing);
  const before =
    existing === undefined ? undefined : { status: existing.status, step: existing.step };
  const s = existing ?? startState(task, state);
  const run =
    existing === undefined || task.type !== 'steps'
      ? newRun(task, s, io)
      : new Execution(io, s, () => task.stepById.get(s.step ?? '')?.inputs ?? []);
  let outcome: Outcome;
  try {
    outcome = await perform(task, s, args, run, existing === undefined);
    if (outcome.error === undefined) checkResultSize(`the result of ${call.name}`, outcome.output);
  } catch (err) {
    if (!isToolError(err)) throw err;
    if (saved === undefined) state.workflows.delete(task.key);
    else restoreState(s, saved);
    outcome = { error: err };
  }
  const effects: SessionEffect[] = [];
  const keep = outcome.error === undefined || !isLimit(outcome.error);
  if (keep && run.wroteGlobals) effects.push({ type: 'set-vars', vars: { ...run.globals } });
  if (keep) for (const text of run.says) effects.push({ type: 'say', text });
  const after = state.workflows.get(task.key);
  if (
    after !== undefined &&
    (before === undefined || before.status !== after.status || before.step !== after.step)
  ) {
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
  if (outcome.error !== undefined) {
    const out = outcome.error.toJSON();
    return {
      call,
      trace: Object.assign({}, base, { output: out, isError: true, errorCode: outcome.error.code }),
      effects,
      content: JSON.stringify(out),
      nested: run.nested,
    };
  }
  const output = outcome.output;
  return {
    call,
    trace: Object.assign({}, base, { output, isError: false }),
    effects,
    content: typeof output === 'string' ? output : (JSON.stringify(output) ?? 'null'),
    nested: run.nested,
  };
}

/** A refusal by a workflow limit: nothing of the call is applied. */
function isLimit(error: ToolError): boolean {
  return error.code === 'expression_budget' || error.code === 'result_too_large';
}

async function perform(
  task: WorkflowTask,
  s: WorkflowState,
  args: Record<string, unknown>,
  run: Execution,
  starting: boolean,
): Promise<Outcome> {
  switch (task.type) {
    case 'steps': {
      // start: manual — the first call activates the workflow and delivers step 1.
      if (starting) return { output: await startTask(task, s, run) };
      const outcome = await submitStep(task, s, args, run);
      if (outcome.type === 'error') return { error: outcome.error };
      return { output: Object.assign({}, outcome.output, stepResult(task, s, run)) };
    }
    case 'expression': {
      const outcome = runExpression(task, s, args, run);
      if (outcome.error === undefined) await run.run(task.on.submit);
      return outcome;
    }
    case 'event':
      throw new Error('event tasks have no tool');
    default: {
      const _exhaustive: never = task;
      return _exhaustive;
    }
  }
}

function runExpression(
  task: ExpressionTask,
  s: WorkflowState,
  args: Record<string, unknown>,
  run: Execution,
): Outcome {
  // Validated before it becomes state: a refused call leaves the previous inputs as they were.
  const check = task.tool.validator.validate(args);
  if (!check.ok) {
    const text = check.failures
      .map((f) => `${f.path === '' ? '(root)' : f.path}: ${f.message}`)
      .join('; ');
    return {
      error: new ToolError('invalid_arguments', `arguments do not match the inputs: ${text}`),
    };
  }
  // The validator's copy, with the `default` of each input the model left out.
  s.inputs = JSON.parse(JSON.stringify(check.value)) as Record<string, unknown>;
  const value = task.expression?.evaluate(run.data()) ?? null;
  const output = task.hasOutput ? run.renderDeep(task.output, { result: value }) : value;
  return { output };
}
