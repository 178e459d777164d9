/**
 * Public types of the Symphony capability (docs/symphony.md): the loaded configuration and the
 * results in Symphony's shape.
 */
import type { DefinitionIssue } from '../errors.js';
import type { JsonSchema, ToolSet } from '../definition/types.js';
import type { ActionHandler } from '../handlers/types.js';

/** The tool an llm_driven manager assigns work with (a manager's own tool of that name is refused at load). */
export const ASSIGN_TOOL = 'assign_task';

/** The model settings of an agent (`llm`), as written; a bare string is `{ model }`. */
export interface SymphonyLlm {
  readonly model?: string;
  readonly provider?: string;
  readonly temperature?: number;
  readonly maxTokens?: number;
  /** Other provider settings (`baseURL`…), kept for the host's model factory. */
  readonly [setting: string]: unknown;
}

/** A loaded Symphony tool: an action definition plus the fields Symphony keeps beside it. */
export interface SymphonyTool {
  readonly name: string;
  readonly description?: string;
  /** Symphony's free category (`communication`, `search`…), kept as metadata. */
  readonly category?: string;
  readonly parameters: JsonSchema;
  /** The host action that runs it: a name (default the tool's) or a function from an object config. */
  readonly handler: string | ActionHandler;
  /** Calls of this tool per agent run (or per tool step); more are `too_many_calls` tool errors. */
  readonly maxCalls?: number;
  /** ms, per attempt (the definition's `timeout`). */
  readonly timeout?: number;
  readonly retryCount?: number;
  readonly outputs?: readonly string[];
}

export interface SymphonyAgent {
  readonly name: string;
  readonly description?: string;
  readonly task?: string;
  /** Tool names; empty: no tools. */
  readonly tools: readonly string[];
  readonly llm?: SymphonyLlm;
  readonly systemPrompt?: string;
  readonly directives: readonly string[];
  readonly maxCalls?: number;
  readonly timeout?: number;
}

export type Delegation =
  | { readonly type: 'all' }
  | {
      readonly type: 'rule-based';
      readonly rules: readonly {
        readonly condition: string;
        readonly assignTo: readonly string[];
      }[];
    }
  | { readonly type: 'llm_driven' }
  | { readonly type: 'custom'; readonly handler: string };

export interface SymphonyTeam {
  readonly name: string;
  readonly description?: string;
  /** Member agent names, in order (inline members are loaded as agents named by the team). */
  readonly members: readonly string[];
  /** The managing agent's name; `true` in the config makes a manager of the team's own. */
  readonly manager?: string | true;
  readonly maxParallelTasks: number;
  readonly taskTimeout?: number;
  readonly delegation: Delegation;
}

export interface RetryConfig {
  readonly maxAttempts: number;
  readonly delay: number;
  readonly backoffFactor: number;
  /** Empty: every failure is retried. */
  readonly retryableErrors: readonly string[];
}

export interface PipelineStep {
  readonly id: string;
  readonly name: string;
  readonly type: 'tool' | 'agent' | 'team';
  /** The tool, agent or team the step runs. */
  readonly target: string;
  readonly inputs: Readonly<Record<string, unknown>>;
  readonly outputs: ReadonlyMap<string, string>;
  readonly dependencies: readonly string[];
  /** Absent: the pipeline's error strategy decides (one attempt unless it is `retry`). */
  readonly retry?: RetryConfig;
  readonly timeout?: number;
}

export interface SymphonyPipeline {
  readonly name: string;
  readonly description?: string;
  /** In the order written. */
  readonly steps: readonly PipelineStep[];
  readonly variables: Readonly<Record<string, unknown>>;
  readonly errorStrategy:
    | { readonly type: 'stop' | 'continue' }
    | { readonly type: 'retry'; readonly maxAttempts: number; readonly delay: number };
}

/** A loaded, checked Symphony configuration. */
export interface SymphonyConfig {
  readonly tools: ReadonlyMap<string, SymphonyTool>;
  /** The tools as a switchboard ToolSet of action definitions. */
  readonly toolSet: ToolSet;
  readonly agents: ReadonlyMap<string, SymphonyAgent>;
  readonly teams: ReadonlyMap<string, SymphonyTeam>;
  readonly pipelines: ReadonlyMap<string, SymphonyPipeline>;
  /** Fields warned at load (unknown, or known and not acted on). */
  readonly warnings: readonly DefinitionIssue[];
  readonly file?: string;
}

/** One tool call of a run, as Symphony lists it. */
export interface ToolExecution {
  readonly name: string;
  readonly parameters?: Readonly<Record<string, unknown>>;
  readonly success: boolean;
  readonly result?: unknown;
  readonly error?: string;
  /** ms, retries included. */
  readonly duration: number;
}

export interface LlmUsage {
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly totalTokens: number;
  /** The model id asked for (`llm.model`), else the adapter's name; several joined by `, `. */
  readonly model: string;
}

export interface RunMetrics {
  readonly duration: number;
  readonly startTime: number;
  readonly endTime: number;
  readonly toolCalls: number;
  readonly llmUsage: LlmUsage;
}

/** One member's part of a team run. */
export interface MemberOutcome {
  readonly agent: string;
  readonly task: string;
  readonly success: boolean;
  readonly response: string;
  readonly error?: string;
}

/** The result of an agent or team run, in Symphony's shape. */
export interface AgentResult {
  readonly success: boolean;
  readonly result: {
    readonly response: string;
    /** Text the model wrote in answers that also called tools (its thinking aloud), joined. */
    readonly reasoning?: string;
    readonly toolsExecuted: readonly ToolExecution[];
    /** Team runs: each member's work, in assignment order. */
    readonly members?: readonly MemberOutcome[];
  };
  readonly error?: string;
  /** Stable code of the failure (`model_error`, `timeout`, `max_calls`, `no_rule_matched`…). */
  readonly errorCode?: string;
  readonly metrics: RunMetrics;
}

/** One step of a pipeline run. */
export interface StepOutcome {
  readonly id: string;
  readonly name: string;
  readonly type: PipelineStep['type'];
  readonly status: 'succeeded' | 'failed' | 'skipped';
  readonly attempts: number;
  /** ms over every attempt and the waits between them. */
  readonly duration: number;
  /** `{ success, result, error? }` of a tool step; the AgentResult of an agent or team step. */
  readonly output?: unknown;
  readonly error?: string;
  readonly errorCode?: string;
}

export interface PipelineResult {
  readonly success: boolean;
  readonly pipeline: string;
  /** The pipeline's variables at the end (defaults, run values, step outputs). */
  readonly variables: Readonly<Record<string, unknown>>;
  /** In the order the steps are written. */
  readonly steps: readonly StepOutcome[];
  readonly error?: string;
  readonly metrics: RunMetrics;
}
