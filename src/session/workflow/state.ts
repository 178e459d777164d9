/**
 * Per-session state of each task (docs/workflows.md, "State"): status, current step, the current
 * step's collected inputs, and the task's own (`local.*`) variables. Plain JSON, keyed by the
 * task's key, so two workflows never share inputs or locals.
 */
import { isPlainObject } from '../../own-data.js';

/** The state of one task in one session. */
export interface WorkflowState {
  /** `active`: a step is current; `completed`: a terminal step was submitted (or start ran, for event tasks). */
  status: 'active' | 'completed';
  /** The current step (steps tasks); the last step once completed. */
  step?: string;
  /** Inputs collected for the current step. */
  inputs: Record<string, unknown>;
  /** The task's `local.*` variables. */
  local: Record<string, unknown>;
}

/**
 * The task states of a session without any yet (most sessions: no workflow ever starts): one
 * shared empty map instead of a hash table per session. It refuses writes, so a writer that does
 * not go through {@link writableWorkflows} fails loudly instead of writing into every session.
 */
class NoWorkflows extends Map<string, WorkflowState> {
  override set(): never {
    throw new Error('internal: a session wrote task state without writableWorkflows');
  }
}
export const NO_WORKFLOWS: Map<string, WorkflowState> = new NoWorkflows();

/** The session's task states, ready to write (its own map, made on the first write). */
export function writableWorkflows(state: {
  workflows: Map<string, WorkflowState>;
}): Map<string, WorkflowState> {
  if (state.workflows === NO_WORKFLOWS) state.workflows = new Map();
  return state.workflows;
}

/** Sets an own property (never through a prototype setter). */
export function setOwnValue(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/** A JSON copy of the states, for `toJSON`. */
export function snapshotWorkflows(
  states: ReadonlyMap<string, WorkflowState>,
): Record<string, WorkflowState> {
  const out: Record<string, WorkflowState> = {};
  for (const [key, s] of states)
    setOwnValue(out, key, JSON.parse(JSON.stringify(s)) as WorkflowState);
  return out;
}

/** Reads stored states back; throws a TypeError naming the first malformed entry. */
export function restoreWorkflows(value: unknown): Map<string, WorkflowState> {
  if (value === undefined) return NO_WORKFLOWS;
  const out = new Map<string, WorkflowState>();
  if (!isPlainObject(value)) throw new TypeError('session state workflows must be an object');
  for (const key of Object.keys(value)) {
    const s = value[key];
    if (
      !isPlainObject(s) ||
      (s['status'] !== 'active' && s['status'] !== 'completed') ||
      (s['step'] !== undefined && typeof s['step'] !== 'string') ||
      !isPlainObject(s['inputs']) ||
      !isPlainObject(s['local'])
    ) {
      throw new TypeError(`session state workflows[${JSON.stringify(key)}] is malformed`);
    }
    const copy = JSON.parse(JSON.stringify(s)) as WorkflowState;
    out.set(key, copy);
  }
  return out;
}

/** A copy of one task's state, to put back with {@link restoreState} when a call is refused. */
export function copyState(s: WorkflowState): WorkflowState {
  return JSON.parse(JSON.stringify(s)) as WorkflowState;
}

/** Puts `saved` back into `s` (the same object: callers hold it). */
export function restoreState(s: WorkflowState, saved: WorkflowState): void {
  s.status = saved.status;
  if (saved.step === undefined) delete s.step;
  else s.step = saved.step;
  s.inputs = saved.inputs;
  s.local = saved.local;
}
