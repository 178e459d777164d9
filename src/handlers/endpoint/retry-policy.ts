/**
 * When an endpoint call is tried again (docs/handlers.md): calls whose side-effect class allows it
 * (`mayRetry`: `none`/`idempotent`, by default get, put, delete; docs/voice.md), on
 * network errors and 429/502/503/504, at most 2 retries, with exponential backoff or the server's
 * `Retry-After` — and only if the wait fits in what is left of the deadline.
 */

/** Retries after the first attempt. */
export const MAX_RETRIES = 2;
/** Backoff before retry n (1-based): 200 ms, 400 ms. */
export const BASE_BACKOFF_MS = 200;

const RETRY_STATUS = new Set([429, 502, 503, 504]);

/** True for statuses worth another attempt. */
export function isRetryableStatus(status: number): boolean {
  return RETRY_STATUS.has(status);
}

/**
 * Parses `Retry-After` (delta seconds or an HTTP date) to milliseconds from `now`.
 * @returns undefined when absent or unparsable.
 */
export function parseRetryAfter(
  value: string | string[] | undefined,
  now: number,
): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (text === undefined || text === '') return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The wait before retry `retry` (1-based), from `Retry-After` if given, else exponential backoff. */
export function retryDelay(retry: number, retryAfterMs: number | undefined): number {
  return retryAfterMs ?? BASE_BACKOFF_MS * 2 ** (retry - 1);
}
