/**
 * The harness's stand-in for the network: an undici dispatcher that records every request and
 * answers the exchanges a fixture declares. Nothing leaves the machine (`disableNetConnect`).
 *
 * Built on undici's MockAgent (which speaks both handler APIs and handles delays and aborts); an
 * interceptor in front of it records the request, picks the declared exchange it matches and
 * registers a one-shot reply for exactly that request. A request no exchange matches is recorded
 * as undeclared and fails at the transport (the engine sees a network error; the fixture fails).
 */
import { MockAgent, type Dispatcher } from 'undici';
import type { HttpExchange } from './fixture-schema.js';
import { recordRequest, sameUrl, type RecordedRequest } from './recorded-request.js';
import { checkHttpDoubleOptions } from './check-run-options.js';

/** A declared exchange that was requested fewer times than it declares. */
export interface UnusedExchange {
  readonly index: number;
  readonly method: string;
  readonly url: string;
  /** How many of its `times` were not used. */
  readonly remaining: number;
}

/** Options of {@link createHttpDouble}. */
export interface HttpDoubleOptions {
  /** The exchanges to answer, in declaration order (first unused match wins). */
  readonly exchanges: readonly HttpExchange[];
  /** Called for every request as it is sent, with the declared response (absent: undeclared). */
  readonly onRequest?: (
    request: RecordedRequest,
    response: HttpExchange['response'] | undefined,
  ) => void;
}

/** The dispatcher plus what it saw. */
export interface HttpDouble {
  /** Pass as `SessionOptions.dispatcher`. */
  readonly dispatcher: Dispatcher;
  /** Every request, in the order sent (answered or not). */
  readonly requests: readonly RecordedRequest[];
  unusedExchanges(): UnusedExchange[];
  close(): Promise<void>;
}

/** True if a request's method and URL select this exchange. */
export function exchangeMatches(exchange: HttpExchange, method: string, url: string): boolean {
  if (exchange.request.method.toUpperCase() !== method.toUpperCase()) return false;
  if (!sameUrl(exchange.request.url, url, 'if-declared')) return false;
  const got = new URL(url);
  const query = exchange.request.query;
  if (query !== undefined) {
    for (const [name, value] of Object.entries(query)) {
      const values = got.searchParams.getAll(name);
      const wanted = Array.isArray(value) ? value : [value];
      if (values.length !== wanted.length || values.some((v, i) => v !== wanted[i])) return false;
    }
  }
  return true;
}

/** The body and headers a declared response sends. */
export function responseBody(response: HttpExchange['response']): {
  body: string;
  headers: Record<string, string>;
} {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(response.headers ?? {})) headers[k.toLowerCase()] = v;
  let body = '';
  let type: string | undefined;
  if (response.json !== undefined) {
    body = JSON.stringify(response.json);
    type = 'application/json';
  } else if (response.text !== undefined) {
    body = response.text;
    type = 'text/plain; charset=utf-8';
  } else if (response.body !== undefined) {
    body = response.body;
  }
  if (type !== undefined && !Object.hasOwn(headers, 'content-type')) headers['content-type'] = type;
  return { body, headers };
}

/** Creates a recording, answering dispatcher for one fixture run. */
export function createHttpDouble(options: HttpDoubleOptions): HttpDouble {
  checkHttpDoubleOptions(options);
  const agent = new MockAgent({ connections: 1 });
  agent.disableNetConnect();
  const uses = options.exchanges.map(() => 0);
  const requests: RecordedRequest[] = [];

  const dispatcher = agent.compose((dispatch) => (opts, handler) => {
    const recorded = recordRequest(opts);
    const index = options.exchanges.findIndex(
      (ex, i) => (uses[i] ?? 0) < ex.times && exchangeMatches(ex, recorded.method, recorded.url),
    );
    const exchange = index === -1 ? undefined : options.exchanges[index];
    if (exchange === undefined) {
      requests.push({ ...recorded, exchange: undefined });
      options.onRequest?.(recorded, undefined);
      // Refused like a host that is not there, so the engine reports a plain `network` error
      // (MockAgent's own refusal would carry its internal UND_MOCK_… code); the fixture fails.
      agent
        .get(new URL(recorded.url).origin)
        .intercept({ path: String(opts.path), method: String(opts.method) })
        .replyWithError(
          Object.assign(new Error('no response is declared for this request'), {
            code: 'ECONNREFUSED',
          }),
        );
      return dispatch(opts, handler);
    }
    uses[index] = (uses[index] ?? 0) + 1;
    requests.push({
      ...recorded,
      exchange: index,
      status: exchange.response.error === undefined ? exchange.response.status : undefined,
    });
    options.onRequest?.(recorded, exchange.response);
    const url = new URL(recorded.url);
    const scope = agent
      .get(url.origin)
      .intercept({ path: String(opts.path), method: String(opts.method) });
    const response = exchange.response;
    const replied =
      response.error !== undefined
        ? scope.replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))
        : (() => {
            const { body, headers } = responseBody(response);
            return scope.reply(response.status, body, { headers });
          })();
    if (response.delay_ms !== undefined && response.delay_ms > 0) replied.delay(response.delay_ms);
    return dispatch(opts, handler);
  });

  return {
    dispatcher,
    requests,
    unusedExchanges() {
      const out: UnusedExchange[] = [];
      options.exchanges.forEach((ex, i) => {
        const used = uses[i] ?? 0;
        if (used < ex.times) {
          out.push({
            index: i,
            method: ex.request.method.toUpperCase(),
            url: ex.request.url,
            remaining: ex.times - used,
          });
        }
      });
      return out;
    },
    close: () => agent.close(),
  };
}
