/**
 * The workflow runtime as the session sees it (docs/workflows.md): which generated tools the model
 * sees and which it does not, the system context naming each active workflow's current step, and
 * which task a call names. Activation is in activate.ts, a call of a generated tool in
 * call-task.ts.
 */
import type { ToolDefinition } from '../../definition/types.js';
import type { ChatMessage, ChatTool } from '../../models/types.js';
import type { LiveState } from '../session-state.js';
import { Execution, type ExecutionIO } from './execution.js';
import { stepView } from './submit-step.js';
import type { WorkflowTask } from '../../definition/workflow/types.js';

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

/** Messages of a synthetic call, exported for tests of the history shape. */
export type SyntheticMessages = readonly [ChatMessage, ChatMessage];
