/**
 * Public types of the session engine (docs/session.md): options, events, traces, turn results, state.
 * About 470 lines: the session's public types in one place (options, events, traces, results),
 * as a host reads them; service and network types live with the handlers.
 */
import type { Dispatcher } from 'undici';
import type { ToolSet } from '../definition/types.js';
import type { DefinitionIssue, ToolErrorCode } from '../errors.js';
import type { ConnectionPools } from '../handlers/endpoint/connection-pools.js';
import type { SecretSet } from '../handlers/endpoint/secret-set.js';
import type { Abortable } from '../handlers/endpoint/abortable.js';
import type { ActionHandler, HttpExchangeRecord } from '../handlers/types.js';
import type { ModelErrorCode } from '../models/errors.js';
import type { ChatMessage, Model, ModelUsage } from '../models/types.js';
import type { TracingOptions, TurnTimings } from '../observability/types.js';
import type { TransformTraceEntry } from '../transform/types.js';
import type { WorkflowState } from './workflow/state.js';

import type { NetworkPolicy, ServiceConfig } from '../handlers/endpoint/service-config.js';
import type {
  CommandConfig,
  CommandRecord,
  CommandRunner,
} from '../handlers/command/command-config.js';
export type {
  CommandConfig,
  CommandExit,
  CommandInvocation,
  CommandRecord,
  CommandRunner,
} from '../handlers/command/command-config.js';
export type {
  NetworkPolicy,
  ServiceAuth,
  ServiceConfig,
} from '../handlers/endpoint/service-config.js';

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

/** One tool call's trace: the minimal agent output format plus richer detail. */
export interface ToolTrace {
  readonly tool: string;
  /** Final arguments (after static parameters and defaults); absent if they never parsed. */
  readonly args?: Record<string, unknown>;
  readonly output: unknown;
  readonly duration_secs: number;
  readonly callId: string;
  /** The arguments exactly as the model sent them. */
  readonly rawArguments: string;
  readonly isError: boolean;
  readonly errorCode?: ToolErrorCode;
  readonly transform: readonly TransformTraceEntry[];
  readonly requests: readonly HttpExchangeRecord[];
  /** The command runs of a `command` tool call (argv after the host's `args`, secrets scrubbed); absent for others. */
  readonly commands?: readonly CommandRecord[];
  /** True when the definition's `options.propagate_tool_result` asks to pass this result on to the host's caller. */
  readonly propagate?: true;
  /** Speak-then-act: how long dispatch waited for earlier speech, and how the wait ended. */
  readonly speechWait?: SpeechWait;
  /** Set on a call that ran once for an identical earlier call of the round (its id). */
  readonly dedupedFrom?: string;
  /** Set on a background call's immediate `{"status":"started"}` result. */
  readonly background?: 'started' | 'finished';
}

/** A speak-then-act wait (`options.speech.after_speech`, docs/voice.md). */
export interface SpeechWait {
  readonly waitedMs: number;
  /** `spoken`: every earlier utterance acknowledged; `timeout`: `max_wait_ms` reached; `interrupted`. */
  readonly outcome: 'spoken' | 'timeout' | 'interrupted';
  /** The utterances waited for. */
  readonly speechIds: readonly string[];
}

/**
 * An event as the turn loop produces it: speaking events get their `speechId` from the session
 * when emitted (docs/voice.md). Internal.
 */
export type TurnEvent = SessionEvent extends infer E
  ? E extends { readonly type: 'say' | 'text-delta' }
    ? Omit<E, 'speechId'> & { readonly speechId?: string }
    : E
  : never;

/** Events of a session, a discriminated union on `type`, in emission order. */
export type SessionEvent =
  | {
      readonly type: 'turn-start';
      readonly turn: number;
      readonly user: string;
      /** Why the turn started: absent for a caller turn; `tool-result` for a background result. */
      readonly reason?: 'tool-result';
      /** The background call whose result started the turn. */
      readonly callId?: string;
    }
  /** Model text; consecutive deltas form one utterance with one `speechId` (docs/voice.md). */
  | { readonly type: 'text-delta'; readonly text: string; readonly speechId: string }
  | {
      readonly type: 'tool-call';
      readonly callId: string;
      readonly tool: string;
      readonly rawArguments: string;
      readonly args?: Record<string, unknown>;
    }
  | {
      readonly type: 'tool-result';
      readonly callId: string;
      readonly tool: string;
      readonly output: unknown;
      readonly durationSecs: number;
      /** Set when the definition has `options.propagate_tool_result: true`. */
      readonly propagate?: true;
    }
  | {
      readonly type: 'tool-error';
      readonly callId: string;
      readonly tool: string;
      readonly code: ToolErrorCode;
      readonly message: string;
      readonly durationSecs: number;
      /** Trying again may succeed (see `failureForHost`). */
      readonly retryable: boolean;
    }
  | { readonly type: 'http-request'; readonly callId: string; readonly request: HttpExchangeRecord }
  /** A `command` tool is about to run its program: its argv after the host's `args` (secrets scrubbed). */
  | {
      readonly type: 'command';
      readonly callId: string;
      readonly tool: string;
      readonly command: CommandRecord;
    }
  /** The response to an `http-request` arrived: the same record with its `status`. */
  | {
      readonly type: 'http-response';
      readonly callId: string;
      readonly request: HttpExchangeRecord;
    }
  | {
      readonly type: 'action';
      readonly callId: string;
      readonly tool: string;
      readonly args: Record<string, unknown>;
    }
  | {
      readonly type: 'say';
      readonly text: string;
      /** `tool` (a tool's effect), `bridge` (slow-tool filler), `pre-tool`, `error` (docs/voice.md). */
      readonly source: 'tool' | 'bridge' | 'pre-tool' | 'error';
      readonly tool?: string;
      /** Acknowledge playback with `session.spoken(speechId)` (docs/voice.md). */
      readonly speechId: string;
    }
  /** The host acknowledged playback of an utterance during the turn (`session.spoken`). */
  | { readonly type: 'spoken'; readonly speechId: string }
  /**
   * A speak-then-act call (`options.speech.after_speech`, docs/voice.md) starts waiting for
   * playback: it is dispatched once every utterance in `speechIds` is acknowledged or `maxWaitMs`
   * passed; a barge-in meanwhile cancels it. Emitted after the call's `tool-call` and pre-tool
   * `say`, before anything the call itself emits; only under `speechAck: 'host'` and only when
   * something is pending. The call's trace then has `speechWait` with the outcome.
   */
  | {
      readonly type: 'speech-wait';
      readonly callId: string;
      readonly tool: string;
      /** The utterances of this turn not yet acknowledged, in the order they were opened. */
      readonly speechIds: readonly string[];
      /** The cap on the wait (`options.speech.max_wait_ms`). */
      readonly maxWaitMs: number;
    }
  | { readonly type: 'language'; readonly from: string; readonly to: string }
  | { readonly type: 'vars'; readonly vars: Readonly<Record<string, unknown>> }
  | { readonly type: 'log'; readonly tool: string; readonly args: Record<string, unknown> }
  | {
      readonly type: 'handoff';
      readonly from: string;
      readonly to: string;
      readonly reason?: string;
    }
  /** A workflow (`context.task`) was activated, moved to another step, or completed. */
  | {
      readonly type: 'workflow';
      readonly workflow: string;
      readonly status: 'active' | 'completed';
      readonly step?: string;
    }
  | {
      readonly type: 'max-rounds';
      readonly rounds: number;
      /** A tool-less model call for a final answer follows (`finalAnswerAfterMaxRounds`). */
      readonly finalAnswer?: boolean;
    }
  /** The turn stopped early: the caller interrupted, or (`reason: 'timeout'`) its deadline passed. */
  | { readonly type: 'interrupted'; readonly reason?: 'timeout' }
  /** The model call failed (HTTP error, timeout); the turn ends and `result` rejects with a ModelError. */
  | {
      readonly type: 'model-error';
      readonly code: ModelErrorCode;
      readonly message: string;
      readonly status?: number;
      /** Trying again may succeed (see `failureForHost`). */
      readonly retryable: boolean;
      /**
       * Tokens of the turn's model calls that answered before this one failed (the failed call's
       * own are unknown): the turn has no `result` to carry them.
       */
      readonly usage: ModelUsage;
    }
  | { readonly type: 'turn-end'; readonly content: string; readonly timings: TurnTimings }
  | { readonly type: 'session-end'; readonly reason?: string };

/** Plain-JSON session state (serialisable and restorable). */
export interface SessionState {
  readonly version: 1;
  readonly id: string;
  readonly language: string;
  readonly vars: Record<string, unknown>;
  readonly agent?: string;
  readonly history: ChatMessage[];
  readonly turns: number;
  readonly ended: boolean;
  /** State of each workflow task by its key (absent: none started). See docs/workflows.md. */
  readonly workflows?: Readonly<Record<string, WorkflowState>>;
}

/** The result of one turn (the minimal agent output format plus richer fields). */
export interface TurnResult {
  readonly content: string;
  readonly response_time_secs: number;
  readonly traces: readonly ToolTrace[];
  /**
   * Results of this turn's successful calls whose definitions set `options.propagate_tool_result`:
   * what the host should pass on to its own caller (an API response, a chat card), in call order.
   */
  readonly propagated: readonly PropagatedResult[];
  readonly events: readonly SessionEvent[];
  readonly usage: ModelUsage;
  readonly state: SessionState;
  /** True if the turn ended by `interrupt()`. */
  readonly interrupted: boolean;
  /** The turn's latency report: model time to first token and tool call, each tool, phrases. */
  readonly timings: TurnTimings;
}

/** One propagated tool result (see `TurnResult.propagated`). */
export interface PropagatedResult {
  readonly tool: string;
  readonly callId: string;
  readonly output: unknown;
}

/** A running turn: iterate its events, or await `result`. */
export interface TurnStream extends AsyncIterable<SessionEvent> {
  readonly result: Promise<TurnResult>;
}

/** A live session. */
export interface Session {
  readonly id: string;
  /**
   * The session variables now: a copy (changing it changes nothing; tools and `actionResult({
   * vars })` change them), the same as `toJSON().vars`.
   */
  readonly vars: Readonly<Record<string, unknown>>;
  /** The session's language now (a canonical BCP-47 tag; context tools switch it). */
  readonly language: string;
  send(userText: string): TurnStream;
  run(userText: string): Promise<TurnResult>;
  /**
   * Caller barge-in. Returns false and does nothing while a call whose definition says
   * `options.speech.interruptible: false` (or the speech it waits for) is pending; else true.
   */
  interrupt(): boolean;
  /** Playback of an utterance finished (`speechAck: 'host'`). False for an unknown or repeated id. */
  spoken(speechId: string): boolean;
  /** Marks every utterance spoken; returns how many were pending. */
  spokenAll(): number;
  /** Resolves when no turn runs or waits and no background call is in flight. */
  idle(): Promise<void>;
  toJSON(): SessionState;
  readonly ended: boolean;
  /**
   * Ends the session: aborts the running turn, stops timers, ends its endpoint calls in flight.
   * Never closes a shared connection pool or an injected dispatcher.
   */
  close(): Promise<void>;
}

/** Persists session state; implementations must pass test/session/store.contract.ts. */
export interface SessionStore {
  get(id: string): Promise<SessionState | undefined>;
  set(state: SessionState): Promise<void>;
  delete(id: string): Promise<void>;
}
