/**
 * One Symphony agent run: a session of its own (the agent's tools, its model and `llm.model`, its
 * system prompt verbatim, `maxCalls` and `timeout` as the engine's turn limits), one user turn,
 * and its events gathered into Symphony's AgentResult.
 */
import type { ToolDefinition } from '../definition/types.js';
import type { ActionHandler } from '../handlers/types.js';
import { isModelError } from '../models/errors.js';
import type { ModelUsage } from '../models/types.js';
import { createSession } from '../session/create-session.js';
import type { SessionEvent, SessionOptions } from '../session/types.js';
import { systemPromptOf } from './prompt.js';
import { failure, metrics, type SymphonyRuntime } from './runtime.js';
import { actionsFor, toolSetFor } from './tools.js';
import type { AgentResult, SymphonyAgent, ToolExecution } from './types.js';

export interface AgentTask {
  readonly agent: SymphonyAgent;
  /** The user message of the turn. */
  readonly message: string;
  /** Session variables of the run (templates of tool descriptions read them). */
  readonly vars?: Readonly<Record<string, unknown>>;
  /** A tighter deadline than the agent's own `timeout` (a team's `taskTimeout`), ms. */
  readonly timeout?: number;
  readonly signal?: AbortSignal;
  /** Tools of the engine's own (a manager's `assign_task`) and their actions. */
  readonly extraTools?: readonly ToolDefinition[];
  readonly extraActions?: ReadonlyMap<string, ActionHandler>;
  /** Appended to the system prompt (a manager's list of members). */
  readonly extraPrompt?: string;
}

/** Runs one agent task to its AgentResult; never throws for a model or tool failure. */
export async function runAgentTask(rt: SymphonyRuntime, task: AgentTask): Promise<AgentResult> {
  const { agent } = task;
  const startTime = rt.now();
  const actions = actionsFor(rt.config, agent.tools, rt.actions);
  for (const [name, fn] of task.extraActions ?? []) actions.set(name, fn);
  const gathered = new Gatherer();
  const model = rt.modelFor(agent);
  const deadline = minDefined(agent.timeout, task.timeout);
  const options: SessionOptions = {
    tools: toolSetFor(rt.config, agent.tools, task.extraTools),
    model,
    actions,
    systemContext: systemPromptOf(agent, task.extraPrompt),
    onEvent: (e) => gathered.add(e),
    ...(task.vars === undefined ? {} : { vars: task.vars }),
    ...(agent.llm?.model === undefined ? {} : { modelId: agent.llm.model }),
    ...(agent.maxCalls === undefined ? {} : { maxCalls: agent.maxCalls }),
    ...(deadline === undefined ? {} : { turnTimeoutMs: deadline }),
    ...(rt.tracing === undefined ? {} : { tracing: rt.tracing }),
    _internal: { now: rt.now },
  };
  const modelName = agent.llm?.model ?? model.name;
  if (task.signal?.aborted === true)
    return failure(
      'cancelled',
      `agent ${agent.name} was stopped before it started`,
      startTime,
      rt.now(),
    );
  const session = createSession(options);
  let closing: Promise<void> | undefined;
  const stop = (): void => void (closing ??= session.close());
  task.signal?.addEventListener('abort', stop, { once: true });
  let outcome:
    { ok: true; content: string; input: number; output: number } | { ok: false; error: unknown };
  try {
    const r = await session.run(task.message);
    outcome = {
      ok: true,
      content: r.content,
      input: r.usage.inputTokens,
      output: r.usage.outputTokens,
    };
  } catch (error) {
    outcome = { ok: false, error };
  } finally {
    task.signal?.removeEventListener('abort', stop);
    await (closing ??= session.close());
  }
  const endTime = rt.now();
  const tools = gathered.tools();
  // A failed turn has no result: its usage so far comes with the `model-error` event.
  const counted = outcome.ok
    ? { inputTokens: outcome.input, outputTokens: outcome.output }
    : (gathered.failedUsage ?? { inputTokens: 0, outputTokens: 0 });
  const usage = [
    {
      promptTokens: counted.inputTokens,
      completionTokens: counted.outputTokens,
      model: modelName,
    },
  ];
  const m = metrics(startTime, endTime, tools.length, usage);
  const reasoning = gathered.reasoning();
  const failed = failureOf(outcome, gathered, task.signal, agent);
  const content = outcome.ok ? outcome.content : '';
  return {
    success: failed === undefined,
    result: {
      response: content,
      ...(reasoning === undefined ? {} : { reasoning }),
      toolsExecuted: tools,
    },
    ...(failed === undefined ? {} : { error: failed.message, errorCode: failed.code }),
    metrics: m,
  };
}

function failureOf(
  outcome: { ok: true; content: string } | { ok: false; error: unknown },
  gathered: Gatherer,
  signal: AbortSignal | undefined,
  agent: SymphonyAgent,
): { code: string; message: string } | undefined {
  if (!outcome.ok) {
    const e = outcome.error;
    if (isModelError(e)) return { code: 'model_error', message: e.message };
    throw e;
  }
  if (gathered.timedOut)
    return { code: 'timeout', message: `agent ${agent.name} did not finish within its deadline` };
  if (signal?.aborted === true)
    return { code: 'cancelled', message: `agent ${agent.name} was stopped` };
  if (gathered.maxRounds && outcome.content === '')
    return {
      code: 'max_calls',
      message: `agent ${agent.name} used its model calls without a final answer`,
    };
  return undefined;
}

/** The run's tool calls (in call order) and reasoning, from the session's events. */
class Gatherer {
  readonly #calls = new Map<string, { name: string; parameters?: Record<string, unknown> }>();
  readonly #done: ToolExecution[] = [];
  readonly #reasoning: string[] = [];
  #text = '';
  timedOut = false;
  maxRounds = false;
  /** The tokens a turn that failed had used (its `model-error` event's). */
  failedUsage: ModelUsage | undefined;

  add(e: SessionEvent): void {
    switch (e.type) {
      case 'text-delta':
        this.#text += e.text;
        break;
      case 'tool-call':
        // Text before a call is the model thinking aloud; the final answer is the turn's content.
        if (this.#text.trim() !== '') this.#reasoning.push(this.#text.trim());
        this.#text = '';
        this.#calls.set(
          e.callId,
          e.args === undefined ? { name: e.tool } : { name: e.tool, parameters: e.args },
        );
        break;
      case 'tool-result':
      case 'tool-error': {
        const call = this.#calls.get(e.callId);
        this.#done.push({
          name: e.tool,
          ...(call?.parameters === undefined ? {} : { parameters: call.parameters }),
          success: e.type === 'tool-result',
          ...(e.type === 'tool-result'
            ? { result: e.output }
            : { error: `${e.code}: ${e.message}` }),
          duration: Math.round(e.durationSecs * 1000),
        });
        break;
      }
      case 'interrupted':
        if (e.reason === 'timeout') this.timedOut = true;
        break;
      case 'max-rounds':
        this.maxRounds = true;
        break;
      case 'model-error':
        this.failedUsage = e.usage;
        break;
      default:
        break;
    }
  }

  tools(): ToolExecution[] {
    return this.#done;
  }

  reasoning(): string | undefined {
    return this.#reasoning.length === 0 ? undefined : this.#reasoning.join('\n\n');
  }
}

function minDefined(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.min(a, b);
}
