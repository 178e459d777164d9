/**
 * Turns a received response into what the model sees: parsed JSON when the content type says
 * JSON, text otherwise, `{"status": n}` for an empty 2xx body, and typed errors for 3xx
 * (`http_redirect`), other non-2xx (`http_status` with a short excerpt) and unparsable or
 * absurdly nested JSON (`bad_response`).
 */
import { ToolError } from '../../errors.js';
import { nestingDepthExceeds } from '../../json-depth.js';
import type { ExchangeResponse } from './exchange.js';
import { rememberJsonText } from '../json-text.js';

/** Longest body excerpt put into an `http_status` error. */
export const EXCERPT_CHARS = 200;

/**
 * Deepest object/array nesting accepted in a JSON response: 64. A lying service can send
 * `[[[[…` hundreds of thousands deep inside the size cap; JSON.parse copes, but every later
 * walk (secret scrubbing, JSON.stringify of traces, save rules) would overflow the stack.
 */
export const MAX_RESPONSE_DEPTH = 64;

/** True when a content-type names JSON (`application/json`, `application/problem+json`, …). */
export function isJsonContentType(value: string | string[] | undefined): boolean {
  const text = (Array.isArray(value) ? value[0] : value) ?? '';
  // The common exact forms first, without splitting and case-folding.
  if (text === 'application/json' || text.startsWith('application/json;')) return true;
  const mime = (text.split(';', 1)[0] ?? '').trim().toLowerCase();
  return mime === 'application/json' || mime.endsWith('+json') || mime === 'text/json';
}

/** Removes secrets from text; identity when there are none. */
export type Scrubber = (text: string) => string;

/**
 * A single-line excerpt of a body, at most {@link EXCERPT_CHARS} characters. `scrub` runs before
 * the cut: scrubbing after it would miss a secret the cut leaves half in (still a leak).
 */
export function excerpt(body: Buffer, scrub?: Scrubber): string {
  // With secrets to remove, the whole (capped) body: a secret across any shorter cut would survive.
  const head = scrub === undefined ? body.subarray(0, EXCERPT_CHARS * 4) : body;
  const text = (scrub === undefined ? head.toString('utf8') : scrub(head.toString('utf8')))
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .trim();
  return text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS - 1)}…` : text;
}

/** The model's view of a response: a value, or a tool error. */
export type Interpretation =
  | { readonly ok: true; readonly output: unknown }
  | { readonly ok: false; readonly error: ToolError };

/**
 * Interprets a final (not retried) response. `scrub` (default: none) removes secrets from body
 * text before an excerpt of it is cut for an error message.
 */
export function interpretResponse(response: ExchangeResponse, scrub?: Scrubber): Interpretation {
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
    const text = excerpt(response.body, scrub);
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
  if (
    mayNestDeeperThan(text, MAX_RESPONSE_DEPTH) &&
    nestingDepthExceeds(text, MAX_RESPONSE_DEPTH) !== undefined
  ) {
    return {
      ok: false,
      error: new ToolError(
        'bad_response',
        `the endpoint sent JSON nested more than ${MAX_RESPONSE_DEPTH} levels deep`,
        { status },
      ),
    };
  }
  try {
    const output = JSON.parse(text) as unknown;
    // With secrets to remove the output is scrubbed into a copy; the text is never reused then.
    if (scrub === undefined) rememberJsonText(output, text);
    return { ok: true, output };
  } catch {
    return {
      ok: false,
      error: new ToolError(
        'bad_response',
        `the endpoint said JSON but sent something else: ${excerpt(response.body, scrub)}`,
        { status },
      ),
    };
  }
}

/**
 * False when `text` holds at most `max` opening brackets, so no nesting can go deeper than `max`
 * (strings included in the count: it only has to be conservative). `indexOf` is a native scan,
 * much cheaper than the character-by-character depth walk it spares for ordinary bodies.
 */
function mayNestDeeperThan(text: string, max: number): boolean {
  if (text.length <= max) return false;
  let count = 0;
  for (let i = text.indexOf('{'); i !== -1; i = text.indexOf('{', i + 1))
    if (++count > max) return true;
  for (let i = text.indexOf('['); i !== -1; i = text.indexOf('[', i + 1))
    if (++count > max) return true;
  return false;
}
