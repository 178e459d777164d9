/**
 * One HTTP request as seen on the wire by the harness (or the REPL's recorder), normalised from
 * undici's dispatch options: upper-case method, absolute URL, lower-case header names, body text.
 */
import type { Dispatcher } from 'undici';

/** A request the harness saw. */
export interface RecordedRequest {
  /** Upper case, e.g. `POST`. */
  readonly method: string;
  /** Absolute URL including the query string. */
  readonly url: string;
  /** Lower-case names; repeated headers joined with `, `. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body as text; absent when none was sent. `[stream]` when it was not buffered. */
  readonly body?: string;
  /** Index of the declared exchange that answered it; `undefined` when none did. */
  readonly exchange?: number | undefined;
  /** Status answered, when known. */
  readonly status?: number | undefined;
}

function headerMap(raw: Dispatcher.DispatchOptions['headers']): Record<string, string> {
  const out = new Map<string, string>();
  const add = (name: string, value: unknown): void => {
    if (value === undefined || value === null) return;
    const key = name.toLowerCase();
    const text = Array.isArray(value) ? value.map(String).join(', ') : String(value);
    const prev = out.get(key);
    out.set(key, prev === undefined ? text : `${prev}, ${text}`);
  };
  if (raw === undefined || raw === null) return {};
  if (Array.isArray(raw)) {
    // undici's flat form: [name, value, name, value, …]
    for (let i = 0; i + 1 < raw.length; i += 2) add(String(raw[i]), raw[i + 1]);
  } else if (typeof (raw as Iterable<unknown>)[Symbol.iterator] === 'function') {
    for (const entry of raw as Iterable<[string, unknown]>) add(entry[0], entry[1]);
  } else {
    for (const [name, value] of Object.entries(raw as Record<string, unknown>)) add(name, value);
  }
  return Object.fromEntries(out);
}

function bodyText(body: Dispatcher.DispatchOptions['body']): string | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return Buffer.from(body).toString('utf8');
  return '[stream]';
}

/** Normalises undici dispatch options into a {@link RecordedRequest}. */
export function recordRequest(opts: Dispatcher.DispatchOptions): RecordedRequest {
  const origin = opts.origin === undefined ? '' : String(opts.origin).replace(/\/$/, '');
  const url = new URL(String(opts.path), origin === '' ? 'http://localhost' : origin).toString();
  const body = bodyText(opts.body);
  return {
    method: String(opts.method).toUpperCase(),
    url,
    headers: headerMap(opts.headers),
    ...(body === undefined ? {} : { body }),
  };
}

/** Query parameters of a URL as an object; repeated names become arrays. */
export function queryObject(url: string): Record<string, string | string[]> {
  const out = new Map<string, string | string[]>();
  for (const [k, v] of new URL(url).searchParams) {
    const prev = out.get(k);
    out.set(k, prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v]);
  }
  return Object.fromEntries(out);
}

/** A form body as an object; repeated names become arrays. */
export function formObject(body: string): Record<string, string | string[]> {
  return queryObject(`http://x/?${body}`);
}

/** The URL without its query string. */
export function urlWithoutQuery(url: string): string {
  const u = new URL(url);
  u.search = '';
  return u.toString();
}

/**
 * True when a URL a fixture declares and one the engine sent name the same request: the origin,
 * the path segment by segment decoded (`/numbers/+1555` and `/numbers/%2B1555` are one path), and
 * the query parameters in any order: always with `query: 'exact'`, only when the declared URL has
 * a query with `'if-declared'`. A `+` in a declared query is read both ways, as a space (how the
 * engine, form-encoding, writes one) or as a plus (how an author writes a phone number), and
 * either reading may match.
 */
export function sameUrl(declared: string, sent: string, query: 'exact' | 'if-declared'): boolean {
  let want: URL;
  let got: URL;
  try {
    want = new URL(declared);
    got = new URL(sent);
  } catch {
    return false;
  }
  if (want.origin !== got.origin || !samePath(want.pathname, got.pathname)) return false;
  if (want.search === '' && query === 'if-declared') return true;
  return sameQuery(want.search, [...got.searchParams]);
}

/** Each declared pair matches one sent pair, in any order, its `+` read as a space or a plus. */
function sameQuery(declared: string, sent: [string, string][]): boolean {
  const pairs = declared
    .replace(/^\?/, '')
    .split('&')
    .filter((p) => p !== '');
  if (pairs.length !== sent.length) return false;
  const left = [...sent];
  for (const pair of pairs) {
    const [form] = [...new URLSearchParams(pair)];
    const [plus] = [...new URLSearchParams(pair.replaceAll('+', '%2B'))];
    const at = left.findIndex(
      ([k, v]) => (k === form?.[0] && v === form[1]) || (k === plus?.[0] && v === plus[1]),
    );
    if (at < 0) return false;
    left.splice(at, 1);
  }
  return true;
}

function samePath(a: string, b: string): boolean {
  if (a === b) return true;
  const as = a.split('/');
  const bs = b.split('/');
  return as.length === bs.length && as.every((s, i) => decoded(s) === decoded(bs[i]!));
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
