/**
 * Turns a received response into what the model sees: parsed JSON when the content type says
 * JSON, text otherwise, `{"status": n}` for an empty 2xx body, and typed errors for 3xx
 * (`http_redirect`), other non-2xx (`http_status` with a short excerpt) and unparsable JSON
 * (`bad_response`).
 */
import { ToolError } from '../../errors.js';
import type { ExchangeResponse } from './exchange.js';

/** Longest body excerpt put into an `http_status` error. */
export const EXCERPT_CHARS = 200;

/** True when a content-type names JSON (`application/json`, `application/problem+json`, …). */
export function isJsonContentType(value: string | string[] | undefined): boolean {
  const text = (Array.isArray(value) ? value[0] : value) ?? '';
  const mime = (text.split(';', 1)[0] ?? '').trim().toLowerCase();
  return mime === 'application/json' || mime.endsWith('+json') || mime === 'text/json';
}

/** A single-line excerpt of a body, at most {@link EXCERPT_CHARS} characters. */
export function excerpt(body: Buffer): string {
  const text = body
    .subarray(0, EXCERPT_CHARS * 4)
    .toString('utf8')
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .trim();
  return text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS - 1)}…` : text;
}

/** The model's view of a response: a value, or a tool error. */
export type Interpretation =
  | { readonly ok: true; readonly output: unknown }
  | { readonly ok: false; readonly error: ToolError };

/** Interprets a final (not retried) response. */
export function interpretResponse(response: ExchangeResponse): Interpretation {
  const { status } = response;
  if (status >= 300 && status < 400) {
    return {
      ok: false,
      error: new ToolError(
        'http_redirect',
        `the endpoint answered ${status} (a redirect); redirects are not followed`,
        { status },
      ),
    };
  }
  if (status < 200 || status >= 300) {
    const text = excerpt(response.body);
    return {
      ok: false,
      error: new ToolError(
        'http_status',
        `the endpoint answered ${status}${text === '' ? '' : `: ${text}`}`,
        text === '' ? { status } : { status, body: text },
      ),
    };
  }
  if (response.body.length === 0) return { ok: true, output: { status } };
  const text = response.body.toString('utf8');
  if (!isJsonContentType(response.headers['content-type'])) return { ok: true, output: text };
  try {
    return { ok: true, output: JSON.parse(text) as unknown };
  } catch {
    return {
      ok: false,
      error: new ToolError(
        'bad_response',
        `the endpoint said JSON but sent something else: ${excerpt(response.body)}`,
        { status },
      ),
    };
  }
}
