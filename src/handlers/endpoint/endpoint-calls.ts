/**
 * EndpointCalls, the class behind createEndpointHandler (endpoint-handler.ts): per call it builds
 * the request, applies the service's auth and the network policy, sends it under one deadline,
 * retries idempotent calls and turns the answer into an outcome. Where the requests go (the
 * network policy, the pool or Agent, each attempt's send) is endpoint-transport.ts; the checks
 * before any I/O, the answer's and the errors' bodies, the scrubbing and the attempt headers are
 * plain functions in call-outcome.ts. #call and #calling, the hot path of every endpoint call
 * (docs/performance-notes.md), stay methods sharing the instance's private state.
 */
import type { EndpointConfig } from '../../definition/types.js';
import { ToolError } from '../../errors.js';
import {
  answeredRecord,
  errorBody,
  finishOutcome,
  internalErrorBody,
  type OutcomeBody,
} from '../outcome.js';
import type { HandlerContext, HandlerOutcome, HttpExchangeRecord } from '../types.js';
import type { BuiltRequest } from './build-request.js';
import {
  answeredBody,
  attemptHeaders,
  failureDetail,
  failureError,
  preflight,
  scrubOutcome,
  stoppedError,
} from './call-outcome.js';
import {
  abortableSleep,
  DeadlineGroup,
  startDeadline,
  untilAborted,
  type Abortable,
  type Deadline,
} from './deadline.js';
import { EndpointTransport } from './endpoint-transport.js';
import type { ExchangeResult } from './exchange.js';
import { bareHost } from './network-policy.js';
import type { PendingConnects } from './pending-connects.js';
import { redactHeaders } from './redact.js';
import { SecretSet } from './secret-set.js';
import { mayRetry } from '../../definition/side-effects.js';
import { isRetryableStatus, MAX_RETRIES, parseRetryAfter, retryDelay } from './retry-policy.js';
import { ServiceAuth } from './service-auth.js';
import { ServiceOrigins } from './service-origins.js';
import { append } from '../../small-arrays.js';
import type { EndpointHandler, EndpointHandlerOptions } from './endpoint-options.js';
import { METHOD, staticPrepared, withIdempotencyKey } from './request-parts.js';

/** A first attempt #call sent, handed to #calling with its answer. */
interface FirstAttempt {
  readonly deadline: Deadline;
  readonly record: HttpExchangeRecord;
  readonly result: ExchangeResult;
}

/**
 * The endpoint handler of one session (or host). A class, not a set of closures: each session
 * that calls an endpoint has one, and fourteen closures with their shared context were about
 * 1 KB of every live session; an instance is its fields, its methods shared.
 */
export class EndpointCalls implements EndpointHandler {
  readonly kind = 'endpoint';
  readonly #now: () => number;
  readonly #sleep: (ms: number, abortable: Abortable) => Promise<void>;
  readonly #policyActive: boolean;
  readonly #transport: EndpointTransport;
  // Calls in flight, so close() can end them: a shared pool outlives the handler.
  readonly #inflight = new DeadlineGroup();
  // Service credentials, their origins and the secrets to scrub exist only with services (or a
  // host's secret set): a handler without them, most sessions' handler, makes none of them.
  readonly #secrets: SecretSet | undefined;
  readonly #auth: ServiceAuth | undefined;
  readonly #origins: ServiceOrigins | undefined;

  constructor(options: EndpointHandlerOptions) {
    const now = (this.#now = options.now ?? Date.now);
    this.#sleep = options.sleep ?? abortableSleep;
    const transport = (this.#transport = new EndpointTransport({ options, now }));
    this.#policyActive = transport.policyActive;
    const services = options.services;
    const secrets = (this.#secrets =
      options.secrets ?? (services === undefined ? undefined : new SecretSet()));
    this.#auth =
      services === undefined || secrets === undefined
        ? undefined
        : new ServiceAuth({ services, dispatcher: () => transport.dispatcher(), now, secrets });
    this.#origins = services === undefined ? undefined : new ServiceOrigins(services);
  }

  /** Waits before a retry if the wait fits before the deadline; false when it does not fit. */
  async #pause(wait: number, deadline: Deadline): Promise<boolean> {
    if (this.#now() + wait >= deadline.at) return false;
    await this.#sleep(wait, deadline);
    return true;
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
    const connects = this.#transport.connects();
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
      sent = this.#transport.send(
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
        const outcome = this.#finish(
          answeredBody(result.response, this.#secrets),
          records,
          startedAt,
        );
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
            this.#transport.checkHost(built.url.hostname),
            deadline,
          );
          if (verdict === undefined)
            return this.#stopped(deadline, endpoint.timeoutSecs, records, startedAt);
          if (!verdict.ok)
            return this.#finish(errorBody('policy_denied', verdict.reason), records, startedAt);
          this.#transport.pin(bareHost(built.url.hostname), verdict.addresses);
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
                : await attemptHeaders(built, service, deadline, this.#auth);
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
            const connects = this.#transport.connects();
            const entered = connects?.enter(built.url);
            result = await this.#transport.send(
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
              {
                type: 'error',
                error: failureError(result.failure, deadline, timeoutSecs, this.#transport.limits),
              },
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
          return this.#finish(answeredBody(response, this.#secrets), records, startedAt);
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

  /** The outcome of a finished call: scrubbed, with its request records and timing. */
  #finish(
    body: OutcomeBody,
    records: readonly HttpExchangeRecord[],
    startedAt: number,
  ): HandlerOutcome {
    return finishOutcome(scrubOutcome(body, this.#secrets), startedAt, this.#now(), records);
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
      const built = preflight(endpoint, args, context, this.#auth, this.#origins);
      if ('type' in built) return this.#early(built, startedAt);
      return this.#call(built, endpoint, context, startedAt);
    } catch (err) {
      return Promise.resolve(this.#crashed(err, startedAt));
    }
  }

  close(): Promise<void> {
    this.#inflight.cancelAll();
    return this.#transport.close();
  }
}
