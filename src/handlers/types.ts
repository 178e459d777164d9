/**
 * The one handler interface every tool type implements (action, endpoint, context, log, command).
 *
 * A handler gets the final arguments (after static parameters and defaults) and returns an
 * outcome: the value the model sees, plus the session effects to apply (language change, spoken
 * text, variable updates, handoff, end of session). Handlers never mutate the session themselves;
 * the session engine applies the effects in order and emits the matching events.
 */
import type { ToolDefinition } from '../definition/types.js';
import type { ToolError } from '../errors.js';
import type { CommandRecord } from './command/command-config.js';

/** A change a handler asks the session to make. */
export type SessionEffect =
  | { readonly type: 'language'; readonly from: string; readonly to: string }
  | { readonly type: 'say'; readonly text: string }
  | { readonly type: 'set-vars'; readonly vars: Readonly<Record<string, unknown>> }
  | { readonly type: 'handoff'; readonly agent: string; readonly reason?: string }
  | { readonly type: 'end-session'; readonly reason?: string }
  | { readonly type: 'log'; readonly args: Readonly<Record<string, unknown>> }
  /** A workflow changed step or status (docs/workflows.md). */
  | {
      readonly type: 'workflow';
      readonly workflow: string;
      readonly status: 'active' | 'completed';
      readonly step?: string;
    };

/** A record of one HTTP request an endpoint handler sent (secrets redacted). */
export interface HttpExchangeRecord {
  readonly method: string;
  readonly url: string;
  /** Header names lower-cased; auth header values replaced by `[redacted]`. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body as sent (string), if any. */
  readonly body?: string;
  /** The attempt number, 1 for the first try. */
  readonly attempt: number;
  readonly status?: number;
}

/** What the session exposes to a handler (read-only view). */
export interface HandlerSession {
  readonly id: string;
  readonly language: string;
  /** Declared allow-list of languages, if any. */
  readonly languages?: readonly string[];
  readonly vars: Readonly<Record<string, unknown>>;
  /** Name of the active agent, if the session has agents. */
  readonly agent?: string;
}

/** Everything a handler may use besides the arguments. */
export interface HandlerContext {
  readonly tool: ToolDefinition;
  /** The model's tool call id. */
  readonly callId: string;
  readonly session: HandlerSession;
  /** Aborted on interruption or when the handler's deadline passes. */
  readonly signal: AbortSignal;
  /** Called for every HTTP request sent (attempts included), before its response. */
  readonly onRequest?: (record: HttpExchangeRecord) => void;
  /**
   * Called when the response to a request reported through `onRequest` arrives, with that same
   * record and the status. Not called when the attempt failed without a response.
   */
  readonly onResponse?: (record: HttpExchangeRecord, status: number) => void;
  /**
   * Tracing of one HTTP attempt, called before it is sent: headers to add (W3C trace context,
   * when the host enabled propagation) and a callback for its outcome.
   */
  readonly traceAttempt?: (record: HttpExchangeRecord) => {
    readonly headers: Readonly<Record<string, string>>;
    /** `detail`: why, in words built from error codes only (never a body or a header). */
    end(status: number | undefined, failure?: string, detail?: string): void;
  };
  /** Called for every command run, before it starts. */
  readonly onCommand?: (record: CommandRecord) => void;
  /** Tracing of one command run, called before it starts: a callback for how it ended. */
  readonly traceCommand?: (record: CommandRecord) => {
    end(exitCode: number | null | undefined, failure?: string): void;
  };
}

/** Timing of one execution. */
export interface HandlerTiming {
  /** Epoch milliseconds. */
  readonly startedAt: number;
  readonly endedAt: number;
  readonly durationMs: number;
}

/** The outcome of one execution: a value for the model, or a tool error. */
export type HandlerOutcome =
  | ({
      readonly type: 'success';
      /** What the model receives (JSON-serialisable). */
      readonly output: unknown;
      readonly effects: readonly SessionEffect[];
      readonly requests: readonly HttpExchangeRecord[];
    } & HandlerTiming)
  | ({
      readonly type: 'error';
      readonly error: ToolError;
      readonly effects: readonly SessionEffect[];
      readonly requests: readonly HttpExchangeRecord[];
    } & HandlerTiming);

/** Executes tools of one type. */
export interface Handler {
  readonly kind: ToolDefinition['type'];
  execute(
    args: Readonly<Record<string, unknown>>,
    context: HandlerContext,
  ): Promise<HandlerOutcome>;
}

/** What a host action handler may return beyond a plain value. */
export interface ActionResult {
  /** The value the model receives. */
  readonly result?: unknown;
  /** Session variables to set. */
  readonly vars?: Readonly<Record<string, unknown>>;
  /** Hand the conversation to this agent. */
  readonly handoff?: string;
  /** End the session after this turn. */
  readonly endSession?: boolean | { readonly reason?: string };
  /** Text spoken to the caller verbatim. */
  readonly say?: string;
}

/** Context given to a host action handler. */
export interface ActionContext {
  readonly tool: string;
  readonly callId: string;
  readonly session: HandlerSession;
  /**
   * Aborts when the call is cancelled or passes its deadline. A getter: made on first read, so a
   * handler that never reads it costs none (a spread copy of the context leaves it out).
   */
  readonly signal: AbortSignal;
}

/**
 * A host action handler. Return a plain value (the model's result), or an {@link ActionResult}
 * marked with `actionResult(...)` to also change the session.
 */
export type ActionHandler = (
  args: Readonly<Record<string, unknown>>,
  context: ActionContext,
) => unknown | Promise<unknown>;
