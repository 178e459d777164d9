/**
 * Wraps a real undici dispatcher and records each request with the response it really got
 * (status, headers, body up to a cap), so a REPL session can be saved as a fixture whose `http`
 * exchanges replay what happened. Recording never changes what the caller receives.
 */
import type { Dispatcher } from 'undici';
import { recordRequest, type RecordedRequest } from './recorded-request.js';

/** A request and the response it received. */
export interface RecordedExchange {
  readonly request: RecordedRequest;
  /** Absent when the request failed at the transport. */
  response?: {
    status: number;
    headers: Record<string, string>;
    /** The body text, cut at the cap. */
    body: string;
    truncated: boolean;
  };
  /** Transport error message, when it failed. */
  error?: string;
}

/** Options of {@link createRecordingDispatcher}. */
export interface RecordingDispatcherOptions {
  /** The dispatcher doing the real work (an undici Agent). */
  readonly dispatcher: Dispatcher;
  /** Body bytes kept per response. Default 1 MiB. */
  readonly maxBodyBytes?: number;
  /** Called when a request is sent and when it completes. */
  readonly onRequest?: (exchange: RecordedExchange) => void;
  readonly onResponse?: (exchange: RecordedExchange) => void;
  /**
   * Applied to every recorded text (URL, header values, bodies) so secrets never reach a record
   * (the REPL prints and saves records). What the caller receives is unchanged. Default: identity.
   */
  readonly scrub?: (text: string) => string;
  /** Requests not to record at all (e.g. OAuth2 token requests). Default: none. */
  readonly skip?: (url: string) => boolean;
}

/** The wrapping dispatcher and the exchanges so far. */
export interface RecordingDispatcher {
  readonly dispatcher: Dispatcher;
  readonly exchanges: RecordedExchange[];
}

function headerRecord(
  headers: Record<string, string | string[] | undefined>,
): Record<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(headers)) {
    if (v !== undefined) out.set(k.toLowerCase(), Array.isArray(v) ? v.join(', ') : v);
  }
  return Object.fromEntries(out);
}

/** Creates a recording wrapper around a real dispatcher. */
export function createRecordingDispatcher(
  options: RecordingDispatcherOptions,
): RecordingDispatcher {
  const cap = options.maxBodyBytes ?? 1024 * 1024;
  const exchanges: RecordedExchange[] = [];
  const scrub = options.scrub ?? ((text: string) => text);
  const dispatcher = options.dispatcher.compose((dispatch) => (opts, handler) => {
    const raw = recordRequest(opts);
    if (options.skip?.(raw.url) === true) return dispatch(opts, handler);
    const exchange: RecordedExchange = { request: scrubRequest(raw, scrub) };
    exchanges.push(exchange);
    options.onRequest?.(exchange);
    const chunks: Buffer[] = [];
    let size = 0;
    let truncated = false;
    let status = 0;
    let headers: Record<string, string> = {};
    const wrapped: Dispatcher.DispatchHandler = {
      onRequestStart: (c, ctx) => handler.onRequestStart?.(c, ctx),
      onRequestUpgrade: (c, s, h, socket) => handler.onRequestUpgrade?.(c, s, h, socket),
      onResponseStart: (c, s, h, m) => {
        status = s;
        headers = scrubHeaders(headerRecord(h), scrub);
        handler.onResponseStart?.(c, s, h, m);
      },
      onResponseData: (c, chunk) => {
        if (size < cap) {
          const keep = chunk.subarray(0, cap - size);
          chunks.push(Buffer.from(keep));
          size += keep.length;
          if (keep.length < chunk.length) truncated = true;
        } else truncated = true;
        handler.onResponseData?.(c, chunk);
      },
      onResponseEnd: (c, trailers) => {
        exchange.response = {
          status,
          headers,
          body: scrub(Buffer.concat(chunks).toString('utf8')),
          truncated,
        };
        options.onResponse?.(exchange);
        handler.onResponseEnd?.(c, trailers);
      },
      onResponseError: (c, error) => {
        exchange.error = scrub(error.message);
        options.onResponse?.(exchange);
        handler.onResponseError?.(c, error);
      },
    };
    return dispatch(opts, wrapped);
  });
  return { dispatcher, exchanges };
}

function scrubHeaders(
  headers: Readonly<Record<string, string>>,
  scrub: (text: string) => string,
): Record<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(headers)) out.set(k, scrub(v));
  return Object.fromEntries(out);
}

function scrubRequest(request: RecordedRequest, scrub: (text: string) => string): RecordedRequest {
  return {
    ...request,
    url: scrub(request.url),
    headers: scrubHeaders(request.headers, scrub),
    ...(request.body !== undefined ? { body: scrub(request.body) } : {}),
  };
}
