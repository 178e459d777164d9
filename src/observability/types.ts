/**
 * Public types of observability: tracing options and the per-turn latency report.
 */
import type { Tracer } from '@opentelemetry/api';
import type { ModelUsage } from '../models/types.js';

/** OpenTelemetry settings of a session. Spans are made only when the host registered a provider. */
export interface TracingOptions {
  /** The tracer to use. Default: `trace.getTracer('switchboard')` from the global provider. */
  readonly tracer?: Tracer;
  /** Add a W3C `traceparent` (and `tracestate`) header to endpoint requests. Default false. */
  readonly propagateContext?: boolean;
  /** Record tool arguments and results as span attributes. Default false: values never leave. */
  readonly recordValues?: boolean;
  /**
   * Keep path and query values in `url.full`. Default false: each query value, and each path
   * segment that is not a literal part of the tool's URL, is `REDACTED` (a path or query may carry
   * a token). The session's secrets are scrubbed either way.
   */
  readonly recordUrlValues?: boolean;
}

/** One model call of a turn. Milliseconds from the call's start. */
export interface ModelCallTimings {
  readonly durationMs: number;
  /** First streamed part (text or tool call); absent when nothing streamed. */
  readonly timeToFirstTokenMs?: number;
  /** First complete tool call; absent when the answer had none. */
  readonly timeToFirstToolCallMs?: number;
  /** The tokens this call used, as the model reported them; absent when it reported none. */
  readonly usage?: ModelUsage;
}

/** One tool call of a turn. */
export interface ToolCallTimings {
  readonly callId: string;
  readonly tool: string;
  /** From the model's call to the result. */
  readonly durationMs: number;
  /** From the model's call to the handler's start (waiting for a slot, speech, preparation). */
  readonly queuedMs: number;
  readonly errorCode?: string;
}

/** The latency report of one turn (`TurnResult.timings`, and on `turn-end`). */
export interface TurnTimings {
  readonly totalMs: number;
  /** First model call's time to first token; absent when it streamed nothing. */
  readonly modelTimeToFirstTokenMs?: number;
  /** Time from the turn's start to the first complete tool call. */
  readonly modelTimeToFirstToolCallMs?: number;
  readonly modelCalls: readonly ModelCallTimings[];
  readonly tools: readonly ToolCallTimings[];
  /** Bridge and pre-tool phrases spoken during the turn. */
  readonly phrasesSpoken: number;
  /** Tokens of the turn's model calls together (0 for calls that reported none). */
  readonly usage: ModelUsage;
}
