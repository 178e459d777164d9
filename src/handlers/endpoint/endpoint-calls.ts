/**
 * EndpointCalls, the class behind createEndpointHandler (endpoint-handler.ts): per call it builds
 * the request, applies the service's auth and the network policy, sends it under one deadline,
 * retries idempotent calls and turns the answer into an outcome. One class of about 600 lines,
 * not split further: its methods share private state and #call is the hot path of every
 * endpoint call (docs/performance-notes.md).
 */
import type { Agent, Dispatcher } from 'undici';
import type { EndpointConfig } from '../../definition/types.js';
import { ToolError } from '../../errors.js';
import { undici } from '../../lazy-deps.js';
import type { NetworkPolicy } from './service-config.js';
import {
  answeredRecord,
  errorBody,
  finishOutcome,
  internalErrorBody,
  type OutcomeBody,
} from '../outcome.js';
import type { HandlerContext, HandlerOutcome, HttpExchangeRecord } from '../types.js';
import { buildRequest, headerProblem, isBuildFailure, type BuiltRequest } from './build-request.js';
import {
  abortableSleep,
  DeadlineGroup,
  isAborted,
  startDeadline,
  untilAborted,
  type Abortable,
  type Deadline,
} from './deadline.js';
import {
  exchange,
  type ExchangeFailure,
  type ExchangeRequest,
  type ExchangeResponse,
  type ExchangeResult,
} from './exchange.js';
import { interpretResponse } from './interpret-response.js';
import { bareHost, checkHost, systemResolver, type HostResolver } from './network-policy.js';
import {
  cappedFactory,
  connectionPools,
  DEFAULT_CONNECTIONS_PER_ORIGIN,
  poolFor,
  type SharedPool,
} from './connection-pools.js';
import { PendingConnects } from './pending-connects.js';
import { createPinnedConnector, PinnedAddresses } from './pinned-connector.js';
import { redactHeaders } from './redact.js';
import { SecretSet } from './secret-set.js';
import { mayRetry } from '../../definition/side-effects.js';
import { isRetryableStatus, MAX_RETRIES, parseRetryAfter, retryDelay } from './retry-policy.js';
import { ServiceAuth, serviceNotConfigured } from './service-auth.js';
import { connectionLimits, ServiceOrigins } from './service-origins.js';
import { append } from '../../small-arrays.js';
import {
  DEFAULT_MAX_HEADER_BYTES,
  DEFAULT_MAX_RESPONSE_BYTES,
  type EndpointHandler,
  type EndpointHandlerOptions,
} from './endpoint-options.js';
import {
  ACCEPT,
  ACCEPT_ENCODING,
  METHOD,
  NO_SECRETS,
  staticHeaders,
  staticPrepared,
  templateOf,
  withIdempotencyKey,
} from './request-parts.js';

/** A first attempt #call sent, handed to #calling with its answer. */
interface FirstAttempt {
  readonly deadline: Deadline;
  readonly record: HttpExchangeRecord;
  readonly result: ExchangeResult;
}

/** Bytes of a non-2xx body kept for the error excerpt. */
const ERROR_BODY_BYTES = 4096;

/** The error of a call ended by its deadline or by the caller. */
function stoppedError(deadline: Deadline, timeoutSecs: number): ToolError {
  return deadline.cancelled()
    ? new ToolError('cancelled', 'the call was cancelled')
    : new ToolError('timeout', `the endpoint did not answer within ${timeoutSecs} s`);
}

export /**
 * The endpoint handler of one session (or host). A class, not a set of closures: each session
 * that calls an endpoint has one, and fourteen closures with their shared context were about
 * 1 KB of every live session; an instance is its fields, its methods shared.
 */
class EndpointCalls implements EndpointHandler {
  readonly kind = 'endpoint';
  readonly #options: EndpointHandlerOptions;
  readonly #now: () => number;
  readonly #sleep: (ms: number, abortable: Abortable) => Promise<void>;
  readonly #policy: NetworkPolicy;
  readonly #policyActive: boolean;
  readonly #resolve: HostResolver;
  readonly #maxResponseBytes: number;
  readonly #maxHeaderBytes: number;
  readonly #limits: { maxBodyBytes: number; maxErrorBodyBytes: number; maxHeaderBytes: number };
  // A resolver or connector of its own cannot be shared: such a handler dials through its own Agent.
  readonly #ownsAgent: boolean;
  #ownPins: PinnedAddresses | undefined;
  #ownAgent: Agent | undefined;
  #ownConnects: PendingConnects | undefined;
  #shared: SharedPool | undefined;
  // Calls in flight, so close() can end them: a shared pool outlives the handler.
  readonly #inflight = new DeadlineGroup();
  // Service credentials, their origins and the secrets to scrub exist only with services (or a
  // host's secret set): a handler without them, most sessions' handler, makes none of them.
  readonly #secrets: SecretSet | undefined;
  readonly #auth: ServiceAuth | undefined;
  readonly #origins: ServiceOrigins | undefined;

  constructor(options: EndpointHandlerOptions) {
    this.#options = options;
    const now = (this.#now = options.now ?? Date.now);
    this.#sleep = options.sleep ?? abortableSleep;
    const policy = (this.#policy = options.networkPolicy ?? {});
    this.#policyActive = policy.denyPrivateNetworks === true || policy.allowedHosts !== undefined;
    this.#resolve = options.lookup ?? systemResolver;
    this.#maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.#maxHeaderBytes = options.maxHeaderBytes ?? DEFAULT_MAX_HEADER_BYTES;
    this.#limits = {
      maxBodyBytes: this.#maxResponseBytes,
      maxErrorBodyBytes: ERROR_BODY_BYTES,
      maxHeaderBytes: this.#maxHeaderBytes,
    };
    this.#ownsAgent =
      options.dispatcher === undefined &&
      (options.lookup !== undefined || options.connector !== undefined);
    const services = options.services;
    const secrets = (this.#secrets =
      options.secrets ?? (services === undefined ? undefined : new SecretSet()));
    this.#auth =
      services === undefined || secrets === undefined
        ? undefined
        : new ServiceAuth({ services, dispatcher: () => this.#dispatcher(), now, secrets });
    this.#origins = services === undefined ? undefined : new ServiceOrigins(services);
  }

  #pool(): SharedPool {
    if (!this.#ownsAgent) {
      this.#shared ??= poolFor(this.#options.pools ?? connectionPools, {
        policy: this.#policy,
        maxHeaderBytes: this.#maxHeaderBytes,
        connectionLimits: connectionLimits(this.#options.services),
      });
      return this.#shared;
    }
    const pins = (this.#ownPins ??= new PinnedAddresses(this.#now));
    const connects = (this.#ownConnects ??= new PendingConnects());
    if (this.#ownAgent !== undefined) return { dispatcher: this.#ownAgent, pins, connects };
    const { Agent, buildConnector } = undici();
    this.#ownAgent = new Agent({
      connect: connects.track(
        createPinnedConnector({
          policy: this.#policy,
          resolve: this.#resolve,
          pins,
          inner: connects.dialer(this.#options.connector ?? buildConnector({})),
        }),
      ),
      maxHeaderSize: this.#maxHeaderBytes,
      factory: cappedFactory(
        DEFAULT_CONNECTIONS_PER_ORIGIN,
        connectionLimits(this.#options.services),
      ),
    });
    return { dispatcher: this.#ownAgent, pins, connects };
  }

  /** One attempt on the engine's dispatcher, with the attempt's trace headers when it has any. */
  #send(
    req: ExchangeRequest,
    traced: { readonly headers: Readonly<Record<string, string>> } | undefined,
  ): Promise<ExchangeResult> {
    const headers =
      traced === undefined || Object.keys(traced.headers).length === 0
        ? req.headers
        : Object.assign({}, req.headers, traced.headers);
    return exchange(this.#dispatcher(), { ...req, headers }, this.#limits);
  }

  #dispatcher(): Dispatcher {
    return this.#options.dispatcher ?? this.#pool().dispatcher;
  }

  /** Maps a transport failure to the model's error, knowing whether the caller cancelled. */
  #failureError(failure: ExchangeFailure, deadline: Deadline, timeoutSecs: number): ToolError {
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
          `the response body exceeds ${this.#maxResponseBytes} bytes`,
        );
      case 'headers_too_large':
        return new ToolError(
          'response_too_large',
          `the response headers exceed ${this.#maxHeaderBytes} bytes`,
        );
      case 'bad_encoding':
        return new ToolError('bad_response', failure.message);
      default: {
        const _exhaustive: never = failure;
        return _exhaustive;
      }
    }
  }

  /** Waits before a retry if the wait fits before the deadline; false when it does not fit. */
  async #pause(wait: number, deadline: Deadline): Promise<boolean> {
    if (this.#now() + wait >= deadline.at) return false;
    await this.#sleep(wait, deadline);
    return true;
  }

  /** Request headers of one attempt: defaults, the service's (auth fetched if needed), content type. */
  async #attemptHeaders(
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
      if (this.#auth === undefined) return serviceNotConfigured(service);
      const extra = await this.#auth.headers(service, deadline);
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

  /** The outcome of the final answer: the response interpreted, scrubbed, with its records. */
  #answered(
    response: ExchangeResponse,
    records: readonly HttpExchangeRecord[],
    startedAt: number,
  ): HandlerOutcome {
    const secrets = this.#secrets;
    const interpreted = interpretResponse(
      response,
      secrets === undefined || secrets.size === 0 ? undefined : (text) => secrets.scrubText(text),
    );
    return this.#finish(
      interpreted.ok
        ? { type: 'success', output: interpreted.output }
        : { type: 'error', error: interpreted.error },
      records,
      startedAt,
    );
  }

  /**
   * A call without a network policy or a service (nothing to await before sending) sends its first
   * attempt from here, with no async frame: in a burst the attempt waits a second or more for a
   * connection, and a frame held that long is copied into the old generation
   * (docs/performance-notes.md). A plain answer is finished in the `then`; any other (a failure, a
   * status to retry) goes to #calling, which goes on exactly as if it had sent the attempt itself.
   */
  #call(
    built: BuiltRequest,
    endpoint: EndpointConfig,
    context: HandlerContext,
    startedAt: number,
  ): Promise<HandlerOutcome> {
    if (this.#policyActive || context.tool.service !== undefined)
      return this.#calling(built, endpoint, context, startedAt);
    const deadline = startDeadline(
      endpoint.timeoutSecs * 1000,
      context.signal,
      startedAt,
      this.#inflight,
    );
    let sent: Promise<ExchangeResult>;
    let record: HttpExchangeRecord;
    let traced: ReturnType<NonNullable<HandlerContext['traceAttempt']>> | undefined;
    let entered: ReturnType<PendingConnects['enter']> | undefined;
    const connects = this.#options.dispatcher === undefined ? this.#pool().connects : undefined;
    try {
      if (deadline.aborted) {
        deadline.dispose();
        return Promise.resolve(this.#stopped(deadline, endpoint.timeoutSecs, [], startedAt));
      }
      // As #calling's first attempt without a service (its comments say why).
      const method = METHOD[endpoint.method];
      const headers = withIdempotencyKey(staticPrepared(built.contentType).headers, context, true);
      record =
        built.body === undefined
          ? { method, url: built.url.href, headers, attempt: 1 }
          : { method, url: built.url.href, headers, body: built.body, attempt: 1 };
      context.onRequest?.(record);
      traced = context.traceAttempt?.(record);
      entered = connects?.enter(built.url);
      sent = this.#send(
        { url: built.url, method, headers, signal: deadline, body: built.body },
        traced,
      );
    } catch (err) {
      deadline.dispose();
      return Promise.resolve(this.#crashed(err, startedAt));
    }
    return sent.then((result) => {
      try {
        if (entered !== undefined) connects?.leave(entered);
        traced?.end(
          result.ok ? result.response.status : undefined,
          result.ok ? undefined : result.failure.kind,
          failureDetail(result),
        );
        if (
          !result.ok ||
          (isRetryableStatus(result.response.status) && mayRetry(context.tool) && MAX_RETRIES > 0)
        )
          return this.#calling(built, endpoint, context, startedAt, { deadline, record, result });
        const { status } = result.response;
        const records = [answeredRecord(record, status)];
        context.onResponse?.(record, status);
        const outcome = this.#answered(result.response, records, startedAt);
        deadline.dispose();
        return outcome;
      } catch (err) {
        deadline.dispose();
        return this.#crashed(err, startedAt);
      }
    });
  }

  /**
   * The call from its deadline to its outcome: the network policy's check, then the request,
   * retried as docs/handlers.md allows, until a final answer or the deadline. The attempts are inline, not
   * an inner async function awaited: a promise, a frame and a tick less per call.
   */
  async #calling(
    built: BuiltRequest,
    endpoint: EndpointConfig,
    context: HandlerContext,
    startedAt: number,
    first?: FirstAttempt,
  ): Promise<HandlerOutcome> {
    let records: HttpExchangeRecord[] = [];
    try {
      const deadline =
        first?.deadline ??
        startDeadline(endpoint.timeoutSecs * 1000, context.signal, startedAt, this.#inflight);
      try {
        if (this.#policyActive && first === undefined) {
          const verdict = await untilAborted(
            checkHost(built.url.hostname, this.#policy, this.#resolve),
            deadline,
          );
          if (verdict === undefined)
            return this.#stopped(deadline, endpoint.timeoutSecs, records, startedAt);
          if (!verdict.ok)
            return this.#finish(errorBody('policy_denied', verdict.reason), records, startedAt);
          if (this.#options.dispatcher === undefined)
            this.#pool().pins.set(bareHost(built.url.hostname), verdict.addresses);
        }
        const { method, timeoutSecs } = endpoint;
        const service = context.tool.service;
        let retries = 0;
        let refreshed = false;
        for (let attempt = 1; ; attempt++) {
          let record: HttpExchangeRecord;
          let result: ExchangeResult;
          if (first !== undefined) {
            // Sent by #call, which hands over any answer but a plain success.
            record = first.record;
            result = first.result;
            first = undefined;
          } else {
            // Without a service nothing is fetched: no await (a promise and a tick less per call).
            const prepared =
              service === undefined
                ? staticPrepared(built.contentType)
                : await this.#attemptHeaders(built, service, deadline);
            if (deadline.aborted) return this.#stopped(deadline, timeoutSecs, records, startedAt);
            if (prepared instanceof ToolError)
              return this.#finish({ type: 'error', error: prepared }, records, startedAt);
            const headers = withIdempotencyKey(prepared.headers, context, service === undefined);
            // Without a service no header is secret (ours, and the idempotency key), and the headers
            // object is frozen: the record shares it.
            const recorded =
              service === undefined ? headers : redactHeaders(headers, prepared.secretHeaders);
            // Written out, not spread: made for every attempt (keys in the documented order).
            record =
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
            const connects =
              this.#options.dispatcher === undefined ? this.#pool().connects : undefined;
            const entered = connects?.enter(built.url);
            result = await this.#send(
              {
                url: built.url,
                method: METHOD[method],
                headers,
                signal: deadline,
                body: built.body,
              },
              traced,
            );
            if (entered !== undefined) connects?.leave(entered);
            traced?.end(
              result.ok ? result.response.status : undefined,
              result.ok ? undefined : result.failure.kind,
              failureDetail(result),
            );
          }
          const canRetry = mayRetry(context.tool) && retries < MAX_RETRIES;
          if (!result.ok) {
            records = append(records, record);
            if (
              result.failure.kind === 'network' &&
              canRetry &&
              (await this.#pause(retryDelay(retries + 1, undefined), deadline))
            ) {
              retries++;
              if (deadline.aborted) return this.#stopped(deadline, timeoutSecs, records, startedAt);
              continue;
            }
            return this.#finish(
              { type: 'error', error: this.#failureError(result.failure, deadline, timeoutSecs) },
              records,
              startedAt,
            );
          }
          const { response } = result;
          records = append(records, answeredRecord(record, response.status));
          context.onResponse?.(record, response.status);
          if (
            response.status === 401 &&
            service !== undefined &&
            !refreshed &&
            this.#auth?.invalidate(service) === true
          ) {
            // A request rejected for its token was not acted on: one retry with a fresh token is safe for any method.
            refreshed = true;
            continue;
          }
          if (isRetryableStatus(response.status) && canRetry) {
            const wait = retryDelay(
              retries + 1,
              parseRetryAfter(response.headers['retry-after'], this.#now()),
            );
            if (await this.#pause(wait, deadline)) {
              retries++;
              if (deadline.aborted) return this.#stopped(deadline, timeoutSecs, records, startedAt);
              continue;
            }
          }
          return this.#answered(response, records, startedAt);
        }
      } finally {
        deadline.dispose();
      }
    } catch (err) {
      return this.#crashed(err, startedAt);
    }
  }

  /** The outcome of a call its deadline or its caller ended. */
  #stopped(
    deadline: Deadline,
    timeoutSecs: number,
    records: readonly HttpExchangeRecord[],
    startedAt: number,
  ): HandlerOutcome {
    return this.#finish(
      { type: 'error', error: stoppedError(deadline, timeoutSecs) },
      records,
      startedAt,
    );
  }

  /** Removes every known secret from what the model and the traces will see. */
  #scrub(body: OutcomeBody): OutcomeBody {
    const secrets = this.#secrets;
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
  }

  /** The outcome of a finished call: scrubbed, with its request records and timing. */
  #finish(
    body: OutcomeBody,
    records: readonly HttpExchangeRecord[],
    startedAt: number,
  ): HandlerOutcome {
    return finishOutcome(this.#scrub(body), startedAt, this.#now(), records);
  }

  /** The outcome of an unexpected throw: a `handler_error`, as neverThrow makes it. */
  #crashed(err: unknown, startedAt: number): HandlerOutcome {
    return finishOutcome(internalErrorBody(err), startedAt, this.#now());
  }

  /** An outcome known before any I/O, as the promise `execute` returns. */
  #early(body: OutcomeBody, startedAt: number): Promise<HandlerOutcome> {
    return Promise.resolve(this.#finish(body, [], startedAt));
  }

  // Not async: what can be checked before any I/O is checked here, and one async function (#call)
  // makes the call, with no neverThrow wrapper around it. Any unexpected throw still becomes a
  // `handler_error` outcome, as neverThrow makes it.
  execute(
    args: Readonly<Record<string, unknown>>,
    context: HandlerContext,
  ): Promise<HandlerOutcome> {
    const startedAt = this.#now();
    try {
      const endpoint = context.tool.endpoint;
      if (endpoint === undefined)
        return this.#early(
          errorBody('not_available', `tool ${context.tool.name} has no endpoint`),
          startedAt,
        );
      if (isAborted(context.signal))
        return this.#early(errorBody('cancelled', 'the call was cancelled'), startedAt);
      const template = templateOf(endpoint);
      if (typeof template === 'string')
        return this.#early(
          errorBody('not_available', `tool ${context.tool.name} has an unusable URL`),
          startedAt,
        );
      const built = buildRequest(template, endpoint.argumentLocation, args);
      if (isBuildFailure(built))
        return this.#early(errorBody('invalid_arguments', built.problem), startedAt);
      const service = context.tool.service;
      if (service !== undefined && (this.#auth === undefined || !this.#auth.has(service)))
        return this.#early({ type: 'error', error: serviceNotConfigured(service) }, startedAt);
      // Secrets follow their service's origin: checked before any token fetch or connection.
      if (service !== undefined && this.#origins?.allows(service, built.url.origin) === false)
        return this.#early(
          errorBody(
            'origin_not_allowed',
            `service "${service}" may not be used with ${built.url.origin}`,
          ),
          startedAt,
        );
      return this.#call(built, endpoint, context, startedAt);
    } catch (err) {
      return Promise.resolve(this.#crashed(err, startedAt));
    }
  }

  async close(): Promise<void> {
    this.#inflight.cancelAll();
    this.#shared = undefined;
    const agent = this.#ownAgent;
    this.#ownAgent = undefined;
    this.#ownConnects?.abortAll();
    // destroy, not close: a call still waiting on a silent server must not hold the shutdown.
    if (agent !== undefined) await agent.destroy();
  }
}

/**
 * Why an attempt failed, for its span's status message: a network failure's words are built from
 * error codes (`connection failed (DEPTH_ZERO_SELF_SIGNED_CERT)`), so telemetry tells a TLS
 * problem from a DNS one or a reset without carrying a body or a header.
 */
function failureDetail(result: ExchangeResult): string | undefined {
  return !result.ok && 'message' in result.failure ? result.failure.message : undefined;
}
