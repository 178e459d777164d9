/**
 * The session as a host holds it (docs/session.md): the Session, its turns (TurnStream, TurnResult
 * with its tool traces and propagated results), its plain-JSON state and the store that keeps it.
 */
import type { ToolErrorCode } from '../errors.js';
import type { CommandRecord } from '../handlers/command/command-config.js';
import type { HttpExchangeRecord } from '../handlers/types.js';
import type { ChatMessage, ModelUsage } from '../models/types.js';
import type { TurnTimings } from '../observability/types.js';
import type { TransformTraceEntry } from '../transform/types.js';
import type { SessionEvent } from './session-events.js';
import type { WorkflowState } from './workflow/state.js';

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
