/**
 * Per-session concurrency of endpoint calls (`limits.maxConcurrentEndpointCalls`): at most `max`
 * calls of one session are with the endpoint handler at once; the others wait in call order. A
 * waiting call whose signal aborts (interruption of a cancellable call) or whose session closes
 * leaves the queue with a `cancelled` tool error and never reaches the network.
 */
import { finishOutcome, errorBody } from '../handlers/outcome.js';
import type { Handler, HandlerContext, HandlerOutcome } from '../handlers/types.js';
import { isAborted, onSignalAbort } from '../handlers/endpoint/deadline.js';

/** An endpoint handler that can be closed (what createEndpointHandler returns). */
export type ClosableHandler = Handler & { close(): Promise<void> };

/** Wraps `inner` so at most `max` of its calls run at once. */
export function limitEndpointCalls(
  inner: ClosableHandler,
  max: number,
  now: () => number,
): ClosableHandler {
  return new EndpointCallLimiter(inner, max, now);
}

/**
 * One per session that calls an endpoint: a class, not a set of closures, so an idle session's
 * limiter is one small object (its wait queue is made only when a call has to wait).
 */
class EndpointCallLimiter implements ClosableHandler {
  readonly kind: ClosableHandler['kind'];
  readonly #inner: ClosableHandler;
  readonly #max: number;
  readonly #now: () => number;
  #running = 0;
  #waiting: Set<() => void> | undefined;
  #closed = false;

  // Shared by every call of this limiter (no closures, no async frame per call): the slot is
  // freed however the call ends.
  readonly #releaseWith = (outcome: HandlerOutcome): HandlerOutcome => {
    this.#release();
    return outcome;
  };
  readonly #releaseAndThrow = (err: unknown): never => {
    this.#release();
    throw err;
  };

  constructor(inner: ClosableHandler, max: number, now: () => number) {
    this.kind = inner.kind;
    this.#inner = inner;
    this.#max = max;
    this.#now = now;
  }

  execute(
    args: Readonly<Record<string, unknown>>,
    context: HandlerContext,
  ): Promise<HandlerOutcome> {
    const slot = this.#acquire(context);
    if (slot === true) return this.#run(args, context);
    if (slot === false) return Promise.resolve(this.#cancelled());
    return slot.then((ok) => (ok ? this.#run(args, context) : this.#cancelled()));
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const wake of [...(this.#waiting ?? [])]) wake();
    await this.#inner.close();
  }

  #release(): void {
    this.#running--;
    const next = this.#waiting?.values().next();
    if (next !== undefined && !next.done) next.value();
  }

  #cancelled(): HandlerOutcome {
    const t = this.#now();
    return finishOutcome(errorBody('cancelled', 'the call was cancelled before it started'), t, t);
  }

  /**
   * True when a slot is taken, false when the call must not start; a promise of either when the
   * call has to wait (a free slot is taken synchronously, without a tick).
   */
  #acquire(context: HandlerContext): boolean | Promise<boolean> {
    if (this.#closed || isAborted(context.signal)) return false;
    if (this.#running < this.#max) {
      this.#running++;
      return true;
    }
    const waiting = (this.#waiting ??= new Set());
    return new Promise((resolve) => {
      const wake = (): void => {
        waiting.delete(wake);
        off();
        if (this.#closed) return resolve(false);
        this.#running++;
        resolve(true);
      };
      const off = onSignalAbort(context.signal, () => {
        waiting.delete(wake);
        resolve(false);
      });
      waiting.add(wake);
    });
  }

  #run(args: Readonly<Record<string, unknown>>, context: HandlerContext): Promise<HandlerOutcome> {
    let running: Promise<HandlerOutcome>;
    try {
      running = this.#inner.execute(args, context);
    } catch (err) {
      this.#release();
      // Rejected with the value thrown, as the async wrapper this replaces did.
      return Promise.reject(err as Error);
    }
    return running.then(this.#releaseWith, this.#releaseAndThrow);
  }
}
