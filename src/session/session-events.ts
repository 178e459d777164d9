/**
 * The events of a session (docs/session.md), a discriminated union on `type` as `onEvent` and a
 * turn's stream give them, and the turn loop's form of them (TurnEvent).
 */
import type { ToolErrorCode } from '../errors.js';
import type { CommandRecord } from '../handlers/command/command-config.js';
import type { HttpExchangeRecord } from '../handlers/types.js';
import type { ModelErrorCode } from '../models/errors.js';
import type { ModelUsage } from '../models/types.js';
import type { TurnTimings } from '../observability/types.js';

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
