/**
 * One attempt of one pipeline step: a tool called directly (through a session, so the tool's
 * schema, deadline, retries and tracing apply exactly as in an agent's turn), an agent run or a
 * team run, under the step's `timeout`.
 */
import { getOwn } from '../own-data.js';
import { createSession } from '../session/create-session.js';
import type { Model, ModelRequest, ModelStreamPart } from '../models/types.js';
import { runAgentTask } from './agent-run.js';
import type { SymphonyRuntime } from './runtime.js';
import { runTeam } from './team-run.js';
import { actionsFor, toolSetFor } from './tools.js';
import type { AgentResult, PipelineStep, SymphonyAgent, SymphonyTeam } from './types.js';

/** What an attempt produced: the step's outcome object and, on failure, why. */
export interface Attempt {
  readonly output: unknown;
  readonly failure?: { readonly code: string; readonly message: string };
  readonly toolCalls: number;
  readonly result?: AgentResult;
}

/**
 * The step's deadline and the run's signal end the attempt at once, without waiting for it: the
 * work is told to stop (its sessions closed), and calls that must not be cut off halfway (actions
 * with side effects) finish in the background under their own deadlines, as in an interrupted turn.
 */
export async function runAttempt(
  rt: SymphonyRuntime,
  step: PipelineStep,
  inputs: Readonly<Record<string, unknown>>,
  outer: AbortSignal | undefined,
): Promise<Attempt> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<Attempt>((resolve) => {
    const end = (code: string, message: string): void => {
      controller.abort();
      resolve({ output: undefined, failure: { code, message }, toolCalls: 0 });
    };
    onAbort = () => end('cancelled', 'the pipeline was stopped');
    if (outer?.aborted === true) return onAbort();
    outer?.addEventListener('abort', onAbort, { once: true });
    if (step.timeout !== undefined)
      timer = setTimeout(
        () => end('timeout', `step ${step.id} did not finish within ${step.timeout} ms`),
        step.timeout,
      );
  });
  const work = runKind(rt, step, inputs, controller.signal);
  // Settled later, or never awaited when stopped first: its failure must not go unhandled.
  work.catch(() => undefined);
  try {
    return await Promise.race([work, stopped]);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    if (onAbort !== undefined) outer?.removeEventListener('abort', onAbort);
  }
}

async function runKind(
  rt: SymphonyRuntime,
  step: PipelineStep,
  inputs: Readonly<Record<string, unknown>>,
  signal: AbortSignal,
): Promise<Attempt> {
  if (step.type === 'tool') return callTool(rt, step.target, inputs, signal);
  const message = messageOf(
    inputs,
    step.type === 'agent' ? rt.config.agents.get(step.target)?.task : undefined,
  );
  if (message === undefined)
    return {
      output: undefined,
      failure: {
        code: 'no_task',
        message: `step ${step.id}: give the ${step.type} a task (inputs.task)`,
      },
      toolCalls: 0,
    };
  const result =
    step.type === 'agent'
      ? await runAgentTask(rt, {
          agent: rt.config.agents.get(step.target) as SymphonyAgent,
          message,
          vars: inputs,
          signal,
        })
      : await runTeam(rt, {
          team: rt.config.teams.get(step.target) as SymphonyTeam,
          task: message,
          variables: inputs,
          signal,
        });
  return {
    output: result,
    result,
    toolCalls: result.metrics.toolCalls,
    ...(result.success
      ? {}
      : { failure: { code: result.errorCode ?? 'failed', message: result.error ?? 'failed' } }),
  };
}

/**
 * The user message of an agent or team step: `inputs.task` (else the agent's own task), with the
 * other inputs after it as JSON.
 */
export function messageOf(
  inputs: Readonly<Record<string, unknown>>,
  fallback: string | undefined,
): string | undefined {
  const own = getOwn(inputs, 'task');
  const task = typeof own === 'string' ? own : fallback;
  if (task === undefined) return undefined;
  const rest = Object.keys(inputs).filter((k) => k !== 'task');
  if (rest.length === 0) return task;
  const shown = Object.fromEntries(rest.map((k) => [k, getOwn(inputs, k)]));
  return `${task}\n\nInputs:\n${JSON.stringify(shown, null, 2)}`;
}

/** A tool step: the inputs are the tool's arguments, called once through a one-call session. */
async function callTool(
  rt: SymphonyRuntime,
  name: string,
  inputs: Readonly<Record<string, unknown>>,
  signal: AbortSignal,
): Promise<Attempt> {
  const session = createSession({
    tools: toolSetFor(rt.config, [name]),
    model: new DirectCall(name, JSON.stringify(inputs)),
    actions: actionsFor(rt.config, [name], rt.actions),
    ...(rt.tracing === undefined ? {} : { tracing: rt.tracing }),
    _internal: { now: rt.now },
  });
  const stop = (): void => void session.close();
  signal.addEventListener('abort', stop, { once: true });
  try {
    const r = await session.run(`call ${name}`);
    const trace = r.traces[0];
    if (trace === undefined)
      return {
        output: undefined,
        failure: { code: 'cancelled', message: `tool ${name} was stopped` },
        toolCalls: 0,
      };
    if (!trace.isError) return { output: { success: true, result: trace.output }, toolCalls: 1 };
    const message = errorMessage(trace.output) ?? `tool ${name} failed`;
    return {
      output: { success: false, result: trace.output, error: message },
      failure: { code: trace.errorCode ?? 'failed', message },
      toolCalls: 1,
    };
  } finally {
    signal.removeEventListener('abort', stop);
    await session.close();
  }
}

function errorMessage(output: unknown): string | undefined {
  if (typeof output !== 'object' || output === null || !Object.hasOwn(output, 'error'))
    return undefined;
  const e = (output as { error: unknown }).error;
  return typeof e === 'object' && e !== null && Object.hasOwn(e, 'message')
    ? String((e as { message: unknown }).message)
    : undefined;
}

/** The "model" of a tool step: it makes the one call, then ends the turn with no text. */
class DirectCall implements Model {
  readonly name = 'direct-call';
  #called = false;
  constructor(
    readonly tool: string,
    readonly args: string,
  ) {}

  async *stream(request: ModelRequest): AsyncGenerator<ModelStreamPart> {
    request.signal.throwIfAborted();
    if (!this.#called) {
      this.#called = true;
      yield { type: 'tool-call', call: { id: 'call_1', name: this.tool, arguments: this.args } };
    }
    yield { type: 'finish' };
  }
}
