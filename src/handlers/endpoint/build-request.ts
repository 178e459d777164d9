/**
 * Builds the HTTP request of one endpoint call from the final arguments (docs/handlers.md placement):
 * path placeholders, query string, JSON body or form body. Every model value is checked for
 * control characters, and the built URL must keep the configured origin and path prefix —
 * anything else is refused before a connection is made.
 */
import type { ArgumentLocation } from '../../definition/types.js';
import type { UrlTemplate } from './url.js';

/**
 * The parts of a request URL the handler uses, all as `URL` would report them. Built without a
 * parse when the template allows it (the common case), from a `URL` otherwise.
 */
export interface RequestUrl {
  readonly href: string;
  readonly origin: string;
  readonly protocol: string;
  readonly hostname: string;
  readonly port: string;
  /** Path and query (`pathname + search`): what goes on the request line. */
  readonly path: string;
}

/** The {@link RequestUrl} of a parsed URL. */
export function requestUrl(url: URL): RequestUrl {
  const { href, origin, protocol, hostname, port, pathname, search } = url;
  return { href, origin, protocol, hostname, port, path: pathname + search };
}

/** A request ready to send (headers other than content-type are added later). */
export interface BuiltRequest {
  readonly url: RequestUrl;
  readonly body?: string;
  readonly contentType?: string;
}

/** Why a request could not be built; always the model's fault (`invalid_arguments`). */
export interface BuildFailure {
  readonly problem: string;
}

/**
 * True when a string holds a control character (C0 or DEL): never allowed in a path, query or
 * header value. A loop, not a regular expression: it runs on every value of every call, and a
 * regular expression's machinery is the larger cost when the code runs cold, between two I/Os.
 */
export function hasControlChars(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

// ASCII characters by what leaves them as they are: the form-urlencoded serializer (WHATWG URL,
// as URLSearchParams writes it) keeps A–Z a–z 0–9 - . _ *; encodeURIComponent keeps those and
// ! ' ( ) ~ too.
const FORM_KEEPS = 1;
const URI_COMPONENT_KEEPS = 2;
const ASCII_KEPT = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  const alnum = /[A-Za-z0-9]/.test(ch);
  if (alnum || '-._*'.includes(ch)) ASCII_KEPT[c] = (ASCII_KEPT[c] ?? 0) | FORM_KEEPS;
  if (alnum || "-._*!~'()".includes(ch)) ASCII_KEPT[c] = (ASCII_KEPT[c] ?? 0) | URI_COMPONENT_KEEPS;
}

/** True when `encoding` (one of the flags above) leaves every character of `text` as it is. */
function keptAsIs(text: string, encoding: number): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 128 || ((ASCII_KEPT[c] ?? 0) & encoding) === 0) return false;
  }
  return true;
}

// What HTTP/1.1 allows in a header value (RFC 9110 field-vchar, SP) minus HTAB; undici throws
// on anything else, which would otherwise surface as a misleading (and retried) network error.
const HEADER_VALUE_UNSAFE = /[^\u0020-\u007e\u0080-\u00ff]/;
// RFC 9110 token.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Why a header cannot be sent as written, or undefined when it can. */
export function headerProblem(name: string, value: string): string | undefined {
  if (!HEADER_NAME.test(name)) return `header name ${JSON.stringify(name)} is not a valid token`;
  if (hasControlChars(value)) return `header "${name}" contains control characters`;
  if (HEADER_VALUE_UNSAFE.test(value))
    return `header "${name}" contains characters that cannot be sent in a header`;
  return undefined;
}

/** The string form of a query/form value: arrays handled by the caller, objects as JSON. */
function scalarText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  return String(value);
}

/**
 * The arguments as `application/x-www-form-urlencoded` (`key=value&…`, exactly as
 * `URLSearchParams` writes them): arrays repeat the key, null/undefined are left out. A pair whose
 * name and value are their own encoding (the usual `units=metric`) is written as it is; only the
 * others go through `URLSearchParams` (its output is the `&`-join of its pairs', so pair by pair
 * gives the same text).
 */
function formEncode(
  args: Readonly<Record<string, unknown>>,
  skip: ReadonlySet<string>,
  refuseControls: boolean,
): string | BuildFailure {
  let out = '';
  for (const key of Object.keys(args)) {
    if (skip.has(key)) continue;
    const value = args[key];
    const many = Array.isArray(value);
    const count = many ? (value as unknown[]).length : 1;
    for (let i = 0; i < count; i++) {
      const item: unknown = many ? (value as unknown[])[i] : value;
      if (item === undefined || item === null) continue;
      const text = scalarText(item);
      let pair: string;
      if (keptAsIs(key, FORM_KEEPS) && keptAsIs(text, FORM_KEEPS)) pair = `${key}=${text}`;
      else if (refuseControls && (hasControlChars(text) || hasControlChars(key)))
        return { problem: `argument "${key}" contains control characters` };
      else pair = new URLSearchParams([[key, text]]).toString();
      out += out === '' ? pair : `&${pair}`;
    }
  }
  return out;
}

/** Encodes one path placeholder value, or says why it cannot be used. */
function pathSegment(name: string, value: unknown): string | BuildFailure {
  if (value === undefined || value === null) return { problem: `missing path parameter "${name}"` };
  if (typeof value === 'object')
    return { problem: `path parameter "${name}" must be a string, number or boolean` };
  const text = String(value);
  // URL parsers treat `.`/`..` (even percent-encoded) as dot segments, and empty collapses the path.
  if (text === '' || text === '.' || text === '..') {
    return { problem: `path parameter "${name}" must not be empty, "." or ".."` };
  }
  // The usual value (a name, a number) is its own encoding, and holds no control character.
  if (keptAsIs(text, URI_COMPONENT_KEEPS)) return text;
  if (hasControlChars(text))
    return { problem: `path parameter "${name}" contains control characters` };
  try {
    return encodeURIComponent(text);
  } catch {
    // URIError: a lone surrogate.
    return { problem: `path parameter "${name}" is not well-formed Unicode` };
  }
}

const NO_NAMES: ReadonlySet<string> = new Set();
// URLs of templates whose calls never change the URL; read-only once built.
const fixedUrls = new WeakMap<UrlTemplate, RequestUrl>();
// A dot segment as the URL parser sees one (`.`, `..`, either dot percent-encoded, any case).
const DOT_SEGMENT = /(?:^|\/)(?:\.|%2e){1,2}(?:\/|$)/i;

/** False when `path` cannot hold a dot segment (no `.`, no `%2e` in either case): no regex run. */
function mayHaveDotSegment(path: string): boolean {
  return path.includes('.') || path.includes('%2e') || path.includes('%2E');
}

/** A plain data object (no inherited `toJSON` a copy would lose). */
function isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function isFailure(value: unknown): value is BuildFailure {
  return typeof value === 'object' && value !== null && 'problem' in value;
}

/**
 * Builds the request of one call. Pure: the arguments are only read.
 * @returns the request, or a failure to report as `invalid_arguments` (nothing is sent).
 */
export function buildRequest(
  template: UrlTemplate,
  location: ArgumentLocation,
  args: Readonly<Record<string, unknown>>,
): BuiltRequest | BuildFailure {
  let path = template.pieces[0] ?? '';
  for (let i = 0; i < template.names.length; i++) {
    const name = template.names[i] ?? '';
    const segment = pathSegment(name, Object.hasOwn(args, name) ? args[name] : undefined);
    if (isFailure(segment)) return segment;
    path += segment + (template.pieces[i + 1] ?? '');
  }
  const used =
    template.names.length === 0 ? NO_NAMES : (template.canonical?.names ?? new Set(template.names));
  let query = template.query;
  let body: string | undefined;
  let contentType: string | undefined;
  if (location === 'body') {
    if (used.size === 0 && isPlainObject(args)) {
      // Nothing moved to the path: the copy would hold exactly the arguments' own enumerable
      // keys in their order, which is what JSON.stringify writes of the arguments themselves.
      body = JSON.stringify(args);
    } else {
      const rest: Record<string, unknown> = {};
      for (const key of Object.keys(args))
        if (!used.has(key))
          Object.defineProperty(rest, key, {
            value: args[key],
            enumerable: true,
            writable: true,
            configurable: true,
          });
      body = JSON.stringify(rest);
    }
    contentType = 'application/json';
  } else {
    // Form bodies encode control characters safely; only URLs refuse them.
    const encoded = formEncode(args, used, location !== 'form');
    if (isFailure(encoded)) return encoded;
    if (location === 'form') {
      body = encoded;
      contentType = 'application/x-www-form-urlencoded';
    } else if (encoded !== '') {
      query = query === '' ? encoded : `${query}&${encoded}`;
    }
  }
  // No argument in the URL (a body, or nothing to send): the same URL every call, built once.
  const fixed = template.names.length === 0 && query === template.query;
  let url = fixed ? fixedUrls.get(template) : undefined;
  if (url === undefined) {
    const text = template.origin + path + (query === '' ? '' : `?${query}`);
    const parts = template.canonical;
    // A canonical template's pieces, segments from encodeURIComponent and a query from
    // URLSearchParams are all kept as written by the parser, so origin and prefix hold by
    // construction. Only a segment that comes out as a dot segment would be rewritten (`.` and
    // `..` alone are refused above, but `%2` in the configured path and an `e` make `%2e`).
    if (
      parts !== undefined &&
      (template.names.length === 0 || !mayHaveDotSegment(path) || !DOT_SEGMENT.test(path))
    ) {
      const { protocol, hostname, port } = parts;
      const { origin } = template;
      url = { href: text, origin, protocol, hostname, port, path: text.slice(origin.length) };
    } else {
      let parsed: URL;
      try {
        parsed = new URL(text);
      } catch {
        return { problem: 'the arguments do not make a valid URL' };
      }
      // The invariant of docs/handlers.md: no value may move the request to another origin or path.
      if (parsed.origin !== template.origin || !parsed.pathname.startsWith(template.pathPrefix)) {
        return { problem: 'the arguments would move the request outside the configured URL' };
      }
      url = requestUrl(parsed);
    }
    if (fixed) fixedUrls.set(template, url);
  }
  return body === undefined
    ? { url }
    : contentType === undefined
      ? { url, body }
      : { url, body, contentType };
}

export { isFailure as isBuildFailure };
