/**
 * The connection limits of the agent server, as a production HTTP server sets them: a client that
 * sends its headers or body slowly (or never) is cut off, idle keep-alive connections close, the
 * number of open connections is capped, and shutdown waits a bounded time. Node's own defaults (a
 * 300 s request timeout checked every 30 s, no connection cap, a shutdown that waits forever) let a
 * few hundred trickling clients starve the server.
 */

/** Connection limits of {@link createAgentServer}; every field optional (defaults below). */
export interface AgentServerLimits {
  /** Time to receive a request's headers, ms; then 408 and the socket closes. Default 10 000. */
  readonly headersTimeoutMs?: number;
  /** Time to receive a whole request (headers and body), ms; then 408. Default 30 000. */
  readonly requestTimeoutMs?: number;
  /** An idle keep-alive connection closes after this, ms. Default 5 000. */
  readonly keepAliveTimeoutMs?: number;
  /** Requests served on one keep-alive connection before it closes. Default 100. */
  readonly maxRequestsPerSocket?: number;
  /**
   * Open connections at most. Over it, the oldest connection without a running request (idle,
   * or still sending its request) is closed, else the new one. Default 256.
   */
  readonly maxConnections?: number;
  /**
   * `close()` waits this long for runs and requests in flight, ms; then every connection closes
   * and runs still going are ended as if their client had gone. Default 10 000.
   */
  readonly drainTimeoutMs?: number;
}

/** Defaults of {@link AgentServerLimits}. */
export const DEFAULT_SERVER_LIMITS: Readonly<Required<AgentServerLimits>> = Object.freeze({
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxRequestsPerSocket: 100,
  maxConnections: 256,
  drainTimeoutMs: 10_000,
});

/** The longest delay a Node timer holds. */
const MAX_TIMER_MS = 2_147_483_647;

/** The limits with defaults filled in; throws a RangeError naming a bad one (a host mistake). */
export function resolveServerLimits(limits: AgentServerLimits): Required<AgentServerLimits> {
  const out = { ...DEFAULT_SERVER_LIMITS };
  for (const key of Object.keys(DEFAULT_SERVER_LIMITS) as (keyof AgentServerLimits)[]) {
    const value = limits[key];
    if (value === undefined) continue;
    const max = key.endsWith('Ms') ? MAX_TIMER_MS : Number.MAX_SAFE_INTEGER;
    if (!Number.isInteger(value) || value < 1 || value > max)
      throw new RangeError(`${key}: expected a whole number from 1 to ${max}, got ${value}`);
    out[key] = value;
  }
  if (out.headersTimeoutMs > out.requestTimeoutMs)
    throw new RangeError(
      `headersTimeoutMs (${out.headersTimeoutMs}) must not exceed requestTimeoutMs (${out.requestTimeoutMs})`,
    );
  return out;
}

/**
 * How often Node checks the header and request timeouts, ms. Node's default (30 s) would let a
 * trickling client outlive a 10 s timeout threefold; a quarter of the shorter timeout keeps the
 * overshoot small, and the floor keeps the check cheap.
 */
export function checkingIntervalMs(limits: Required<AgentServerLimits>): number {
  return Math.max(10, Math.min(1_000, Math.floor(limits.headersTimeoutMs / 4)));
}
