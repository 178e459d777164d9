/**
 * The options of createSession (docs/session.md): SessionOptions, one object a host writes once,
 * with the agents, bridge phrases and host-error context it names.
 */
import type { Dispatcher } from 'undici';
import type { ToolSet } from '../definition/types.js';
import type { DefinitionIssue } from '../errors.js';
import type { CommandConfig, CommandRunner } from '../handlers/command/command-config.js';
import type { Abortable } from '../handlers/endpoint/abortable.js';
import type { ConnectionPools } from '../handlers/endpoint/connection-pools.js';
import type { SecretSet } from '../handlers/endpoint/secret-set.js';
import type { NetworkPolicy, ServiceConfig } from '../handlers/endpoint/service-config.js';
import type { ActionHandler } from '../handlers/types.js';
import type { Model } from '../models/types.js';
import type { TracingOptions } from '../observability/types.js';
import type { SessionStore, TurnStream } from './session-api.js';
import type { SessionEvent } from './session-events.js';

/** Where a host callback threw (see `SessionOptions.hostError`). */
export interface HostErrorContext {
  readonly callback: 'onEvent';
  /** The event the callback was given. */
  readonly event: SessionEvent['type'];
}

/** A named agent: a system prompt (mustache over session variables) and the tools it may use. */
export interface AgentConfig {
  readonly prompt: string;
  /** Tool names; absent: every tool of the session. */
  readonly tools?: readonly string[];
  /** Static parameter values for this agent, per tool; they win over the session's `toolDefaults`. */
  readonly toolDefaults?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** The model this agent's turns call (e.g. a cheaper router, a stronger specialist). Default: the session's `model`. */
  readonly model?: Model;
  /** Cap on model calls per turn while this agent is active (Symphony `maxCalls`). */
  readonly maxCalls?: number;
  /** Deadline of a turn that starts with this agent active, ms (Symphony `timeout`). */
  readonly timeout?: number;
}

/** Bridge phrase settings. */
export interface BridgeOptions {
  /** Seconds before the first phrase; later ones at 2×, 3×, 4×. Default 2.75. */
  readonly thresholdSecs?: number;
  /** Phrases per tool name, per language tag (`"*"` matches any language). */
  readonly phrases?: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>>;
}

/** Options of {@link createSession}. One object; never mutated. */
export interface SessionOptions {
  /**
   * The tools. The session reads `tools.tools` at the start of every model round, so a tool set
   * whose `tools` getter returns a new map (an MCP tool source after the server's tool list
   * changed, docs/mcp.md) changes the tools of later rounds; agents, `actions` and `toolDefaults`
   * are checked against the map at `createSession`.
   */
  readonly tools: ToolSet;
  readonly model: Model;
  /** Host action handlers by tool name. */
  readonly actions?: Readonly<Record<string, ActionHandler>> | ReadonlyMap<string, ActionHandler>;
  /** Initial session variables (flat `"vars.x"` keys allowed). */
  readonly vars?: Readonly<Record<string, unknown>>;
  /** Initial language, default `en-US`. */
  readonly language?: string;
  /** Allowed languages; absent: every well-formed tag is allowed. */
  readonly languages?: readonly string[];
  /** System prompt when no agents are declared (mustache over session variables). */
  readonly prompt?: string;
  /** Named agents; the first is active unless `agent` says otherwise. */
  readonly agents?: Readonly<Record<string, AgentConfig>>;
  readonly agent?: string;
  /** Per tool, per static parameter: values overriding the definitions' defaults. */
  readonly toolDefaults?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly services?: Readonly<Record<string, ServiceConfig>>;
  /**
   * Programs `command` tools run, by the name their definitions give (docs/handlers.md,
   * "Command"). A command tool naming a command not listed here is refused at `createSession`.
   */
  readonly commands?: Readonly<Record<string, CommandConfig>>;
  /** What starts command runs. Default: child processes. The harness passes its command double. */
  readonly commandRunner?: CommandRunner;
  /**
   * The secrets this session scrubs from everything it shows (outputs, errors, events, traces,
   * state): the engine adds every secret of `services` and every token it obtains for them.
   * Default: a set of the session's own. Pass one to scrub a recorder with the same set (the REPL
   * does, for its printout and `/save`).
   */
  readonly secrets?: SecretSet;
  readonly networkPolicy?: NetworkPolicy;
  /**
   * The undici dispatcher for endpoint calls (the host owns and closes it). Default: the shared
   * Agent of `pools` for this session's network policy.
   */
  readonly dispatcher?: Dispatcher;
  /** Shared connection pools for endpoint calls. Default: the process-wide `connectionPools`. */
  readonly pools?: ConnectionPools;
  /** Default 8. */
  readonly maxToolRounds?: number;
  /**
   * When the tool rounds (`maxToolRounds`, `maxCalls`) run out, ask the model once more, showing
   * it no tool, for a final answer, so the turn does not end with empty content (Swarm's
   * `max_turns` returns the last message). The `max-rounds` event then has `finalAnswer: true`.
   * That extra call is one model call past `maxCalls`. Default false; runAgent sets it.
   */
  readonly finalAnswerAfterMaxRounds?: boolean;
  /** Default `skip`. */
  readonly onMissingTemplateValue?: 'skip' | 'error';
  /** Deadline of host action handlers in seconds, above 0 and at most 2,147,483. Default 20. */
  readonly actionTimeoutSecs?: number;
  /**
   * Cap on every tool call's deadline in seconds, whatever its type or own `timeout` (runAgent's
   * `config.domain_timeout_secs`), above 0 and at most 2,147,483. Default: none (each tool's own
   * deadline applies).
   */
  readonly toolTimeoutCapSecs?: number;
  /** Cap on model calls per turn (Symphony's agent `maxCalls`); an agent's own value wins. */
  readonly maxCalls?: number;
  /** Deadline of a whole turn in ms (Symphony's agent `timeout`); an agent's own value wins. */
  readonly turnTimeoutMs?: number;
  /**
   * Model id for every model call of this session (runAgent's `config.model_overrides`), passed
   * to the adapter as `ModelRequest.modelId`. Default: the adapter's own.
   */
  readonly modelId?: string;
  readonly bridge?: BridgeOptions;
  /** Limits on the model's raw arguments. Defaults 256 KiB and depth 32. */
  readonly limits?: {
    readonly maxArgumentBytes?: number;
    readonly maxArgumentDepth?: number;
    /**
     * A call's final arguments (after static parameters and `defaults`), bytes of their JSON
     * form; larger is an `invalid_arguments` tool error and nothing runs. Default 1 MiB.
     */
    readonly maxFinalArgumentBytes?: number;
    /**
     * Tool calls run from one model answer; the rest are answered with a `too_many_calls` tool
     * error (each id once) and never run. Default 32.
     */
    readonly maxCallsPerAnswer?: number;
    /** Endpoint calls of this session in flight at once; the others wait their turn. Default 8. */
    readonly maxConcurrentEndpointCalls?: number;
  };
  /** Response body cap for endpoints, bytes. Default 1 MiB. */
  readonly maxResponseBytes?: number;
  readonly store?: SessionStore;
  readonly id?: string;
  /** Extra system context sent as a second system message after the prompt (runAgent's `memory`). */
  readonly systemContext?: string;
  /** System values for `vars.session.*` that the engine cannot know. Timezone default: the host's. */
  readonly systemValues?: {
    readonly timezone?: string;
    readonly source?: string;
    readonly target?: string;
  };
  /** OpenTelemetry spans and trace context propagation (see docs/observability.md). */
  readonly tracing?: TracingOptions;
  /**
   * Called synchronously with every event of every turn, in emission order. If it throws, the
   * error goes to `hostError` and the turn goes on unchanged.
   */
  readonly onEvent?: (event: SessionEvent) => void;
  /**
   * Who acknowledges speech (docs/voice.md). `auto` (default): text counts as spoken when emitted,
   * so chat hosts change nothing. `host`: the host reports playback with `session.spoken(id)`.
   */
  readonly speechAck?: 'host' | 'auto';
  /**
   * Called with each turn the engine starts on its own (a background tool's result arrived,
   * `turn-start` with `reason: 'tool-result'`). Its events also reach `onEvent`.
   */
  readonly onTurn?: (turn: TurnStream) => void;
  /**
   * Receives errors thrown by host callbacks (`onEvent`); they never change what the engine
   * records. Default: a process warning with code `SWITCHBOARD_HOST_CALLBACK`.
   */
  readonly hostError?: (error: unknown, context: HostErrorContext) => void;
  /**
   * Receives what `createSession` finds doubtful but not wrong: a tool naming a service `services`
   * does not configure (`service_not_configured`: its calls fail with `not_available`), a service
   * whose credentials may go anywhere (`origins_any`). Default: a process warning, each once per
   * process, with code `SWITCHBOARD_<CODE>`.
   */
  readonly onWarning?: (warning: DefinitionIssue) => void;
  /**
   * Resources the session closes after its own `close()` (in order, each once), such as the MCP
   * connections made for this session alone (docs/mcp.md). Every one is tried; then `close()`
   * rejects with the first failure, if any.
   */
  readonly closeWith?: readonly { close(): Promise<void> | void }[];
  /** Injectable clock, id source and retry wait for deterministic tests (and the fixture runner). */
  readonly _internal?: {
    readonly now?: () => number;
    readonly generateId?: () => string;
    /** The endpoint handler's wait between retries (default: a timer); see EndpointOptions.sleep. */
    readonly sleep?: (ms: number, abortable: Abortable) => Promise<void>;
  };
}
