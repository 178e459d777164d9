/**
 * How an endpoint call ends, for endpoint-calls.ts: the refusal of a call before any I/O, what its
 * final answer tells the model, the error of a call stopped by its deadline or its caller, the model's error for a transport failure, the secrets scrubbed from an outcome, and
 * the request headers of one attempt. Plain functions of what they are given: the handler's state
 * stays in EndpointCalls.
 */
import type { EndpointConfig } from '../../definition/types.js';
import { ToolError } from '../../errors.js';
import { errorBody, type OutcomeBody } from '../outcome.js';
import type { HandlerContext } from '../types.js';
import { buildRequest, headerProblem, isBuildFailure, type BuiltRequest } from './build-request.js';
import { isAborted, type Deadline } from './deadline.js';
import type {
  ExchangeFailure,
  ExchangeLimits,
  ExchangeResponse,
  ExchangeResult,
} from './exchange.js';
import { interpretResponse } from './interpret-response.js';
import { ACCEPT, ACCEPT_ENCODING, NO_SECRETS, staticHeaders, templateOf } from './request-parts.js';
import type { SecretSet } from './secret-set.js';
import { serviceNotConfigured, type ServiceAuth } from './service-auth.js';
import type { ServiceOrigins } from './service-origins.js';

/**
 * The request of a call, or why it is refused before any I/O: cancelled already, an unusable URL,
 * arguments that make no request, a service not configured or not allowed at the URL's origin.
 */
export function preflight(
  endpoint: EndpointConfig,
  args: Readonly<Record<string, unknown>>,
  context: HandlerContext,
  auth: ServiceAuth | undefined,
  origins: ServiceOrigins | undefined,
): BuiltRequest | OutcomeBody {
  if (isAborted(context.signal)) return errorBody('cancelled', 'the call was cancelled');
  const template = templateOf(endpoint);
  if (typeof template === 'string')
    return errorBody('not_available', `tool ${context.tool.name} has an unusable URL`);
  const built = buildRequest(template, endpoint.argumentLocation, args);
  if (isBuildFailure(built)) return errorBody('invalid_arguments', built.problem);
  const service = context.tool.service;
  if (service !== undefined && (auth === undefined || !auth.has(service)))
    return { type: 'error', error: serviceNotConfigured(service) };
  // Secrets follow their service's origin: checked before any token fetch or connection.
  if (service !== undefined && origins?.allows(service, built.url.origin) === false)
    return errorBody(
      'origin_not_allowed',
      `service "${service}" may not be used with ${built.url.origin}`,
    );
  return built;
}

/** What the final answer tells the model: the response interpreted, its secrets scrubbed. */
export function answeredBody(
  response: ExchangeResponse,
  secrets: SecretSet | undefined,
): OutcomeBody {
  const interpreted = interpretResponse(
    response,
    secrets === undefined || secrets.size === 0 ? undefined : (text) => secrets.scrubText(text),
  );
  return interpreted.ok
    ? { type: 'success', output: interpreted.output }
    : { type: 'error', error: interpreted.error };
}

/** The error of a call ended by its deadline or by the caller. */
export function stoppedError(deadline: Deadline, timeoutSecs: number): ToolError {
  return deadline.cancelled()
    ? new ToolError('cancelled', 'the call was cancelled')
    : new ToolError('timeout', `the endpoint did not answer within ${timeoutSecs} s`);
}

/** Maps a transport failure to the model's error, knowing whether the caller cancelled. */
export function failureError(
  failure: ExchangeFailure,
  deadline: Deadline,
  timeoutSecs: number,
  limits: ExchangeLimits,
): ToolError {
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
        `the response body exceeds ${limits.maxBodyBytes} bytes`,
      );
    case 'headers_too_large':
      return new ToolError(
        'response_too_large',
        `the response headers exceed ${limits.maxHeaderBytes} bytes`,
      );
    case 'bad_encoding':
      return new ToolError('bad_response', failure.message);
    default: {
      const _exhaustive: never = failure;
      return _exhaustive;
    }
  }
}

/** Removes every known secret from what the model and the traces will see. */
export function scrubOutcome(body: OutcomeBody, secrets: SecretSet | undefined): OutcomeBody {
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

/** Request headers of one attempt: defaults, the service's (auth fetched if needed), content type. */
export async function attemptHeaders(
  built: BuiltRequest,
  service: string | undefined,
  deadline: Deadline,
  auth: ServiceAuth | undefined,
): Promise<
  { headers: Readonly<Record<string, string>>; secretHeaders: ReadonlySet<string> } | ToolError
> {
  // Without a service the headers are ours alone (no model or host value): shared and valid.
  if (service === undefined)
    return { headers: staticHeaders(built.contentType), secretHeaders: NO_SECRETS };
  if (auth === undefined) return serviceNotConfigured(service);
  const extra = await auth.headers(service, deadline);
  if (extra instanceof ToolError) return extra;
  const headers: Record<string, string> = {
    accept: ACCEPT,
    'accept-encoding': ACCEPT_ENCODING,
    ...extra.headers,
  };
  if (built.contentType !== undefined) headers['content-type'] = built.contentType;
  for (const name in headers) {
    const problem = headerProblem(name, headers[name] ?? '');
    if (problem !== undefined) return new ToolError('invalid_arguments', problem);
  }
  return { headers, secretHeaders: extra.secretHeaders };
}

/**
 * Why an attempt failed, for its span's status message: a network failure's words are built from
 * error codes (`connection failed (DEPTH_ZERO_SELF_SIGNED_CERT)`), so telemetry tells a TLS
 * problem from a DNS one or a reset without carrying a body or a header.
 */
export function failureDetail(result: ExchangeResult): string | undefined {
  return !result.ok && 'message' in result.failure ? result.failure.message : undefined;
}
