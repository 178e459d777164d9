/**
 * The endpoint handler (SPEC §3): builds the request from the final arguments, applies the
 * service's auth and the network policy, sends it through one undici dispatcher (injected, or the
 * process's shared pool for its network policy — never undici's global one) under one deadline,
 * retries idempotent calls, and turns whatever comes back into a value or a typed tool error. It
 * never throws.
 */
import { Agent, buildConnector, type Dispatcher } from 'undici';
import type { EndpointConfig } from '../../definition/types.js';
import { ToolError } from '../../errors.js';
import type { NetworkPolicy, ServiceConfig } from '../../session/types.js';
import {
  answeredRecord,
  errorBody,
  finishOutcome,
  shortMessage,
  type OutcomeBody,
} from '../outcome.js';
import type { Handler, HandlerContext, HandlerOutcome, HttpExchangeRecord } from '../types.js';
import { buildRequest, headerProblem, isBuildFailure, type BuiltRequest } from './build-request.js';
import {
  abortableSleep,
  DeadlineGroup,
  startDeadline,
  untilAborted,
  type Abortable,
  type Deadline,
} from './deadline.js';
import { exchange, type ExchangeFailure } from './exchange.js';
import { interpretResponse } from './interpret-response.js';
import { bareHost, checkHost, systemResolver, type HostResolver } from './network-policy.js';
import { connectionPools, type ConnectionPools, type SharedPool } from './connection-pools.js';
import { PendingConnects } from './pending-connects.js';
import { createPinnedConnector, PinnedAddresses } from './pinned-connector.js';
import { redactHeaders } from './redact.js';
import { SecretSet } from './secret-set.js';
import { idempotencyKey, mayRetry, sideEffectClass } from '../../definition/side-effects.js';
import { isRetryableStatus, MAX_RETRIES, parseRetryAfter, retryDelay } from './retry-policy.js';
import { ServiceAuth, serviceNotConfigured } from './service-auth.js';
import { ServiceOrigins } from './service-origins.js';
import { parseUrlTemplate, type UrlTemplate } from './url.js';

/** Default cap on a response body, after decompression: 1 MiB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;
/** Default cap on the response header block: 16 KiB. */
export const DEFAULT_MAX_HEADER_BYTES = 16 * 1024;
/** Bytes of a non-2xx body kept for the error excerpt. */
const ERROR_BODY_BYTES = 4096;

/** Options of {@link createEndpointHandler}. */
export interface EndpointHandlerOptions {
  /**
   * Dispatcher for every request. Default: the shared Agent of `pools` for this handler's network
   * policy (never closed by the handler); with `lookup` or `connector`, an Agent of its own,
   * closed by `close()`.
   */
  readonly dispatcher?: Dispatcher;
  /** Shared pools to take the default dispatcher from. Default {@link connectionPools}. */
  readonly pools?: ConnectionPools;
  /** Services by name, with their secrets. Default none. */
  readonly services?: Readonly<Record<string, ServiceConfig>>;
  /**
   * The set outputs are scrubbed with; the handler adds the services' secrets and every token it
   * obtains. Default: a set of its own. Share one to scrub what a recorder saw (the REPL does).
   */
  readonly secrets?: SecretSet;
  /** Default: no restriction. */
  readonly networkPolicy?: NetworkPolicy;
  /** Default {@link DEFAULT_MAX_RESPONSE_BYTES}. */
  readonly maxResponseBytes?: number;
  /** Default {@link DEFAULT_MAX_HEADER_BYTES}. */
  readonly maxHeaderBytes?: number;
  /**
   * Resolver used by the network policy. Default: the system resolver (all addresses). Giving one
   * makes the handler use an Agent of its own (the shared pools dial with the system resolver).
   */
  readonly lookup?: HostResolver;
  /** Connector of an Agent of the handler's own (ignored with `dispatcher`). Default: undici's. */
  readonly connector?: buildConnector.connector;
  /** Clock (epoch ms). Default `Date.now`. */
  readonly now?: () => number;
  /** Wait between retries; must resolve early when the call is aborted. Default: a timer. */
  readonly sleep?: (ms: number, abortable: Abortable) => Promise<void>;
}

/**
 * An endpoint handler. `close()` ends its calls in flight (as `cancelled`) and destroys the Agent
 * it owns, if any; an injected dispatcher and the shared pools stay open.
 */
export interface EndpointHandler extends Handler {
  close(): Promise<void>;
}

/** The error of a call ended by its deadline or by the caller. */
function stoppedError(deadline: Deadline, timeoutSecs: number): ToolError {
  return deadline.cancelled()
    ? new ToolError('cancelled', 'the call was cancelled')
    : new ToolError('timeout', `the endpoint did not answer within ${timeoutSecs} s`);
}

const METHOD = { get: 'GET', post: 'POST', put: 'PUT', delete: 'DELETE' } as const;
const ACCEPT = 'application/json, */*;q=0.8';
const ACCEPT_ENCODING = 'gzip, deflate, br';
const NO_SECRETS: ReadonlySet<string> = new Set();

/** The request headers of a call without a service: one frozen object per content type. */
const STATIC_HEADERS = new Map<string | undefined, Readonly<Record<string, string>>>();
function staticHeaders(contentType: string | undefined): Readonly<Record<string, string>> {
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
function staticPrepared(contentType: string | undefined): {
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
function templateOf(endpoint: EndpointConfig): UrlTemplate | string {
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

/** Creates the handler of `endpoint` tools. */
export function createEndpointHandler(options: EndpointHandlerOptions = {}): EndpointHandler {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? abortableSleep;
  const policy = options.networkPolicy ?? {};
  const policyActive = policy.denyPrivateNetworks === true || policy.allowedHosts !== undefined;
  const resolve = options.lookup ?? systemResolver;
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const maxHeaderBytes = options.maxHeaderBytes ?? DEFAULT_MAX_HEADER_BYTES;
  const limits = {
    maxBodyBytes: maxResponseBytes,
    maxErrorBodyBytes: ERROR_BODY_BYTES,
    maxHeaderBytes,
  };
  // A resolver or connector of its own cannot be shared: such a handler dials through its own Agent.
  const ownsAgent =
    options.dispatcher === undefined &&
    (options.lookup !== undefined || options.connector !== undefined);
  let ownPins: PinnedAddresses | undefined;
  let ownAgent: Agent | undefined;
  let ownConnects: PendingConnects | undefined;
  let shared: SharedPool | undefined;
  const pool = (): SharedPool => {
    if (!ownsAgent) {
      shared ??= (options.pools ?? connectionPools).poolFor({ policy, maxHeaderBytes });
      return shared;
    }
    const pins = (ownPins ??= new PinnedAddresses(now));
    const connects = (ownConnects ??= new PendingConnects());
    ownAgent ??= new Agent({
      connect: connects.track(
        createPinnedConnector({
          policy,
          resolve,
          pins,
          inner: connects.dialer(options.connector ?? buildConnector({})),
        }),
      ),
      maxHeaderSize: maxHeaderBytes,
    });
    return { dispatcher: ownAgent, pins, connects };
  };
  const dispatcher = (): Dispatcher => options.dispatcher ?? pool().dispatcher;
  // Calls in flight, so close() can end them: a shared pool outlives the handler.
  const inflight = new DeadlineGroup();
  // Service credentials, their origins and the secrets to scrub exist only with services (or a
  // host's secret set): a handler without them, most sessions' handler, makes none of them.
  const services = options.services;
  const secrets = options.secrets ?? (services === undefined ? undefined : new SecretSet());
  const auth =
    services === undefined || secrets === undefined
      ? undefined
      : new ServiceAuth({ services, dispatcher, now, secrets });
  const origins = services === undefined ? undefined : new ServiceOrigins(services);

  /** Maps a transport failure to the model's error, knowing whether the caller cancelled. */
  const failureError = (
    failure: ExchangeFailure,
    deadline: Deadline,
    timeoutSecs: number,
  ): ToolError => {
    switch (failure.kind) {
      case 'aborted':
        return stoppedError(deadline, timeoutSecs);
      case 'policy':
        return new ToolError('policy_denied', failure.message);
      case 'network':
        return new ToolError('network', failure.message);
      case 'body_too_large':
        return new ToolError(
          'response_too_large',
          `the response body exceeds ${maxResponseBytes} bytes`,
        );
      case 'headers_too_large':
        return new ToolError(
          'response_too_large',
          `the response headers exceed ${maxHeaderBytes} bytes`,
        );
      case 'bad_encoding':
        return new ToolError('bad_response', failure.message);
      default: {
        const _exhaustive: never = failure;
        return _exhaustive;
      }
    }
  };

  /** Waits before a retry if the wait fits before the deadline; false when it does not fit. */
  async function pause(wait: number, deadline: Deadline): Promise<boolean> {
    if (now() + wait >= deadline.at) return false;
    await sleep(wait, deadline);
    return true;
  }

  /** Request headers of one attempt: defaults, the service's (auth fetched if needed), content type. */
  async function attemptHeaders(
    built: BuiltRequest,
    service: string | undefined,
    deadline: Deadline,
  ): Promise<
    { headers: Readonly<Record<string, string>>; secretHeaders: ReadonlySet<string> } | ToolError
  > {
    // Without a service the headers are ours alone (no model or host value): shared and valid.
    if (service === undefined)
      return { headers: staticHeaders(built.contentType), secretHeaders: NO_SECRETS };
    const headers: Record<string, string> = { accept: ACCEPT, 'accept-encoding': ACCEPT_ENCODING };
    let secretHeaders: ReadonlySet<string> = NO_SECRETS;
    if (service !== undefined) {
      if (auth === undefined) return serviceNotConfigured(service);
      const extra = await auth.headers(service, deadline);
      if (extra instanceof ToolError) return extra;
      Object.assign(headers, extra.headers);
      secretHeaders = extra.secretHeaders;
    }
    if (built.contentType !== undefined) headers['content-type'] = built.contentType;
    for (const name in headers) {
      const problem = headerProblem(name, headers[name] ?? '');
      if (problem !== undefined) return new ToolError('invalid_arguments', problem);
    }
    return { headers, secretHeaders };
  }

  /** Sends the request, retrying as SPEC §3 allows, until a final answer or the deadline. */
  async function send(
    built: BuiltRequest,
    endpoint: EndpointConfig,
    context: HandlerContext,
    records: HttpExchangeRecord[],
    deadline: Deadline,
  ): Promise<OutcomeBody> {
    const { method, timeoutSecs } = endpoint;
    const service = context.tool.service;
    let retries = 0;
    let refreshed = false;
    for (let attempt = 1; ; attempt++) {
      // Without a service nothing is fetched: no await (a promise and a tick less per call).
      const prepared =
        service === undefined
          ? staticPrepared(built.contentType)
          : await attemptHeaders(built, service, deadline);
      if (deadline.aborted) return { type: 'error', error: stoppedError(deadline, timeoutSecs) };
      if (prepared instanceof ToolError) return { type: 'error', error: prepared };
      const headers = withIdempotencyKey(prepared.headers, context, service === undefined);
      // Without a service no header is secret (ours, and the idempotency key), and the headers
      // object is frozen: the record shares it.
      const recorded =
        service === undefined ? headers : redactHeaders(headers, prepared.secretHeaders);
      // Written out, not spread: made for every attempt (keys in the documented order).
      const record: HttpExchangeRecord =
        built.body === undefined
          ? { method: METHOD[method], url: built.url.href, headers: recorded, attempt }
          : {
              method: METHOD[method],
              url: built.url.href,
              headers: recorded,
              body: built.body,
              attempt,
            };
      context.onRequest?.(record);
      const traced = context.traceAttempt?.(record);
      // A connect nobody waits for any more is destroyed (a host dispatcher is the host's).
      const connects = options.dispatcher === undefined ? pool().connects : undefined;
      const entered = connects?.enter(built.url);
      const result = await exchange(
        dispatcher(),
        {
          url: built.url,
          method: METHOD[method],
          headers:
            traced === undefined || Object.keys(traced.headers).length === 0
              ? headers
              : Object.assign({}, headers, traced.headers),
          signal: deadline,
          body: built.body,
        },
        limits,
      );
      if (entered !== undefined) connects?.leave(entered);
      traced?.end(
        result.ok ? result.response.status : undefined,
        result.ok ? undefined : result.failure.kind,
      );
      const canRetry = mayRetry(context.tool) && retries < MAX_RETRIES;
      if (!result.ok) {
        records.push(record);
        if (
          result.failure.kind === 'network' &&
          canRetry &&
          (await pause(retryDelay(retries + 1, undefined), deadline))
        ) {
          retries++;
          if (deadline.aborted)
            return { type: 'error', error: stoppedError(deadline, timeoutSecs) };
          continue;
        }
        return { type: 'error', error: failureError(result.failure, deadline, timeoutSecs) };
      }
      const { response } = result;
      records.push(answeredRecord(record, response.status));
      context.onResponse?.(record, response.status);
      if (
        response.status === 401 &&
        service !== undefined &&
        !refreshed &&
        auth?.invalidate(service) === true
      ) {
        // A request rejected for its token was not acted on: one retry with a fresh token is safe for any method.
        refreshed = true;
        continue;
      }
      if (isRetryableStatus(response.status) && canRetry) {
        const wait = retryDelay(
          retries + 1,
          parseRetryAfter(response.headers['retry-after'], now()),
        );
        if (await pause(wait, deadline)) {
          retries++;
          if (deadline.aborted)
            return { type: 'error', error: stoppedError(deadline, timeoutSecs) };
          continue;
        }
      }
      const interpreted = interpretResponse(
        response,
        secrets === undefined || secrets.size === 0 ? undefined : (text) => secrets.scrubText(text),
      );
      return interpreted.ok
        ? { type: 'success', output: interpreted.output }
        : { type: 'error', error: interpreted.error };
    }
  }

  /** Removes every known secret from what the model and the traces will see. */
  const scrub = (body: OutcomeBody): OutcomeBody => {
    if (secrets === undefined || secrets.size === 0) return body;
    if (body.type === 'success') return { ...body, output: secrets.scrubValue(body.output) };
    const { error } = body;
    const details =
      error.details === undefined
        ? undefined
        : (secrets.scrubValue(error.details) as Record<string, unknown>);
    return {
      ...body,
      error: new ToolError(error.code, secrets.scrubText(error.message), details),
    };
  };

  /** The outcome of a finished call: scrubbed, with its request records and timing. */
  const finish = (
    body: OutcomeBody,
    records: readonly HttpExchangeRecord[],
    startedAt: number,
  ): HandlerOutcome => finishOutcome(scrub(body), startedAt, now(), records);

  // One async function (no neverThrow wrapper around an inner one): a promise and a frame less per
  // call. Any unexpected throw still becomes a `handler_error` outcome, as neverThrow makes it.
  async function execute(
    args: Readonly<Record<string, unknown>>,
    context: HandlerContext,
  ): Promise<HandlerOutcome> {
    const startedAt = now();
    try {
      const records: HttpExchangeRecord[] = [];
      const endpoint = context.tool.endpoint;
      if (endpoint === undefined)
        return finish(
          errorBody('not_available', `tool ${context.tool.name} has no endpoint`),
          records,
          startedAt,
        );
      if (context.signal.aborted)
        return finish(errorBody('cancelled', 'the call was cancelled'), records, startedAt);
      const template = templateOf(endpoint);
      if (typeof template === 'string')
        return finish(
          errorBody('not_available', `tool ${context.tool.name} has an unusable URL`),
          records,
          startedAt,
        );
      const built = buildRequest(template, endpoint.argumentLocation, args);
      if (isBuildFailure(built))
        return finish(errorBody('invalid_arguments', built.problem), records, startedAt);
      const service = context.tool.service;
      if (service !== undefined && (auth === undefined || !auth.has(service)))
        return finish({ type: 'error', error: serviceNotConfigured(service) }, records, startedAt);
      // Secrets follow their service's origin: checked before any token fetch or connection.
      if (service !== undefined && origins?.allows(service, built.url.origin) === false)
        return finish(
          errorBody(
            'origin_not_allowed',
            `service "${service}" may not be used with ${built.url.origin}`,
          ),
          records,
          startedAt,
        );
      const deadline = startDeadline(
        endpoint.timeoutSecs * 1000,
        context.signal,
        startedAt,
        inflight,
      );
      try {
        if (policyActive) {
          const verdict = await untilAborted(
            checkHost(built.url.hostname, policy, resolve),
            deadline,
          );
          if (verdict === undefined)
            return finish(
              { type: 'error', error: stoppedError(deadline, endpoint.timeoutSecs) },
              records,
              startedAt,
            );
          if (!verdict.ok)
            return finish(errorBody('policy_denied', verdict.reason), records, startedAt);
          if (options.dispatcher === undefined)
            pool().pins.set(bareHost(built.url.hostname), verdict.addresses);
        }
        return finish(await send(built, endpoint, context, records, deadline), records, startedAt);
      } finally {
        deadline.dispose();
      }
    } catch (err) {
      return finishOutcome(
        errorBody('handler_error', `internal error: ${shortMessage(err)}`),
        startedAt,
        now(),
      );
    }
  }

  return {
    kind: 'endpoint',
    execute,
    close: async () => {
      inflight.cancelAll();
      shared = undefined;
      const agent = ownAgent;
      ownAgent = undefined;
      ownConnects?.abortAll();
      // destroy, not close: a call still waiting on a silent server must not hold the shutdown.
      if (agent !== undefined) await agent.destroy();
    },
  };
}

/**
 * The headers of an `unsafe` call (docs/voice.md) with an `Idempotency-Key` stable across its
 * retries and a resume (session id + call id), unless the service already sets one.
 */
function withIdempotencyKey(
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
