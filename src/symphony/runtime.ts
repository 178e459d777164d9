/**
 * What every Symphony run shares: the loaded configuration, the host's models, actions and
 * delegators, and the injectable clock and sleep; plus the metrics of Symphony's result shape.
 */
import type { ActionHandler } from '../handlers/types.js';
import type { Model } from '../models/types.js';
import type { TracingOptions } from '../observability/types.js';
import type {
  AgentResult,
  LlmUsage,
  RunMetrics,
  SymphonyAgent,
  SymphonyConfig,
  SymphonyLlm,
  SymphonyTeam,
} from './types.js';

/** What a custom delegator is given (docs/symphony.md). */
export interface DelegationInput {
  readonly task: string;
  readonly variables: Readonly<Record<string, unknown>>;
  readonly team: { readonly name: string; readonly description?: string };
  readonly members: readonly {
    readonly name: string;
    readonly description?: string;
    readonly task?: string;
    readonly tools: readonly string[];
  }[];
}

/** A member to run and the task it gets (default: the team's task). */
export interface Assignment {
  readonly agent: string;
  readonly task?: string;
}

/** A host function that assigns a team's task: member names, or assignments. */
export type Delegator = (
  input: DelegationInput,
) => string | readonly (string | Assignment)[] | Promise<string | readonly (string | Assignment)[]>;

export interface SymphonyRuntime {
  readonly config: SymphonyConfig;
  /** The model an agent's turns call. */
  modelFor(agent: SymphonyAgent): Model;
  readonly actions: ReadonlyMap<string, ActionHandler>;
  readonly delegators: ReadonlyMap<string, Delegator>;
  readonly now: () => number;
  readonly sleep: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
  readonly tracing?: TracingOptions;
}

/** A model chosen for an agent: the host's model, or its factory's answer for the agent's `llm`. */
export type ModelChoice = Model | ((input: { agent: string; llm: SymphonyLlm }) => Model);

/** The team's members as agents (checked at load). */
export function membersOf(rt: SymphonyRuntime, team: SymphonyTeam): SymphonyAgent[] {
  return team.members.map((m) => rt.config.agents.get(m) as SymphonyAgent);
}

/** Usage of one model loop, before it joins a result. */
export interface UsagePart {
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly model: string;
}

export function llmUsage(parts: readonly UsagePart[]): LlmUsage {
  let promptTokens = 0;
  let completionTokens = 0;
  const models: string[] = [];
  for (const p of parts) {
    promptTokens += p.promptTokens;
    completionTokens += p.completionTokens;
    // A part may itself be a joined list (a team's result inside a pipeline's).
    for (const m of p.model.split(', ')) if (m !== '' && !models.includes(m)) models.push(m);
  }
  return {
    promptTokens,
    completionTokens,
    totalTokens: promptTokens + completionTokens,
    model: models.join(', '),
  };
}

export function metrics(
  startTime: number,
  endTime: number,
  toolCalls: number,
  usage: readonly UsagePart[],
): RunMetrics {
  return {
    duration: Math.max(0, endTime - startTime),
    startTime,
    endTime,
    toolCalls,
    llmUsage: llmUsage(usage),
  };
}

/** The usage of a result as a part of a larger one. */
export function usageParts(result: AgentResult): UsagePart[] {
  const u = result.metrics.llmUsage;
  return u.model === '' && u.totalTokens === 0
    ? []
    : [{ promptTokens: u.promptTokens, completionTokens: u.completionTokens, model: u.model }];
}

/** A failed result of a run that never reached a model. */
export function failure(
  code: string,
  message: string,
  startTime: number,
  endTime: number,
): AgentResult {
  return {
    success: false,
    result: { response: '', toolsExecuted: [] },
    error: message,
    errorCode: code,
    metrics: metrics(startTime, endTime, 0, []),
  };
}
