/**
 * The connection limits of the agent server: those every switchboard server sets
 * (`src/http-limits.ts`: header, body and keep-alive timeouts, requests per connection, the
 * connection cap) and a bounded shutdown. Node's own shutdown waits forever for a slow client.
 */
import {
  DEFAULT_CONNECTION_LIMITS,
  checkLimit,
  resolveConnectionLimits,
  type ConnectionLimits,
} from '../http-limits.js';

/** Connection limits of {@link createAgentServer}; every field optional (defaults below). */
export interface AgentServerLimits extends ConnectionLimits {
  /**
   * `close()` waits this long for runs and requests in flight, ms; then every connection closes
   * and runs still going are ended as if their client had gone. Default 10 000.
   */
  readonly drainTimeoutMs?: number;
}

/** Defaults of {@link AgentServerLimits}. */
export const DEFAULT_SERVER_LIMITS: Readonly<Required<AgentServerLimits>> = Object.freeze({
  ...DEFAULT_CONNECTION_LIMITS,
  drainTimeoutMs: 10_000,
});

/** The limits with defaults filled in; throws a RangeError naming a bad one (a host mistake). */
export function resolveServerLimits(limits: AgentServerLimits): Required<AgentServerLimits> {
  const { drainTimeoutMs, ...connection } = limits;
  return {
    ...resolveConnectionLimits(connection),
    drainTimeoutMs:
      drainTimeoutMs === undefined
        ? DEFAULT_SERVER_LIMITS.drainTimeoutMs
        : checkLimit('drainTimeoutMs', drainTimeoutMs),
  };
}
