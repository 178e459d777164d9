/**
 * The endpoint handler (docs/handlers.md): builds the request from the final arguments, applies the
 * service's auth and the network policy, sends it through one undici dispatcher (injected, or the
 * process's shared pool for its network policy — never undici's global one) under one deadline,
 * retries idempotent calls, and turns whatever comes back into a value or a typed tool error. It
 * never throws.
 *
 * Split by concern, as siblings: the handler class (EndpointCalls) in endpoint-calls.ts; the
 * options, the interface and the default limits in endpoint-options.ts (re-exported here); the
 * request parts shared by every handler (static headers, URL templates, the idempotency key) in
 * request-parts.ts.
 */
import { DefinitionError } from '../../errors.js';
import { argumentError } from '../../option-checks.js';
import { isConnectionPools } from './connection-pools.js';
import { EndpointCalls } from './endpoint-calls.js';
import type { EndpointHandler, EndpointHandlerOptions } from './endpoint-options.js';
import { missingOriginIssues } from './service-origins.js';

export { DEFAULT_MAX_HEADER_BYTES, DEFAULT_MAX_RESPONSE_BYTES } from './endpoint-options.js';
export type { EndpointHandler, EndpointHandlerOptions } from './endpoint-options.js';

/**
 * Creates the handler of `endpoint` tools. Throws a {@link DefinitionError} (code
 * `origins_required`, path `services.<name>.origins`) for a service with `auth` and no `origins`,
 * as `createSession` does: secure by default, its credentials never go to an origin nobody listed.
 */
export function createEndpointHandler(options: EndpointHandlerOptions = {}): EndpointHandler {
  // Caught here, not at the first call: the pool a call takes is found through the pools object.
  if (options.pools !== undefined && !isConnectionPools(options.pools))
    throw argumentError(
      'createEndpointHandler(options.pools)',
      'connection pools from createConnectionPools()',
      options.pools,
    );
  const issues = options.services === undefined ? [] : missingOriginIssues(options.services);
  if (issues.length > 0) throw new DefinitionError(issues, 'invalid createEndpointHandler options');
  return new EndpointCalls(options);
}
