/**
 * The parts of an endpoint request that do not depend on the handler (endpoint-handler.ts): the
 * method names, the headers of a call without a service (shared, frozen), the parsed URL templates
 * shared by every handler, and the `Idempotency-Key` of an unsafe call.
 */
import type { EndpointConfig } from '../../definition/types.js';
import { idempotencyKey, sideEffectClass } from '../../definition/side-effects.js';
import type { HandlerContext } from '../types.js';
import { parseUrlTemplate, type UrlTemplate } from './url.js';

export const METHOD = { get: 'GET', post: 'POST', put: 'PUT', delete: 'DELETE' } as const;
export const ACCEPT = 'application/json, */*;q=0.8';
export const ACCEPT_ENCODING = 'gzip, deflate, br';
export const NO_SECRETS: ReadonlySet<string> = new Set();

/** The request headers of a call without a service: one frozen object per content type. */
const STATIC_HEADERS = new Map<string | undefined, Readonly<Record<string, string>>>();
export function staticHeaders(contentType: string | undefined): Readonly<Record<string, string>> {
  let headers = STATIC_HEADERS.get(contentType);
  if (headers === undefined) {
    headers = Object.freeze({
      accept: ACCEPT,
      'accept-encoding': ACCEPT_ENCODING,
      ...(contentType === undefined ? {} : { 'content-type': contentType }),
    });
    // Two content types exist (JSON and form); the bound only guards against a future change.
    if (STATIC_HEADERS.size < 8) STATIC_HEADERS.set(contentType, headers);
  }
  return headers;
}

/** The prepared headers of a call without a service: shared, like the headers themselves. */
const STATIC_PREPARED = new Map<
  string | undefined,
  { headers: Readonly<Record<string, string>>; secretHeaders: ReadonlySet<string> }
>();
export function staticPrepared(contentType: string | undefined): {
  headers: Readonly<Record<string, string>>;
  secretHeaders: ReadonlySet<string>;
} {
  let prepared = STATIC_PREPARED.get(contentType);
  if (prepared === undefined) {
    prepared = Object.freeze({ headers: staticHeaders(contentType), secretHeaders: NO_SECRETS });
    if (STATIC_PREPARED.size < 8) STATIC_PREPARED.set(contentType, prepared);
  }
  return prepared;
}

// Parsed URL templates of the definitions in use, shared by every handler (so by every session):
// a template depends only on the configured URL, and parsing it per session was a visible part
// of a session's first call.
const templates = new WeakMap<EndpointConfig, UrlTemplate | string>();

/** The template of a definition's URL, or why it cannot be used. */
export function templateOf(endpoint: EndpointConfig): UrlTemplate | string {
  let t = templates.get(endpoint);
  if (t === undefined) {
    try {
      t = parseUrlTemplate(endpoint.url);
    } catch (err) {
      t = err instanceof Error ? err.message : 'bad endpoint URL';
    }
    templates.set(endpoint, t);
  }
  return t;
}

/**
 * The headers of an `unsafe` call (docs/voice.md) with an `Idempotency-Key` stable across its
 * retries and a resume (session id + call id), unless the service already sets one.
 */
export function withIdempotencyKey(
  headers: Readonly<Record<string, string>>,
  context: HandlerContext,
  ours: boolean,
): Readonly<Record<string, string>> {
  if (sideEffectClass(context.tool) !== 'unsafe') return headers;
  // Our own static headers never carry a key; a service's may.
  if (!ours) for (const h in headers) if (h.toLowerCase() === 'idempotency-key') return headers;
  // Frozen: without a service the request record shares this object. Object.assign, not a key
  // after a spread (docs/architecture.md): depending on the source, that can give every call's
  // headers a hidden class of their own once optimized, and undici reads every request header.
  return Object.freeze(
    Object.assign({}, headers, {
      'idempotency-key': idempotencyKey(context.session.id, context.callId),
    }),
  );
}
