/**
 * One HTTP exchange over an undici dispatcher: send, check the response headers' size, and read
 * the body up to a cap counted after decompression (gzip, deflate, br — `dispatcher.request` does
 * not decompress). Failures are returned as values; the caller maps them to tool errors.
 */
import { pipeline, type Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Dispatcher } from 'undici';
import { PolicyDeniedError } from './network-policy.js';

/** One request to send. */
export interface ExchangeRequest {
  readonly url: URL;
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly signal: AbortSignal;
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
export type ExchangeResult = { readonly ok: true; readonly response: ExchangeResponse } | { readonly ok: false; readonly failure: ExchangeFailure };

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
function classify(err: unknown, signal: AbortSignal, responded: boolean): ExchangeFailure {
  const chain = causeChain(err);
  const denied = chain.find((e) => e instanceof PolicyDeniedError);
  if (denied instanceof PolicyDeniedError) return { kind: 'policy', message: denied.message };
  if (signal.aborted) return { kind: 'aborted' };
  const codes = chain.map(errorCode).filter((c): c is string => c !== undefined);
  if (codes.includes('UND_ERR_HEADERS_OVERFLOW')) return { kind: 'headers_too_large' };
  if (codes.includes('Z_DATA_ERROR') || codes.includes('Z_BUF_ERROR') || codes.includes('ERR__ERROR_FORMAT_PADDING_1')) {
    return { kind: 'bad_encoding', message: 'the response body could not be decompressed' };
  }
  const code = codes[0] ?? (err instanceof Error ? err.name : 'error');
  return { kind: 'network', message: `${responded ? 'connection failed mid-response' : 'connection failed'} (${code})`, responded };
}

/** Destroys a body we no longer want; the error it then emits is expected, not a crash. */
function discard(stream: Readable): void {
  stream.on('error', () => undefined);
  stream.destroy();
}

/** Approximate size of the response header block as sent on the wire. */
function headerBytes(headers: Readonly<Record<string, string | string[] | undefined>>): number {
  let size = 0;
  for (const [name, value] of Object.entries(headers)) {
    const values = Array.isArray(value) ? value : value === undefined ? [] : [value];
    for (const v of values) size += name.length + v.length + 4;
  }
  return size;
}

/** Decoders for a `content-encoding` header, in the order to apply them, or a problem. */
function decoders(encoding: string | string[] | undefined): NodeJS.ReadWriteStream[] | string {
  const text = Array.isArray(encoding) ? encoding.join(',') : (encoding ?? '');
  const codings = text.split(',').map((c) => c.trim().toLowerCase()).filter((c) => c !== '' && c !== 'identity');
  const out: NodeJS.ReadWriteStream[] = [];
  for (const coding of codings.reverse()) {
    if (coding === 'gzip' || coding === 'x-gzip') out.push(createGunzip());
    else if (coding === 'deflate') out.push(createInflate());
    else if (coding === 'br') out.push(createBrotliDecompress());
    else return `unsupported content-encoding "${coding}"`;
  }
  return out;
}

/** Reads a body up to `cap` decoded bytes; `truncate` keeps the first bytes instead of failing. */
async function readBody(
  raw: Readable,
  encoding: string | string[] | undefined,
  cap: number,
  truncate: boolean,
): Promise<{ readonly body: Buffer } | { readonly tooLarge: true } | { readonly problem: string }> {
  const chain = decoders(encoding);
  if (typeof chain === 'string') {
    discard(raw);
    return { problem: chain };
  }
  let stream: Readable = raw;
  if (chain.length > 0) {
    // pipeline forwards errors and destruction between the raw body and the decoders.
    stream = (pipeline as unknown as (...s: unknown[]) => Readable)(raw, ...chain, () => undefined);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    if (total + chunk.length > cap) {
      // Stop at once: the connection is discarded, not drained (a slow or endless body).
      discard(raw);
      discard(stream);
      if (!truncate) return { tooLarge: true };
      chunks.push(chunk.subarray(0, cap - total));
      return { body: Buffer.concat(chunks) };
    }
    total += chunk.length;
    chunks.push(chunk);
  }
  return { body: chunks.length === 1 && chunks[0] !== undefined ? chunks[0] : Buffer.concat(chunks, total) };
}

/** Sends one request and reads its response within the limits. Never throws. */
export async function exchange(dispatcher: Dispatcher, req: ExchangeRequest, limits: ExchangeLimits): Promise<ExchangeResult> {
  let data: Dispatcher.ResponseData;
  try {
    data = await dispatcher.request({
      origin: req.url.origin,
      path: req.url.pathname + req.url.search,
      method: req.method,
      headers: req.headers,
      body: req.body ?? null,
      signal: req.signal,
      // The caller's deadline governs; undici's own (300 s) timers must never be the ones to fire.
      headersTimeout: 0,
      bodyTimeout: 0,
    });
  } catch (err) {
    return { ok: false, failure: classify(err, req.signal, false) };
  }
  if (headerBytes(data.headers) > limits.maxHeaderBytes) {
    discard(data.body);
    return { ok: false, failure: { kind: 'headers_too_large' } };
  }
  const success = data.statusCode >= 200 && data.statusCode < 300;
  try {
    if (data.statusCode >= 300 && data.statusCode < 400) {
      discard(data.body);
      return { ok: true, response: { status: data.statusCode, headers: data.headers, body: Buffer.alloc(0) } };
    }
    const read = await readBody(
      data.body,
      data.headers['content-encoding'],
      success ? limits.maxBodyBytes : limits.maxErrorBodyBytes,
      !success,
    );
    if ('tooLarge' in read) return { ok: false, failure: { kind: 'body_too_large' } };
    if ('problem' in read) return { ok: false, failure: { kind: 'bad_encoding', message: read.problem } };
    return { ok: true, response: { status: data.statusCode, headers: data.headers, body: read.body } };
  } catch (err) {
    discard(data.body);
    return { ok: false, failure: classify(err, req.signal, true) };
  }
}
