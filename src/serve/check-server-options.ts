/**
 * createAgentServer's options, checked when the server is created (not at its first request):
 * its own keys (connection limits, body cap, `onError`, `token`, `allowedOrigins`) throw a RangeError naming the option, as
 * the CLI's usage errors expect; the rest are session options, which agent-server.ts checks as
 * createSession does (a DefinitionError), so `tools: loadTools(…)` without `await` or `model: 'gpt-4o'` fails
 * at start instead of answering every request with a 500.
 */
import {
  arrayOf,
  integer,
  isFunction,
  isNonEmptyString,
  isString,
  MAX_TIMER_MS,
  type Check,
} from '../option-checks.js';
import { checkOwnOptions } from '../session/own-options.js';

const timeout = integer(1, MAX_TIMER_MS);

/** The server's own keys; every other key is handed to each run's session. */
const OWN: Readonly<Record<string, Check>> = {
  maxBodyBytes: integer(1),
  onError: isFunction,
  headersTimeoutMs: timeout,
  requestTimeoutMs: timeout,
  keepAliveTimeoutMs: timeout,
  maxRequestsPerSocket: integer(1),
  maxConnections: integer(1),
  drainTimeoutMs: timeout,
  token: isString,
  allowedOrigins: arrayOf(isNonEmptyString),
};

/**
 * Throws a RangeError for a wrong own option. Returns the options without keys neither the server
 * nor a session knows: those are warned about once, here, not at every request.
 */
export function checkServerOptions<T extends object>(options: T): T {
  return checkOwnOptions(options, { own: OWN, caller: 'createAgentServer', error: 'range' });
}
