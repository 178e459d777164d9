/**
 * Per-call deadline and retries (the Symphony tool config: `timeout` in ms and `retryCount` on a
 * definition, any tool type), plus the run-wide cap `domain_timeout_secs` maps to. Wraps one
 * handler call: each attempt runs under its own deadline; when the deadline passes first the
 * attempt's signal aborts and the call becomes a typed `timeout` tool error, whatever the handler
 * does afterwards (an action that ignores its signal cannot hold the turn). A failed attempt is
 * tried again, up to `retryCount` more times, only when the service failed (`timeout`, `network`,
 * HTTP 429/5xx) — never after a refused argument or a host crash.
 *
 * Retrying a `post` endpoint or an action repeats its side effect: the definition author opted in
 * by writing `retryCount`, so it is honoured for every type (docs/agent-format.md).
 */
import { ToolError } from '../errors.js';
import type { HandlerOutcome } from '../handlers/types.js';

/** How one call runs: deadline per attempt and extra attempts. */
export interface CallPolicy {
  /** Deadline of one attempt in ms; absent: only the handler's own deadline applies. */
  readonly timeoutMs?: number;
  /** Extra attempts after a retryable failure. Default 0. */
  readonly retryCount: number;
}

/** The policy of one call: the definition's, with its deadline capped by `capMs` (if any). */
export function effectivePolicy(
  policy: CallPolicy | undefined,
  capMs: number | undefined,
): CallPolicy | undefined {
  const timeoutMs =
    capMs === undefined
      ? policy?.timeoutMs
      : Math.min(policy?.timeoutMs ?? Number.POSITIVE_INFINITY, capMs);
  const retryCount = policy?.retryCount ?? 0;
  if (timeoutMs === undefined && retryCount === 0) return undefined;
  return timeoutMs === undefined ? { retryCount } : { timeoutMs, retryCount };
}

/** Options of {@link runWithPolicy}. */
export interface RunWithPolicyOptions {
  readonly policy: CallPolicy;
  readonly tool: string;
  /** The call's own signal (interruption, for cancellable calls); each attempt's signal follows it. */
  readonly signal: AbortSignal;
  readonly now: () => number;
}

/** Runs `attempt` under the policy's deadline, again on retryable errors. Never rejects. */
export async function runWithPolicy(
  attempt: (signal: AbortSignal) => Promise<HandlerOutcome>,
  options: RunWithPolicyOptions,
): Promise<HandlerOutcome> {
  const { policy } = options;
  let outcome = await runOnce(attempt, options);
  for (let i = 0; i < policy.retryCount; i++) {
    if (outcome.type !== 'error' || options.signal.aborted) break;
    if (!retryable(outcome.error)) break;
    outcome = await runOnce(attempt, options);
  }
  return outcome;
}

/**
 * Failures of the service that another attempt may cure: a deadline, the network, a 429 or 5xx.
 * A model's or host's mistake (bad arguments, a crashed handler) would only fail again.
 */
function retryable(error: ToolError): boolean {
  switch (error.code) {
    case 'timeout':
    case 'network':
      return true;
    case 'http_status': {
      const status = error.details?.['status'];
      return typeof status === 'number' && (status === 429 || status >= 500);
    }
    default:
      return false;
  }
}

async function runOnce(
  attempt: (signal: AbortSignal) => Promise<HandlerOutcome>,
  options: RunWithPolicyOptions,
): Promise<HandlerOutcome> {
  const { timeoutMs } = options.policy;
  const controller = new AbortController();
  const follow = (): void => controller.abort(options.signal.reason);
  if (options.signal.aborted) follow();
  else options.signal.addEventListener('abort', follow, { once: true });
  const startedAt = options.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const work = Promise.resolve()
      .then(() => attempt(controller.signal))
      .catch((err: unknown): HandlerOutcome =>
        errorOutcome(new ToolError('handler_error', messageOf(err)), startedAt, options.now()),
      );
    if (timeoutMs === undefined) return await work;
    const deadline = new Promise<HandlerOutcome>((resolve) => {
      timer = setTimeout(() => {
        const error = new ToolError(
          'timeout',
          `${options.tool} did not finish within ${formatMs(timeoutMs)}`,
        );
        controller.abort(error);
        resolve(errorOutcome(error, startedAt, options.now()));
      }, timeoutMs);
    });
    return await Promise.race([work, deadline]);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    options.signal.removeEventListener('abort', follow);
  }
}

function errorOutcome(error: ToolError, startedAt: number, endedAt: number): HandlerOutcome {
  return {
    type: 'error',
    error,
    effects: [],
    requests: [],
    startedAt,
    endedAt,
    durationMs: Math.max(0, endedAt - startedAt),
  };
}

function formatMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

function messageOf(err: unknown): string {
  const text = err instanceof Error ? err.message : 'unknown error';
  return `handler failed: ${text.split('\n', 1)[0] ?? ''}`;
}
