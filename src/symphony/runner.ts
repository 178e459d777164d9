/**
 * createSymphony: a loaded configuration bound to the host's models, actions and delegators.
 * Host mistakes (a tool with no action, an action of no tool, a custom team with no delegator)
 * throw here, before anything runs.
 */
import type { DefinitionIssue } from '../errors.js';
import type { ActionHandler } from '../handlers/types.js';
import type { Model } from '../models/types.js';
import type { TracingOptions } from '../observability/types.js';
import { runAgentTask } from './agent-run.js';
import { runPipeline } from './pipeline-run.js';
import { failure, type Delegator, type ModelChoice, type SymphonyRuntime } from './runtime.js';
import { runTeam } from './team-run.js';
import { checkActions } from './tools.js';
import { checkSymphonyOptions } from './check-symphony-options.js';
import type { AgentResult, PipelineResult, SymphonyAgent, SymphonyConfig } from './types.js';

// Spelled out in SymphonyOptions, which users write: an alias would be a name they cannot import.
type Named<T> = Readonly<Record<string, T>> | ReadonlyMap<string, T>;

/** Options of {@link createSymphony}. */
export interface SymphonyOptions {
  readonly config: SymphonyConfig;
  /**
   * The model every agent calls, or a factory given each agent's name and `llm` (called once per
   * agent), which is where `temperature`, `maxTokens` and provider settings take effect.
   */
  readonly model: ModelChoice;
  /** Host actions by the name a tool's `handler` gives (default: the tool's name). */
  readonly actions?: Readonly<Record<string, ActionHandler>> | ReadonlyMap<string, ActionHandler>;
  /** Host delegators of `custom` teams, by the name `delegationStrategy.handler` gives. */
  readonly delegators?: Readonly<Record<string, Delegator>> | ReadonlyMap<string, Delegator>;
  readonly tracing?: TracingOptions;
  /** Doubtful but not wrong host set-ups (llm settings with a plain model). Default: process warning. */
  readonly onWarning?: (warning: DefinitionIssue) => void;
  readonly _internal?: {
    readonly now?: () => number;
    /** Waits between retries. Default: a timer that honours the signal. */
    readonly sleep?: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
  };
}

export interface RunAgentInput {
  readonly agent: string;
  /** The user message; default the agent's own `task`. */
  readonly task?: string;
  readonly variables?: Readonly<Record<string, unknown>>;
  readonly signal?: AbortSignal;
}

export interface RunTeamInput {
  readonly team: string;
  readonly task: string;
  readonly variables?: Readonly<Record<string, unknown>>;
  readonly signal?: AbortSignal;
}

export interface RunPipelineInput {
  readonly pipeline: string;
  /** Values over the pipeline's variable defaults. */
  readonly variables?: Readonly<Record<string, unknown>>;
  readonly signal?: AbortSignal;
}

export interface Symphony {
  readonly config: SymphonyConfig;
  runAgent(input: RunAgentInput): Promise<AgentResult>;
  runTeam(input: RunTeamInput): Promise<AgentResult>;
  runPipeline(input: RunPipelineInput): Promise<PipelineResult>;
}

export function createSymphony(options: SymphonyOptions): Symphony {
  checkSymphonyOptions(options);
  const { config } = options;
  const actions = toMap(options.actions, 'actions');
  const delegators = toMap(options.delegators, 'delegators');
  checkActions(config, actions);
  for (const team of config.teams.values())
    if (team.delegation.type === 'custom' && !delegators.has(team.delegation.handler))
      throw new TypeError(
        `createSymphony: team ${team.name} needs the delegator "${team.delegation.handler}" (delegators: ${[...delegators.keys()].join(', ') || 'none'})`,
      );
  const models = new Map<string, Model>();
  const choice = options.model;
  if (typeof choice !== 'function') warnSettings(config, options.onWarning);
  const rt: SymphonyRuntime = {
    config,
    modelFor: (agent: SymphonyAgent) => {
      if (typeof choice !== 'function') return choice;
      let model = models.get(agent.name);
      if (model === undefined) {
        model = choice({ agent: agent.name, llm: agent.llm ?? {} });
        models.set(agent.name, model);
      }
      return model;
    },
    actions,
    delegators,
    now: options._internal?.now ?? Date.now,
    sleep: options._internal?.sleep ?? sleep,
    ...(options.tracing === undefined ? {} : { tracing: options.tracing }),
  };
  return {
    config,
    runAgent: async (input) => {
      const agent = config.agents.get(input.agent);
      if (agent === undefined) throw unknown('agent', input.agent, config.agents.keys());
      const message = input.task ?? agent.task;
      if (message === undefined) {
        const at = rt.now();
        return failure('no_task', `agent ${agent.name} has no task: pass one`, at, at);
      }
      return runAgentTask(rt, {
        agent,
        message,
        ...(input.variables === undefined ? {} : { vars: input.variables }),
        ...(input.signal === undefined ? {} : { signal: input.signal }),
      });
    },
    runTeam: async (input) => {
      const team = config.teams.get(input.team);
      if (team === undefined) throw unknown('team', input.team, config.teams.keys());
      return runTeam(rt, {
        team,
        task: input.task,
        variables: input.variables ?? {},
        signal: input.signal,
      });
    },
    runPipeline: async (input) => {
      const pipeline = config.pipelines.get(input.pipeline);
      if (pipeline === undefined)
        throw unknown('pipeline', input.pipeline, config.pipelines.keys());
      return runPipeline(rt, { pipeline, variables: input.variables ?? {}, signal: input.signal });
    },
  };
}

function unknown(kind: string, name: string, names: Iterable<string>): TypeError {
  return new TypeError(`no ${kind} named "${name}" (${kind}s: ${[...names].join(', ') || 'none'})`);
}

function toMap<T>(value: Named<T> | undefined, what: string): ReadonlyMap<string, T> {
  if (value === undefined) return new Map();
  if (value instanceof Map) return value;
  if (typeof value !== 'object' || value === null)
    throw new TypeError(`createSymphony: ${what} must be an object or a Map`);
  return new Map(Object.entries(value as Readonly<Record<string, T>>));
}

/** With one model for all, an agent's temperature, maxTokens or provider settings cannot apply. */
function warnSettings(config: SymphonyConfig, onWarning: SymphonyOptions['onWarning']): void {
  for (const agent of config.agents.values()) {
    const settings = Object.keys(agent.llm ?? {}).filter((k) => k !== 'model');
    if (settings.length === 0) continue;
    const warning: DefinitionIssue = {
      code: 'llm_settings_not_applied',
      severity: 'warning',
      path: `agents.${agent.name}.llm`,
      message: `${settings.join(', ')} need a model factory (model: ({ agent, llm }) => Model); one model is shared, so they are not applied`,
    };
    if (onWarning !== undefined) onWarning(warning);
    else
      process.emitWarning(`${warning.path}: ${warning.message}`, {
        code: 'SWITCHBOARD_LLM_SETTINGS_NOT_APPLIED',
      });
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) return reject(signal.reason);
    const done = (): void => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
