/**
 * One deadline per call, combined with the caller's cancellation signal: a single
 * AbortController aborted by whichever comes first, so connect, headers, body reads and retry
 * waits all end on time. Tells afterwards which of the two fired.
 */

/** A running deadline; call `dispose()` when the call is over. */
export interface Deadline {
  readonly signal: AbortSignal;
  /** Epoch ms (per the injected clock) when the deadline passes. */
  readonly at: number;
  /** True when the caller's signal (not the deadline) ended the call. */
  cancelled(): boolean;
  dispose(): void;
}

/** Starts a deadline of `ms` milliseconds linked to `outer`. */
export function startDeadline(ms: number, outer: AbortSignal, now: number): Deadline {
  const controller = new AbortController();
  let byCaller = false;
  const onAbort = (): void => {
    byCaller = true;
    controller.abort(outer.reason);
  };
  if (outer.aborted) onAbort();
  else outer.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => controller.abort(new Error('deadline')), ms);
  return {
    signal: controller.signal,
    at: now + ms,
    cancelled: () => byCaller,
    dispose: () => {
      clearTimeout(timer);
      outer.removeEventListener('abort', onAbort);
    },
  };
}

/** Waits `ms` unless `signal` aborts first (resolves either way; the caller checks the signal). */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
