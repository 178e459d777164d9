/**
 * The instruments of one turn: the latency report (always; a few numbers) and OpenTelemetry spans
 * (only when the tracer records). One `switchboard.turn` span per turn, child spans per model call
 * (GenAI semantic conventions), per tool call (`execute_tool`), per HTTP attempt (HTTP client
 * conventions), and bridge/pre-tool phrases as span events.
 *
 * The turn span's parent is the context active when the turn started, which is the host's context
 * at `send()` when the host runs a context manager (AsyncLocalStorage follows the promise chain).
 * Attributes never carry secrets; argument and result values only when the host opts in.
 * A tool call's instruments are in tool-call-trace.ts, the report's shape in turn-timings.ts.
 */
import type { Attributes, Context, Span, SpanKind, Tracer } from '@opentelemetry/api';
import { otel } from '../lazy-deps.js';
import type { CommandRecord } from '../handlers/command/command-config.js';
import type { HttpExchangeRecord } from '../handlers/types.js';
import type { ModelUsage } from '../models/types.js';
import type { ModelCallTimings, ToolCallTimings, TracingOptions, TurnTimings } from './types.js';
import { append } from '../small-arrays.js';
import { REDACTED, safeUrl } from './safe-url.js';
import { fail, globalTracer, modelId, providerOf, safeJson, traceparent } from './span-helpers.js';
import {
  NO_ATTEMPT,
  NO_COMMAND_RUN,
  ToolCall,
  type AttemptTrace,
  type CommandRunTrace,
  type ToolCallTrace,
} from './tool-call-trace.js';
import { turnTimings } from './turn-timings.js';

export type { AttemptTrace, ToolCallTrace } from './tool-call-trace.js';
export { NO_TIMINGS } from './turn-timings.js';

/** Scrubs secrets from text and values (the session's SecretSet). */
export interface Scrubber {
  scrubText(text: string): string;
  scrubValue(value: unknown): unknown;
}

/** What a turn's instruments need to know. */
export interface TurnTracingInit {
  readonly sessionId: string;
  readonly turn: number;
  readonly agent?: string;
  readonly language: string;
  readonly model: string;
  readonly now: () => number;
  readonly options?: TracingOptions;
  /** The session's secrets: scrubbed from recorded values and error messages. */
  readonly secrets?: Scrubber;
  /** When the turn began, if before now (a turn refused while it waited for its lease). */
  readonly startedAt?: number;
}

/** The instruments of one turn. */
export class TurnTracing {
  readonly #init: TurnTracingInit;
  readonly #startedAt: number;
  readonly #span: Span | undefined;
  readonly #context: Context | undefined;
  #modelCalls: ModelCallTimings[] = [];
  #tools: ToolCallTimings[] = [];
  #firstToolCallMs: number | undefined;
  #phrases = 0;
  #inputTokens = 0;
  #outputTokens = 0;
  // The model call under way (modelStart … modelEnd).
  #modelStarted = 0;
  #modelSpan: Span | undefined = undefined;
  #modelFirstToken: number | undefined = undefined;
  #modelFirstToolCall: number | undefined = undefined;

  /** The turn's clock (epoch ms): the injected clock itself, called with no wrapper between. */
  readonly now: () => number;

  constructor(init: TurnTracingInit) {
    this.#init = init;
    this.now = init.now;
    this.#startedAt = init.startedAt ?? init.now();
    const tracer = init.options?.tracer ?? globalTracer();
    // No tracer provider registered (most hosts): the span would be a non-recording one, so none
    // is made. A provider registered later is seen from the next turn on.
    if (tracer === undefined) {
      this.#span = undefined;
      this.#context = undefined;
      return;
    }
    const { context, trace, SpanKind } = otel();
    const parent = context.active();
    const span = tracer.startSpan(
      'switchboard.turn',
      {
        kind: SpanKind.INTERNAL,
        ...(init.startedAt === undefined ? {} : { startTime: init.startedAt }),
        attributes: {
          'switchboard.session.id': init.sessionId,
          'switchboard.turn': init.turn,
          'switchboard.language': init.language,
          ...(init.agent === undefined ? {} : { 'gen_ai.agent.name': init.agent }),
        },
      },
      parent,
    );
    // A tracer with no provider behind it makes non-recording spans: then nothing more is built.
    if (span.isRecording()) {
      this.#span = span;
      this.#context = trace.setSpan(parent, span);
      this.#tracer = tracer;
    } else {
      span.end();
    }
  }

  #tracer: Tracer | undefined;

  /**
   * Starts tracking a model call: one at a time, as a turn's rounds are (`modelPart` and
   * `modelEnd` are about the latest one). Its state is the turn's own fields, not an object per
   * round.
   */
  modelStart(): void {
    this.#modelStarted = this.now();
    this.#modelFirstToken = undefined;
    this.#modelFirstToolCall = undefined;
    // Attributes are built only for a recording turn span (most hosts run without a provider):
    // only then is there a tracer.
    this.#modelSpan =
      this.#tracer === undefined
        ? undefined
        : this.#child(`chat ${modelId(this.#init.model)}`, otel().SpanKind.CLIENT, {
            'gen_ai.operation.name': 'chat',
            'gen_ai.request.model': modelId(this.#init.model),
            ...providerOf(this.#init.model),
          });
  }

  /** A part of the model call's stream arrived (`toolCall`: it was a complete tool call). */
  modelPart(toolCall: boolean): void {
    const at = this.now();
    if (this.#modelFirstToken === undefined) {
      this.#modelFirstToken = at - this.#modelStarted;
      this.#modelSpan?.addEvent('gen_ai.first_token');
    }
    if (toolCall && this.#modelFirstToolCall === undefined) {
      this.#modelFirstToolCall = at - this.#modelStarted;
      this.#firstToolCallMs ??= at - this.#startedAt;
    }
  }

  /** The model call ended: its timings join the turn's report, and its span ends. */
  modelEnd(usage: ModelUsage | undefined, error?: { code: string; message: string }): void {
    const firstToken = this.#modelFirstToken;
    const firstToolCall = this.#modelFirstToolCall;
    // One object, its optional keys added in their usual order (no spreads).
    const timings: { -readonly [K in keyof ModelCallTimings]: ModelCallTimings[K] } = {
      durationMs: this.now() - this.#modelStarted,
    };
    if (firstToken !== undefined) timings.timeToFirstTokenMs = firstToken;
    if (firstToolCall !== undefined) timings.timeToFirstToolCallMs = firstToolCall;
    if (usage !== undefined) {
      timings.usage = usage;
      this.#inputTokens += usage.inputTokens;
      this.#outputTokens += usage.outputTokens;
    }
    this.#modelCalls = append(this.#modelCalls, timings);
    const span = this.#modelSpan;
    if (span === undefined) return;
    this.#modelSpan = undefined;
    if (firstToken !== undefined)
      span.setAttribute('switchboard.model.time_to_first_token_ms', firstToken);
    if (usage !== undefined) {
      span.setAttribute('gen_ai.usage.input_tokens', usage.inputTokens);
      span.setAttribute('gen_ai.usage.output_tokens', usage.outputTokens);
    }
    if (error !== undefined) fail(span, error.code, this.scrubbed(error.message));
    span.end();
  }

  /** Starts tracking one tool call (`args` reach the span only with `recordValues`). */
  toolCall(
    callId: string,
    tool: string,
    toolType: string | undefined,
    ruleCount: number,
    args: unknown,
  ): ToolCallTrace {
    const started = this.now();
    const span =
      this.#tracer === undefined
        ? undefined
        : this.#child(`execute_tool ${tool}`, otel().SpanKind.INTERNAL, {
            'gen_ai.operation.name': 'execute_tool',
            'gen_ai.tool.name': tool,
            'gen_ai.tool.call.id': callId,
            'gen_ai.tool.type': 'function',
            ...(toolType === undefined ? {} : { 'switchboard.tool.type': toolType }),
            'switchboard.transform.rule_count': ruleCount,
            ...(this.#init.options?.recordValues === true && args !== undefined
              ? { 'gen_ai.tool.call.arguments': this.recorded(args, []) }
              : {}),
          });
    return new ToolCall(this, callId, tool, started, span);
  }

  /** For {@link ToolCall}: a tool call ended. */
  toolCallEnded(timings: ToolCallTimings): void {
    this.#tools = append(this.#tools, timings);
  }

  /** For {@link ToolCall}: whether values (arguments, results) go on spans. */
  recordsValues(): boolean {
    return this.#init.options?.recordValues === true;
  }

  /**
   * For {@link ToolCall}: a value as a span attribute, JSON with the session's secrets and the
   * values left out of the call's `url.full` scrubbed (an API may echo a query key it was sent).
   */
  recorded(value: unknown, redacted: readonly string[]): string {
    const secrets = this.#init.secrets;
    let json = safeJson(secrets === undefined ? value : secrets.scrubValue(value));
    for (const v of redacted) {
      if (v.length < 4) continue;
      for (const form of new Set([v, JSON.stringify(v).slice(1, -1)]))
        json = json.split(form).join(REDACTED);
    }
    return json;
  }

  /** For span status messages: the text with the session's secrets scrubbed. */
  scrubbed(text: string): string {
    return this.#init.secrets?.scrubText(text) ?? text;
  }

  /** For {@link ToolCall}: the context a tool call's child spans (HTTP attempts) start under. */
  contextOf(span: Span): Context {
    const { context, trace } = otel();
    return trace.setSpan(this.#context ?? context.active(), span);
  }

  /** A bridge or pre-tool phrase was spoken. */
  phrase(source: string, tool: string | undefined): void {
    this.#phrases++;
    this.#span?.addEvent('switchboard.phrase', {
      'switchboard.phrase.source': source,
      ...(tool === undefined ? {} : { 'gen_ai.tool.name': tool }),
    });
  }

  /**
   * Returns the latency report and ends the turn span, or (`storing`) leaves it open for
   * {@link stored}: a turn whose save fails must not be an OK span.
   */
  end(
    outcome: { interrupted: boolean; error?: { code: string; message: string } },
    storing = false,
  ): TurnTimings {
    const timings = turnTimings(
      this.#init.now() - this.#startedAt,
      this.#modelCalls[0]?.timeToFirstTokenMs,
      this.#firstToolCallMs,
      this.#modelCalls,
      this.#tools,
      this.#phrases,
      { inputTokens: this.#inputTokens, outputTokens: this.#outputTokens },
    );
    const span = this.#span;
    if (span !== undefined) {
      span.setAttribute('switchboard.interrupted', outcome.interrupted);
      // The turn's tokens over all its model calls (each model span has its own).
      span.setAttribute('gen_ai.usage.input_tokens', this.#inputTokens);
      span.setAttribute('gen_ai.usage.output_tokens', this.#outputTokens);
      span.setAttribute('switchboard.tool_calls', this.#tools.length);
      if (outcome.error !== undefined)
        fail(span, outcome.error.code, this.scrubbed(outcome.error.message));
      if (!storing) span.end();
    }
    return timings;
  }

  /** The turn's save is over (after `end(…, true)`): its failure, if any, fails the turn span. */
  stored(error?: unknown): void {
    const span = this.#span;
    if (span === undefined) return;
    if (error !== undefined) {
      const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : '';
      fail(
        span,
        typeof code === 'string' ? code : 'store_failed',
        this.scrubbed(error instanceof Error ? error.message : String(error)),
      );
    }
    span.end();
  }

  /**
   * For {@link ToolCall}: tracks one HTTP attempt under `parent`; the values its `url.full` left
   * out go to `redacted`.
   */
  attempt(
    record: HttpExchangeRecord,
    parent: Context | undefined,
    urlTemplate: string | undefined,
    redacted: string[],
  ): AttemptTrace {
    if (parent === undefined || this.#tracer === undefined) return NO_ATTEMPT;
    const url = safeUrl(record.url, urlTemplate, this.#init.options?.recordUrlValues === true);
    if (url !== undefined) redacted.push(...url.redacted);
    const { propagation, trace, SpanKind } = otel();
    const span = this.#tracer.startSpan(
      record.method,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          'http.request.method': record.method,
          ...(url === undefined
            ? {}
            : {
                'url.full': this.scrubbed(url.full),
                'url.scheme': url.scheme,
                'server.address': url.host,
                ...(url.port === undefined ? {} : { 'server.port': url.port }),
              }),
          ...(record.attempt > 1 ? { 'http.request.resend_count': record.attempt - 1 } : {}),
        },
      },
      parent,
    );
    const headers: Record<string, string> = {};
    if (this.#init.options?.propagateContext === true) {
      // The host's propagator when it registered one (the Node SDK does); else W3C by hand.
      propagation.inject(trace.setSpan(parent, span), headers);
      if (!Object.hasOwn(headers, 'traceparent')) headers['traceparent'] = traceparent(span);
    }
    return {
      headers,
      end: (status, failure, detail) => {
        if (status !== undefined) span.setAttribute('http.response.status_code', status);
        if (failure !== undefined)
          fail(
            span,
            this.scrubbed(failure),
            detail === undefined ? undefined : this.scrubbed(detail),
          );
        else if (status !== undefined && status >= 400) fail(span, String(status));
        span.end();
      },
    };
  }

  /**
   * For {@link ToolCall}: tracks one command run under `parent` (a CLIENT span named after the
   * command; its argv only when values are recorded, scrubbed like arguments).
   */
  commandRun(record: CommandRecord, parent: Context | undefined): CommandRunTrace {
    if (parent === undefined || this.#tracer === undefined) return NO_COMMAND_RUN;
    const span = this.#tracer.startSpan(
      `command ${record.command}`,
      {
        kind: otel().SpanKind.CLIENT,
        attributes: {
          'process.executable.name': record.command,
          ...(this.recordsValues()
            ? { 'process.command_args': this.recorded(record.argv, []) }
            : {}),
        },
      },
      parent,
    );
    return {
      end: (exitCode, failure) => {
        if (typeof exitCode === 'number') span.setAttribute('process.exit.code', exitCode);
        if (failure !== undefined) fail(span, this.scrubbed(failure));
        span.end();
      },
    };
  }

  #child(name: string, kind: SpanKind, attributes: Attributes): Span | undefined {
    if (this.#tracer === undefined || this.#context === undefined) return undefined;
    return this.#tracer.startSpan(name, { kind, attributes }, this.#context);
  }
}
