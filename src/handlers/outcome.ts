/**
 * Builders of {@link HandlerOutcome}s, so every handler records timing the same way and no
 * handler ever needs to throw: a failure is an outcome carrying a {@link ToolError}.
 */
import { ToolError, type ToolErrorCode } from '../errors.js';
import type { HandlerOutcome, HttpExchangeRecord, SessionEffect } from './types.js';

/** Parts of an outcome besides its timing. */
export type OutcomeBody =
  | {
      readonly type: 'success';
      readonly output: unknown;
      readonly effects?: readonly SessionEffect[];
      readonly requests?: readonly HttpExchangeRecord[];
    }
  | {
      readonly type: 'error';
      readonly error: ToolError;
      readonly effects?: readonly SessionEffect[];
      readonly requests?: readonly HttpExchangeRecord[];
    };

/** The effects of an outcome without any: one frozen array, not a new one per call. */
const NO_EFFECTS: readonly SessionEffect[] = Object.freeze([]);

/**
 * Stamps an outcome body with `startedAt`, `endedAt` and `durationMs` (never negative).
 * `requests` defaults to the body's (else none). Written out, not spread: made for every call.
 */
export function finishOutcome(
  body: OutcomeBody,
  startedAt: number,
  endedAt: number,
  requests: readonly HttpExchangeRecord[] = body.requests ?? [],
): HandlerOutcome {
  const durationMs = Math.max(0, endedAt - startedAt);
  const effects = body.effects ?? NO_EFFECTS;
  return body.type === 'success'
    ? {
        type: 'success',
        output: body.output,
        effects,
        requests,
        startedAt,
        endedAt,
        durationMs,
      }
    : { type: 'error', error: body.error, effects, requests, startedAt, endedAt, durationMs };
}

/** Shorthand for an error body. */
export function errorBody(
  code: ToolErrorCode,
  message: string,
  details?: Record<string, unknown>,
): OutcomeBody {
  return { type: 'error', error: new ToolError(code, message, details) };
}

/** The body of an unexpected throw inside a handler: `handler_error` "internal error: …". */
export function internalErrorBody(err: unknown): OutcomeBody {
  return errorBody('handler_error', `internal error: ${shortMessage(err)}`);
}

/** A short, single-line description of an unknown thrown value, never a stack. */
export function shortMessage(err: unknown, max = 200): string {
  const text = err instanceof Error ? err.message : typeof err === 'string' ? err : 'unknown error';
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Deep copy of a JSON-like definition value, so later mutations never leak into the definition. */
export function copyValue<T>(value: T): T {
  return value === undefined || value === null || typeof value !== 'object'
    ? value
    : structuredClone(value);
}

/** Runs `work` and turns any unexpected throw into a `handler_error` outcome, so handlers never throw. */
export async function neverThrow(
  now: () => number,
  work: (startedAt: number) => Promise<HandlerOutcome>,
): Promise<HandlerOutcome> {
  const startedAt = now();
  try {
    return await work(startedAt);
  } catch (err) {
    return finishOutcome(internalErrorBody(err), startedAt, now());
  }
}

/**
 * A request record with the status it was answered with (a new object: the record as sent may be
 * held by a listener). Written out rather than spread, as it is made for every answered attempt.
 */
export function answeredRecord(record: HttpExchangeRecord, status: number): HttpExchangeRecord {
  const { method, url, headers, body, attempt } = record;
  return body === undefined
    ? { method, url, headers, attempt, status }
    : { method, url, headers, body, attempt, status };
}
