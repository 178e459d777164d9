/**
 * The OpenAI adapter's failures as {@link ModelError}s (openai.ts): the `openai` client's errors
 * mapped to `timeout`, `network` (with the base URL, safe to print, and why the connection
 * failed), `http_status` and `bad_response`.
 */
import { ModelError, asModelError } from './errors.js';

/** The `openai` package's module, whose error classes the mapping tells apart. */
type OpenAISdk = typeof import('openai');

/** A failure of the `openai` client (or of reading its answer) as the model's error. */
export function toModelError(
  err: unknown,
  context: {
    model: string;
    baseURL: string;
    timedOut: boolean;
    timeoutMs: number;
    errors: OpenAISdk;
  },
): ModelError {
  const { model, timedOut, timeoutMs } = context;
  const { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } =
    context.errors;
  if (timedOut || err instanceof APIConnectionTimeoutError) {
    return new ModelError({
      code: 'timeout',
      model,
      message: `model ${model} did not answer within ${timeoutMs} ms`,
      cause: err,
    });
  }
  if (err instanceof APIUserAbortError) {
    return new ModelError({
      code: 'timeout',
      model,
      message: `model ${model} request was aborted`,
      cause: err,
    });
  }
  if (err instanceof APIConnectionError) {
    return new ModelError({
      code: 'network',
      model,
      message: `model ${model} is unreachable at ${shownURL(context.baseURL)}: ${connectionReason(err)}`,
      cause: err,
    });
  }
  if (err instanceof APIError && typeof err.status === 'number') {
    const detail = err.message.length > 300 ? `${err.message.slice(0, 300)}…` : err.message;
    return new ModelError({
      code: 'http_status',
      status: err.status,
      model,
      message: `model ${model} answered HTTP ${err.status}: ${detail}`,
      cause: err,
    });
  }
  if (err instanceof SyntaxError)
    return new ModelError({
      code: 'bad_response',
      model,
      message: `model ${model} sent an answer that is not JSON (is ${shownURL(context.baseURL)} an OpenAI-compatible server?): ${err.message}`,
      cause: err,
    });
  return asModelError(err, model);
}

/**
 * The base URL as safe to print: no user name or password, no query string (a key may travel
 * in either), no fragment.
 */
export function shownURL(baseURL: string): string {
  try {
    const url = new URL(baseURL);
    return `${url.origin}${url.pathname.replace(/\/$/, '')}`;
  } catch {
    return '(an unparsable base URL)';
  }
}

/** Why the connection failed, from the innermost cause that says (`ECONNREFUSED`, a DNS miss). */
function connectionReason(err: Error): string {
  let cause: unknown = err.cause;
  for (let depth = 0; depth < 5 && typeof cause === 'object' && cause !== null; depth++) {
    const { code, message } = cause as { code?: unknown; message?: unknown };
    const text = typeof message === 'string' ? message : String(code);
    if (typeof code === 'string') return `${REASONS.get(code) ?? text} (${code})`;
    // fetch's own refusals (a bad port, a URL with credentials) have no code, only a message.
    if (cause instanceof Error && !(cause.cause instanceof Error) && text !== 'fetch failed')
      return scrubURLs(text);
    cause = (cause as { cause?: unknown }).cause;
  }
  return err.message;
}

/** URLs inside a message without user info, query or fragment (fetch quotes the whole URL). */
function scrubURLs(text: string): string {
  return text.replace(/\bhttps?:\/\/[^\s'"]+/gi, (url) => shownURL(url));
}

const REASONS: ReadonlyMap<string, string> = new Map([
  ['ECONNREFUSED', 'connection refused'],
  ['ENOTFOUND', 'no such host'],
  ['EAI_AGAIN', 'the host name could not be resolved (DNS)'],
  ['ECONNRESET', 'the connection was reset'],
  ['ETIMEDOUT', 'the connection timed out'],
  ['EHOSTUNREACH', 'no route to the host'],
  ['ENETUNREACH', 'the network is unreachable'],
  ['CERT_HAS_EXPIRED', "the server's TLS certificate has expired"],
  ['DEPTH_ZERO_SELF_SIGNED_CERT', "the server's TLS certificate is self-signed"],
]);
