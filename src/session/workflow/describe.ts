/**
 * A human-readable summary of a session's workflows (the REPL's `/step`): each task with its
 * status, current step, goal, the step's instructions as written, collected inputs and locals.
 */
import type { ToolDefinition } from '../../definition/types.js';
import type { SessionState } from '../types.js';
import { tasksOf } from './runtime.js';

/** One line per fact, indented; `(no workflows)` when the tools hold none. */
export function describeWorkflows(
  tools: ReadonlyMap<string, ToolDefinition>,
  state: SessionState,
): string[] {
  const lines: string[] = [];
  for (const task of tasksOf(tools)) {
    const s =
      state.workflows !== undefined && Object.hasOwn(state.workflows, task.key)
        ? state.workflows[task.key]
        : undefined;
    if (task.type !== 'steps') {
      lines.push(`${task.key} [${task.type}]: ${s === undefined ? 'not started' : s.status}`);
      continue;
    }
    if (s === undefined) {
      lines.push(
        `${task.key} [steps, submit tool ${task.submitName}]: not started (${task.start === 'manual' ? 'starts when the model calls it' : 'starts at the next user input'})`,
      );
      continue;
    }
    const step = task.stepById.get(s.step ?? '');
    lines.push(
      `${task.key} [steps, submit tool ${task.submitName}]: ${s.status}, step ${s.step ?? '?'}`,
    );
    if (step !== undefined && s.status === 'active') {
      lines.push(`  goal: ${step.goal}`);
      for (const i of step.instructions)
        lines.push(`  - ${i.text}${i.if !== undefined ? ` (if ${i.if.source})` : ''}`);
      lines.push(
        `  next: ${step.next.length === 0 ? '(terminal)' : step.next.map((n) => n.id).join(', ')}`,
      );
    }
    lines.push(`  inputs: ${JSON.stringify(s.inputs)}`, `  local: ${JSON.stringify(s.local)}`);
  }
  return lines.length === 0 ? ['(no workflows)'] : lines;
}
