/**
 * Per-session concurrency of endpoint calls (`limits.maxConcurrentEndpointCalls`): at most `max`
 * calls of one session are with the endpoint handler at once; the others wait in call order. A
 * waiting call whose signal aborts (interruption of a cancellable call) or whose session closes
 * leaves the queue with a `cancelled` tool error and never reaches the network.
 */
import { finishOutcome, errorBody } from '../handlers/outcome.js';
import type { Handler, HandlerContext, HandlerOutcome } from '../handlers/types.js';
import { onSignalAbort } from '../handlers/endpoint/deadline.js';

/** An endpoint handler that can be closed (what createEndpointHandler returns). */
export type ClosableHandler = Handler & { close(): Promise<void> };

/** Wraps `inner` so at most `max` of its calls run at once. */
export function limitEndpointCalls(
  inner: ClosableHandler,
  max: number,
  now: () => number,
): ClosableHandler {
  let running = 0;
  const waiting = new Set<() => void>();
  let closed = false;

  const release = (): void => {
    running--;
    const next = waiting.values().next();
    if (!next.done) next.value();
  };

  const cancelled = (): HandlerOutcome => {
    const t = now();
    return finishOutcome(errorBody('cancelled', 'the call was cancelled before it started'), t, t);
  };

  /**
   * True when a slot is taken, false when the call must not start; a promise of either when the
   * call has to wait (a free slot is taken synchronously, without a tick).
   */
  const acquire = (context: HandlerContext): boolean | Promise<boolean> => {
    if (closed || context.signal.aborted) return false;
    if (running < max) {
      running++;
      return true;
    }
    return new Promise((resolve) => {
      const wake = (): void => {
        waiting.delete(wake);
        off();
        if (closed) return resolve(false);
        running++;
        resolve(true);
      };
      const off = onSignalAbort(context.signal, () => {
        waiting.delete(wake);
        resolve(false);
      });
      waiting.add(wake);
    });
  };

  // Shared by every call (no closures, no async frame per call): the slot is freed however the
  // call ends.
  const releaseWith = (outcome: HandlerOutcome): HandlerOutcome => {
    release();
    return outcome;
  };
  const releaseAndThrow = (err: unknown): never => {
    release();
    throw err;
  };
  const run = (
    args: Readonly<Record<string, unknown>>,
    context: HandlerContext,
  ): Promise<HandlerOutcome> => {
    let running: Promise<HandlerOutcome>;
    try {
      running = inner.execute(args, context);
    } catch (err) {
      release();
      // Rejected with the value thrown, as the async wrapper this replaces did.
      return Promise.reject(err as Error);
    }
    return running.then(releaseWith, releaseAndThrow);
  };

  return {
    kind: inner.kind,
    execute(args, context) {
      const slot = acquire(context);
      if (slot === true) return run(args, context);
      if (slot === false) return Promise.resolve(cancelled());
      return slot.then((ok) => (ok ? run(args, context) : cancelled()));
    },
    async close() {
      closed = true;
      for (const wake of [...waiting]) wake();
      await inner.close();
    },
  };
}
