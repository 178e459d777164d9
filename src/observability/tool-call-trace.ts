/**
 * The instruments of one tool call: its timings for the turn's report, its `execute_tool` span,
 * and the spans and trace headers of its HTTP attempts.
 */
import type { Context, Span } from '@opentelemetry/api';
import type { CommandRecord } from '../handlers/command/command-config.js';
import type { HttpExchangeRecord } from '../handlers/types.js';
import type { ToolCallTimings } from './types.js';
import { fail } from './span-helpers.js';

/** Tracks one tool call. */
export interface ToolCallTrace {
  /** The handler starts (the call waited until now). */
  dispatched(): void;
  /**
   * Whether the call has a recording span: only then do its HTTP attempts get spans, so without
   * it `attempt` need not be called (it would return no headers and an end that does nothing).
   */
  readonly recording: boolean;
  /**
   * One HTTP attempt is about to be sent; returns headers to add and its end. `urlTemplate`: the
   * tool's endpoint URL, whose literal path segments `url.full` keeps.
   */
  attempt(record: HttpExchangeRecord, urlTemplate?: string): AttemptTrace;
  /** One command run is about to start (a `command` tool); returns its end. */
  command(record: CommandRecord): CommandRunTrace;
  /** The call finished: its error code, if it failed, and its output. */
  end(errorCode: string | undefined, output: unknown): void;
}

/** Tracks one HTTP attempt. */
export interface AttemptTrace {
  /** W3C trace context headers to send (empty unless the host enabled propagation). */
  readonly headers: Readonly<Record<string, string>>;
  end(status: number | undefined, failure?: string, detail?: string): void;
}

/** Tracks one command run. */
export interface CommandRunTrace {
  /** The exit code (undefined when it never exited on its own) and the failure's code, if any. */
  end(exitCode: number | null | undefined, failure?: string): void;
}

export const NO_COMMAND_RUN: CommandRunTrace = { end: () => undefined };

export const NO_ATTEMPT: AttemptTrace = { headers: {}, end: () => undefined };

/** What a {@link ToolCall} asks of its turn (the turn's `TurnTracing`). */
export interface ToolCallOwner {
  /** The turn's clock (epoch ms). */
  readonly now: () => number;
  /** The context a tool call's child spans (HTTP attempts) start under. */
  contextOf(span: Span): Context;
  /** Tracks one HTTP attempt under `parent`; the values its `url.full` left out go to `redacted`. */
  attempt(
    record: HttpExchangeRecord,
    parent: Context | undefined,
    urlTemplate: string | undefined,
    redacted: string[],
  ): AttemptTrace;
  /** Tracks one command run under `parent`. */
  commandRun(record: CommandRecord, parent: Context | undefined): CommandRunTrace;
  /** A tool call ended. */
  toolCallEnded(timings: ToolCallTimings): void;
  /** Whether values (arguments, results) go on spans. */
  recordsValues(): boolean;
  /** A value as a span attribute, with secrets and `redacted` values scrubbed. */
  recorded(value: unknown, redacted: readonly string[]): string;
}

/**
 * One tool call. A class, not an object of closures: made for every call, so a single object with
 * its state in fields instead of closures, their context and the object holding them. (Calls of a
 * round run side by side, so each has its own, unlike the model calls.)
 */
export class ToolCall implements ToolCallTrace {
  readonly #turn: ToolCallOwner;
  readonly #callId: string;
  readonly #tool: string;
  readonly #started: number;
  readonly #span: Span | undefined;
  readonly #spanContext: Context | undefined;
  #dispatchedAt: number | undefined;
  /** Values left out of this call's `url.full`s (made by its first traced attempt). */
  #redacted: string[] | undefined;

  constructor(
    turn: ToolCallOwner,
    callId: string,
    tool: string,
    started: number,
    span: Span | undefined,
  ) {
    this.#turn = turn;
    this.#callId = callId;
    this.#tool = tool;
    this.#started = started;
    this.#span = span;
    this.#spanContext = span === undefined ? undefined : turn.contextOf(span);
  }

  dispatched(): void {
    this.#dispatchedAt ??= this.#turn.now();
  }

  get recording(): boolean {
    return this.#span !== undefined;
  }

  attempt(record: HttpExchangeRecord, urlTemplate?: string): AttemptTrace {
    return this.#turn.attempt(record, this.#spanContext, urlTemplate, (this.#redacted ??= []));
  }

  command(record: CommandRecord): CommandRunTrace {
    return this.#turn.commandRun(record, this.#spanContext);
  }

  end(errorCode: string | undefined, output: unknown): void {
    const at = this.#turn.now();
    const callId = this.#callId;
    const tool = this.#tool;
    const durationMs = at - this.#started;
    const queuedMs = (this.#dispatchedAt ?? at) - this.#started;
    this.#turn.toolCallEnded(
      errorCode === undefined
        ? { callId, tool, durationMs, queuedMs }
        : { callId, tool, durationMs, queuedMs, errorCode },
    );
    const span = this.#span;
    if (span === undefined) return;
    span.setAttribute('switchboard.tool.queued_ms', queuedMs);
    if (errorCode !== undefined) fail(span, errorCode);
    else if (this.#turn.recordsValues())
      span.setAttribute(
        'gen_ai.tool.call.result',
        this.#turn.recorded(output, this.#redacted ?? []),
      );
    span.end();
  }
}
