/**
 * Turn-wide limits of the Symphony agent config: `maxCalls` (model calls per turn) and `timeout`
 * (deadline of the whole turn, ms). The active agent's values win over the session's. A turn past
 * its deadline stops the way an interruption does (in-flight calls that are safe to cancel are
 * cancelled, started writes and actions finish and are kept) and reports `interrupted` with
 * `reason: 'timeout'`.
 */
import type { SessionOptions } from './types.js';
import type { TurnController } from './turn-signals.js';

/** The limits of one turn, resolved from the session and its active agent. */
export interface TurnLimits {
  readonly maxCalls?: number;
  readonly timeoutMs?: number;
}

const NO_LIMITS: TurnLimits = Object.freeze({});

/** The limits for a turn that starts with `agent` active. */
export function turnLimits(options: SessionOptions, agent: string | undefined): TurnLimits {
  const agents = options.agents;
  const config =
    agents !== undefined && agent !== undefined && Object.hasOwn(agents, agent)
      ? agents[agent]
      : undefined;
  const maxCalls = config?.maxCalls ?? options.maxCalls;
  const timeoutMs = config?.timeout ?? options.turnTimeoutMs;
  // Most sessions set neither: one shared object instead of one per turn.
  if (maxCalls === undefined && timeoutMs === undefined) return NO_LIMITS;
  // Set one by one: a literal of conditional spreads gets a hidden class per object once optimized.
  const limits: { -readonly [K in keyof TurnLimits]: TurnLimits[K] } = {};
  if (maxCalls !== undefined) limits.maxCalls = maxCalls;
  if (timeoutMs !== undefined) limits.timeoutMs = timeoutMs;
  return limits;
}

/** A turn's deadline: aborts the turn's controller when it passes. */
export interface TurnDeadline {
  /** True once the deadline (not the caller) aborted the turn. */
  timedOut(): boolean;
  dispose(): void;
}

const NEVER = (): boolean => false;
const NOOP = (): void => undefined;

/** Without a timeout: one shared deadline that never passes (nothing made per turn). */
const NO_DEADLINE: TurnDeadline = { timedOut: NEVER, dispose: NOOP };

/**
 * Aborts the turn's own controller (taken from the pool for this turn, held by no other while it
 * runs) when `timeoutMs` (if given) passes, so a turn with a timeout makes no second controller
 * (each new AbortSignal costs a hidden class in Node 20; turn-signals.ts).
 */
export function turnDeadline(
  controller: TurnController,
  timeoutMs: number | undefined,
): TurnDeadline {
  if (timeoutMs === undefined) return NO_DEADLINE;
  let expired = false;
  const timer = setTimeout(() => {
    if (controller.stopped) return;
    expired = true;
    controller.abort(new Error(`the turn did not finish within ${timeoutMs} ms`));
  }, timeoutMs);
  return {
    timedOut: () => expired,
    dispose: () => clearTimeout(timer),
  };
}
