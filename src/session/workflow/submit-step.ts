/**
 * A steps task's submission (docs/workflows.md, "Runtime lifecycle"): merge the arguments into the
 * step's inputs → `on.presubmit` → validate the inputs (ajv; a failure is a tool error and the step
 * stays current) → `on.submit` → the first `next` entry whose `requires` are collected and whose
 * `if` holds → enter that step (`on.enter`), or complete the workflow when no entry matches or the
 * step has none. `go_to_step` (when the step allows it) jumps without validation.
 */
import { isToolError, ToolError } from '../../errors.js';
import type { Execution } from './execution.js';
import { isEmpty } from './execution.js';
import { setOwnValue, type WorkflowState } from './state.js';
import type { StepsTask, WorkflowStep } from '../../definition/workflow/types.js';

/** The outcome of one submission. */
export type SubmitOutcome =
  | { readonly type: 'ok'; readonly output: Record<string, unknown> }
  | { readonly type: 'error'; readonly error: ToolError };

/** Makes `step` current with empty inputs and runs its `on.enter`. */
export async function enterStep(
  _task: StepsTask,
  step: WorkflowStep,
  s: WorkflowState,
  run: Execution,
): Promise<void> {
  s.step = step.id;
  s.status = 'active';
  s.inputs = {};
  await run.run(step.on.enter);
}

/**
 * The step's instructions whose conditions hold, rendered. One that hits a workflow limit is
 * replaced by a note saying so: instructions are rendered on every turn, and a value the model
 * stored must not make every later turn fail.
 */
export function stepView(
  _task: StepsTask,
  step: WorkflowStep,
  run: Execution,
): { readonly instructions: readonly string[] } {
  const instructions: string[] = [];
  for (const i of step.instructions) {
    try {
      if (run.holds(i.if)) instructions.push(run.render(i.text));
    } catch (err) {
      if (!isToolError(err)) throw err;
      instructions.push(`(an instruction is not shown: ${err.message})`);
    }
  }
  return { instructions };
}

/** The part of a submit result describing where the workflow now stands. */
export function stepResult(
  task: StepsTask,
  s: WorkflowState,
  run: Execution,
): Record<string, unknown> {
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

/** Handles a call of the submit tool while `s.step` is current. */
export async function submitStep(
  task: StepsTask,
  s: WorkflowState,
  args: Record<string, unknown>,
  run: Execution,
): Promise<SubmitOutcome> {
  const step = task.stepById.get(s.step ?? '');
  if (step === undefined)
    return {
      type: 'error',
      error: new ToolError('not_available', `workflow ${task.key} has no current step`),
    };
  const from = step.id;

  const goTo = args['go_to_step'];
  if (step.tools.allowGoToStep && typeof goTo === 'string' && Object.hasOwn(args, 'go_to_step')) {
    const target = task.stepById.get(goTo);
    if (target === undefined)
      return {
        type: 'error',
        error: new ToolError('invalid_arguments', `go_to_step: no step "${goTo}"`),
      };
    await enterStep(task, target, s, run);
    return { type: 'ok', output: { status: 'ok', completed_step: from } };
  }

  // Only declared inputs ever become state (and so only they can reach a `save`); a call naming
  // anything else is refused whole, before any of it is merged.
  const undeclared = Object.keys(args).filter(
    (key) => !(key === 'go_to_step' && step.tools.allowGoToStep) && !step.inputNames.has(key),
  );
  if (undeclared.length > 0) {
    const names = undeclared.slice(0, 10).map((k) => JSON.stringify(k));
    const known = [...step.inputNames].join(', ');
    return {
      type: 'error',
      error: new ToolError(
        'invalid_arguments',
        `step ${from} does not take ${names.join(', ')}; its inputs are: ${known === '' ? '(none)' : known}`,
        { step: from, undeclared: undeclared.slice(0, 10) },
      ),
    };
  }
  for (const key of Object.keys(args)) {
    if (key === 'go_to_step') continue;
    setOwnValue(s.inputs, key, JSON.parse(JSON.stringify(args[key])) as unknown);
  }
  await run.run(step.on.presubmit);
  // Validating fills the inputs still missing with their `default` (on a copy, as for tool
  // arguments); that copy becomes the step's inputs, so on.submit, `next` and `save` see them.
  const check = step.submit.validator.validate(s.inputs);
  if (!check.ok) {
    const text = check.failures
      .slice(0, 10)
      .map((f) => `${f.path === '' ? '(root)' : f.path}: ${f.message}`)
      .join('; ');
    return {
      type: 'error',
      error: new ToolError(
        'invalid_arguments',
        `step ${from} is still current; its inputs do not validate: ${text}. Ask the user again, then call ${task.submitName}.`,
        { step: from, failures: check.failures.map((f) => ({ path: f.path, message: f.message })) },
      ),
    };
  }
  s.inputs = check.value as Record<string, unknown>;
  await run.run(step.on.submit);

  const chosen = step.next.find(
    (t) => t.requires.every((name) => !isEmpty(s.inputs[name])) && run.holds(t.if),
  );
  if (chosen === undefined) {
    s.status = 'completed';
    return { type: 'ok', output: { status: 'ok', completed_step: from } };
  }
  if (chosen.id === from) {
    // A loop-back retries the step: inputs are cleared, on.enter does not run again (so a
    // counter initialised there keeps counting).
    s.inputs = {};
    return { type: 'ok', output: { status: 'retry', completed_step: from } };
  }
  await enterStep(task, task.stepById.get(chosen.id)!, s, run);
  return { type: 'ok', output: { status: 'ok', completed_step: from } };
}
