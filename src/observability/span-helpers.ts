/**
 * OpenTelemetry helpers of the turn's instruments: the global tracer (when a provider is
 * registered), W3C `traceparent`, failed span status, model attributes and safe JSON values.
 */
import type { Attributes, Span, Tracer } from '@opentelemetry/api';
import { otel } from '../lazy-deps.js';

const TRACER_NAME = 'switchboard';

/**
 * The global tracer, or undefined while no tracer provider is registered (the global provider is
 * then a proxy without a delegate, whose tracers only make non-recording spans).
 */
export function globalTracer(): Tracer | undefined {
  const { trace, ProxyTracerProvider } = otel();
  const provider = trace.getTracerProvider();
  if (
    provider instanceof ProxyTracerProvider &&
    provider.getDelegateTracer(TRACER_NAME) === undefined
  )
    return undefined;
  return trace.getTracer(TRACER_NAME);
}

/** The W3C `traceparent` of a span (version 00). */
export function traceparent(span: Span): string {
  const c = span.spanContext();
  return `00-${c.traceId}-${c.spanId}-${(c.traceFlags & 0xff).toString(16).padStart(2, '0')}`;
}

export function fail(span: Span, code: string, message?: string): void {
  span.setAttribute('error.type', code);
  span.setStatus({
    code: otel().SpanStatusCode.ERROR,
    ...(message === undefined ? {} : { message }),
  });
}

/** `openai:gpt-4o-mini` → `gpt-4o-mini`. */
export function modelId(name: string): string {
  const colon = name.indexOf(':');
  return colon === -1 ? name : name.slice(colon + 1);
}

export function providerOf(name: string): Attributes {
  const colon = name.indexOf(':');
  return colon === -1 ? {} : { 'gen_ai.provider.name': name.slice(0, colon) };
}

export function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch {
    return '"[unserialisable]"';
  }
}
