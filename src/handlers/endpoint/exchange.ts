/**
 * One HTTP exchange over an undici dispatcher: send, check the response headers' size, and read
 * the body up to a cap counted after decompression (gzip, deflate, br — undici does not
 * decompress). Uses the low-level `dispatch` handler API: no body stream per call, abort as soon as
 * a limit is passed (the connection is discarded, never drained). Failures are returned as values;
 * the caller maps them to tool errors.
 */
import type { Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Dispatcher } from 'undici';
import type { RequestUrl } from './build-request.js';
import { CallDeadline, NOOP, type Abortable, type AbortWatcher } from './deadline.js';
import { PolicyDeniedError } from './network-policy.js';

/** One request to send. */
export interface ExchangeRequest {
  readonly url: RequestUrl;
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | undefined;
  /** Ends the exchange when aborted (the call's deadline or cancellation). */
  readonly signal: Abortable;
}

/** Limits of one exchange. */
export interface ExchangeLimits {
  /** Cap on the decoded body of a 2xx response (exceeding it is a failure). */
  readonly maxBodyBytes: number;
  /** Cap on the decoded body of other responses (kept as an excerpt; the rest is discarded). */
  readonly maxErrorBodyBytes: number;
  readonly maxHeaderBytes: number;
}

/** A received response with its decoded body. */
export interface ExchangeResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: Buffer;
}

/** Why an exchange failed. */
export type ExchangeFailure =
  | { readonly kind: 'network'; readonly message: string; readonly responded: boolean }
  | { readonly kind: 'aborted' }
  | { readonly kind: 'policy'; readonly message: string }
  | { readonly kind: 'body_too_large' }
  | { readonly kind: 'headers_too_large' }
  | { readonly kind: 'bad_encoding'; readonly message: string };

/** Result of {@link exchange}. */
export type ExchangeResult =
  | { readonly ok: true; readonly response: ExchangeResponse }
  | { readonly ok: false; readonly failure: ExchangeFailure };

function errorCode(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

function causeChain(err: unknown): unknown[] {
  const chain: unknown[] = [];
  let cur: unknown = err;
  while (cur !== undefined && cur !== null && chain.length < 5) {
    chain.push(cur);
    cur = cur instanceof Error ? cur.cause : undefined;
  }
  return chain;
}

/** Maps a thrown transport error to a failure (never its raw message: it may name internals). */
function classify(err: unknown, signal: Abortable, responded: boolean): ExchangeFailure {
  const chain = causeChain(err);
  const denied = chain.find((e) => e instanceof PolicyDeniedError);
  if (denied instanceof PolicyDeniedError) return { kind: 'policy', message: denied.message };
  if (signal.aborted) return { kind: 'aborted' };
  const codes = chain.map(errorCode).filter((c): c is string => c !== undefined);
  if (codes.includes('UND_ERR_HEADERS_OVERFLOW')) return { kind: 'headers_too_large' };
  // zlib reports Z_* codes, brotli ERR__ERROR_FORMAT_* / ERR_BROTLI_* ones.
  if (
    codes.some(
      (c) => c.startsWith('Z_') || c.startsWith('ERR__ERROR_FORMAT') || c.startsWith('ERR_BROTLI'),
    )
  ) {
    return { kind: 'bad_encoding', message: 'the response body could not be decompressed' };
  }
  const first = codes[0];
  // The model sees system codes (ECONNRESET…) but never a library's internal ones (UND_…).
  const reason =
    first === undefined
      ? err instanceof Error
        ? err.name
        : 'error'
      : first.startsWith('UND_')
        ? UNDICI_REASONS.get(first)
        : first;
  return {
    kind: 'network',
    message: `${responded ? 'connection failed mid-response' : 'connection failed'}${reason === undefined ? '' : ` (${reason})`}`,
    responded,
  };
}

/** undici's own error codes, in words; other `UND_…` codes are left out of the message. */
const UNDICI_REASONS: ReadonlyMap<string, string> = new Map([
  ['UND_ERR_CONNECT_TIMEOUT', 'connect timeout'],
  ['UND_ERR_SOCKET', 'socket closed'],
  ['UND_ERR_CLOSED', 'connection closed'],
  ['UND_ERR_DESTROYED', 'connection closed'],
  ['UND_ERR_HEADERS_TIMEOUT', 'no response headers in time'],
  ['UND_ERR_BODY_TIMEOUT', 'response body stalled'],
  ['UND_ERR_RES_CONTENT_LENGTH_MISMATCH', 'response length did not match its content-length'],
]);

/** Approximate size of the response header block as sent on the wire. */
function headerBytes(headers: Readonly<Record<string, string | string[] | undefined>>): number {
  let size = 0;
  for (const name in headers) {
    const value = headers[name];
    if (typeof value === 'string') size += name.length + value.length + 4;
    else if (Array.isArray(value)) for (const v of value) size += name.length + v.length + 4;
  }
  return size;
}

/** Decoders for a `content-encoding` header, in the order to apply them, or a problem. */
function decoders(encoding: string | string[] | undefined): Transform[] | string {
  if (encoding === undefined || encoding === '') return [];
  const text = Array.isArray(encoding) ? encoding.join(',') : encoding;
  const codings = text
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  const out: Transform[] = [];
  for (const coding of codings.reverse()) {
    if (coding === 'gzip' || coding === 'x-gzip') out.push(createGunzip());
    else if (coding === 'deflate') out.push(createInflate());
    else if (coding === 'br') out.push(createBrotliDecompress());
    else return `unsupported content-encoding "${coding}"`;
  }
  return out;
}

/** The result of an aborted exchange (shared: results are only read). */
const ABORTED: ExchangeResult = Object.freeze({
  ok: false,
  failure: Object.freeze({ kind: 'aborted' }),
} as const);

/** The headers of an exchange before any response: shared, never written. */
const NO_HEADERS: Readonly<Record<string, string | string[] | undefined>> = Object.freeze({});

class Aborted extends Error {
  override readonly name = 'AbortError';
}

/** Sends one request and reads its response within the limits. Never throws. */
export function exchange(
  dispatcher: Dispatcher,
  req: ExchangeRequest,
  limits: ExchangeLimits,
): Promise<ExchangeResult> {
  if (req.signal.aborted) return Promise.resolve(ABORTED);
  return new Promise<ExchangeResult>((resolve) => {
    const handler = new Exchange(req.signal, limits, resolve);
    try {
      dispatcher.dispatch(
        {
          origin: req.url.origin,
          path: req.url.path,
          method: req.method,
          headers: req.headers,
          body: req.body ?? null,
          // The caller's deadline governs; undici's own (300 s) timers must never be the ones to fire.
          headersTimeout: 0,
          bodyTimeout: 0,
        },
        handler,
      );
    } catch (err) {
      handler.fail(err);
    }
  });
}

/**
 * The state of one exchange and undici's handler for it. A class, not closures: an exchange is
 * made for every endpoint call, and its methods are shared instead of made per call.
 */
class Exchange implements Dispatcher.DispatchHandler, AbortWatcher {
  readonly #signal: Abortable;
  // A call's deadline is watched through its slot (no closure); other signals through onAbort.
  readonly #deadline: CallDeadline | undefined;
  readonly #limits: ExchangeLimits;
  readonly #resolve: (result: ExchangeResult) => void;
  #offAbort: () => void = NOOP;
  #controller: Dispatcher.DispatchController | undefined;
  #settled = false;
  #responded = false;
  #status = 0;
  #headers: Readonly<Record<string, string | string[] | undefined>> = NO_HEADERS;
  #cap: number;
  #truncate = false;
  #chain: Transform[] | undefined;
  readonly #chunks: Buffer[] = [];
  #total = 0;

  constructor(
    signal: Abortable,
    limits: ExchangeLimits,
    resolve: (result: ExchangeResult) => void,
  ) {
    this.#signal = signal;
    this.#limits = limits;
    this.#resolve = resolve;
    this.#cap = limits.maxBodyBytes;
    if (signal instanceof CallDeadline) {
      this.#deadline = signal;
      signal.watchAbort(this);
    } else {
      this.#deadline = undefined;
      this.#offAbort = signal.onAbort(() => this.abortedNow());
    }
  }

  /** The call's deadline passed or the call was cancelled. */
  abortedNow(): void {
    this.#stop(ABORTED);
  }

  #finish(result: ExchangeResult): void {
    if (this.#settled) return;
    this.#settled = true;
    if (this.#deadline !== undefined) this.#deadline.unwatchAbort(this);
    else this.#offAbort();
    if (this.#chain !== undefined) {
      for (const d of this.#chain) {
        d.on('error', () => undefined);
        d.destroy();
      }
    }
    this.#resolve(result);
  }

  /** Abort the exchange: undici discards the connection instead of draining it. */
  #stop(result: ExchangeResult): void {
    this.#finish(result);
    this.#controller?.abort(new Aborted('stopped'));
  }

  fail(err: unknown): void {
    this.#finish({ ok: false, failure: classify(err, this.#signal, this.#responded) });
  }

  #complete(): void {
    const chunks = this.#chunks;
    const body =
      chunks.length === 1 && chunks[0] !== undefined
        ? chunks[0]
        : Buffer.concat(chunks, this.#total);
    this.#finish({ ok: true, response: { status: this.#status, headers: this.#headers, body } });
  }

  #accept(chunk: Buffer): void {
    if (this.#settled) return;
    const cap = this.#cap;
    if (this.#total + chunk.length <= cap) {
      this.#total += chunk.length;
      this.#chunks.push(chunk);
      return;
    }
    if (!this.#truncate) {
      this.#stop({ ok: false, failure: { kind: 'body_too_large' } });
      return;
    }
    this.#chunks.push(chunk.subarray(0, cap - this.#total));
    this.#total = cap;
    const body = Buffer.concat(this.#chunks, cap);
    this.#stop({ ok: true, response: { status: this.#status, headers: this.#headers, body } });
  }

  onRequestStart(c: Dispatcher.DispatchController): void {
    this.#controller = c;
    // Ended while it waited for a connection (a queued call's deadline passed, or it was
    // cancelled): it must not be sent. Throwing here makes undici drop the request and keep the
    // warm connection; abort() would destroy the socket, one lost connection per expired call.
    if (this.#settled) throw new Aborted('ended before it was sent');
  }

  onResponseStart(
    c: Dispatcher.DispatchController,
    statusCode: number,
    received: Readonly<Record<string, string | string[] | undefined>>,
  ): void {
    this.#controller = c;
    if (this.#settled || statusCode < 200) return; // 1xx informational: the real response follows
    this.#responded = true;
    this.#status = statusCode;
    this.#headers = received;
    if (headerBytes(received) > this.#limits.maxHeaderBytes) {
      this.#stop({ ok: false, failure: { kind: 'headers_too_large' } });
      return;
    }
    if (statusCode >= 300 && statusCode < 400) {
      this.#stop({
        ok: true,
        response: { status: statusCode, headers: received, body: Buffer.alloc(0) },
      });
      return;
    }
    const success = statusCode < 300;
    this.#cap = success ? this.#limits.maxBodyBytes : this.#limits.maxErrorBodyBytes;
    this.#truncate = !success;
    const encoding = received['content-encoding'];
    if (encoding === undefined || encoding === '') return; // the usual case: no decoder
    const found = decoders(encoding);
    if (typeof found === 'string') {
      this.#stop({ ok: false, failure: { kind: 'bad_encoding', message: found } });
      return;
    }
    if (found.length === 0) return;
    this.#chain = found;
    for (let i = 0; i < found.length; i++) {
      const d = found[i] as Transform;
      d.on('error', (err: unknown) => {
        if (!this.#settled) this.#stop({ ok: false, failure: classify(err, this.#signal, true) });
      });
      const next = found[i + 1];
      if (next !== undefined) d.pipe(next);
    }
    const last = found[found.length - 1] as Transform;
    last.on('data', (chunk: Buffer) => this.#accept(chunk));
    last.on('end', () => {
      if (!this.#settled) this.#complete();
    });
  }

  onResponseData(c: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.#settled) return;
    const first = this.#chain?.[0];
    if (first === undefined) this.#accept(chunk);
    else if (!first.write(chunk)) {
      // Back-pressure from the decoder: pause the socket until it drains.
      c.pause();
      first.once('drain', () => c.resume());
    }
  }

  onResponseEnd(): void {
    if (this.#settled) return;
    const first = this.#chain?.[0];
    if (first === undefined) this.#complete();
    else first.end();
  }

  onResponseError(_c: Dispatcher.DispatchController, err: Error): void {
    this.fail(err);
  }
}
