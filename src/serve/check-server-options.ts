/**
 * createAgentServer's options, checked when the server is created (not at its first request):
 * its own keys (connection limits, body cap, `onError`) throw a RangeError naming the option, as
 * the CLI's usage errors expect; the rest are session options, checked as createSession checks
 * them (a DefinitionError), so `tools: loadTools(…)` without `await` or `model: 'gpt-4o'` fails
 * at start instead of answering every request with a 500.
 */
import { didYouMean } from '../did-you-mean.js';
import type { DefinitionIssue } from '../errors.js';
import {
  checkOptions,
  fields,
  integer,
  isFunction,
  MAX_TIMER_MS,
  warnOnce,
  type Check,
} from '../option-checks.js';
import { SESSION_OPTION_NAMES } from '../session/check-option-shapes.js';
import { checkSessionOptions } from '../session/check-options.js';
import type { SessionOptions } from '../session/types.js';

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
};

const ownShape = fields(OWN);
const KNOWN = [...Object.keys(OWN), ...SESSION_OPTION_NAMES];

/**
 * Throws for a wrong own option (RangeError) or session option (DefinitionError). Returns the
 * session options without the keys neither knows: those are warned about once, here, not at
 * every request.
 */
export function checkServerOptions(
  options: Readonly<Record<string, unknown>>,
  sessionOptions: SessionOptions,
): SessionOptions {
  checkOptions(ownShape, options, {
    caller: 'createAgentServer',
    error: 'range',
    passOn: 'ignore-unknown',
  });
  const kept: Record<string, unknown> = {};
  const unknown: DefinitionIssue[] = [];
  for (const [key, value] of Object.entries(sessionOptions)) {
    if (SESSION_OPTION_NAMES.has(key)) kept[key] = value;
    else
      unknown.push({
        code: 'unknown_option',
        severity: 'warning',
        path: key,
        message: `is not a known option${didYouMean(key, KNOWN)}; it is ignored`,
      });
  }
  const checked = kept as unknown as SessionOptions;
  checkSessionOptions(checked);
  const warn = typeof options['onWarning'] === 'function' ? checked.onWarning : undefined;
  for (const issue of unknown) (warn ?? warnOnce)(issue);
  return checked;
}
