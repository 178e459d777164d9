/**
 * One deadline per call, combined with the caller's cancellation signal: whichever comes first
 * aborts the call, so connect, headers, body reads and retry waits all end on time. A small
 * listener list instead of an AbortController: creating an AbortSignal and adding/removing
 * EventTarget listeners on every call is a measurable share of a loopback request's cost.
 */

/** Something that can be aborted once and told about it. */
export interface Abortable {
  readonly aborted: boolean;
  /** Calls `listener` once on abort (at once if already aborted); returns an unsubscribe. */
  onAbort(listener: () => void): () => void;
}

/** A running deadline; call `dispose()` when the call is over. */
export interface Deadline extends Abortable {
  /** Epoch ms (per the injected clock) when the deadline passes. */
  readonly at: number;
  /** True when the caller's signal (not the deadline) ended the call. */
  cancelled(): boolean;
  /** Ends the call now, as the caller's signal would (the handler is closing). */
  cancel(): void;
  dispose(): void;
}

const NOOP = (): void => undefined;

// One EventTarget listener per caller signal, fanned out to every call using it: a turn's signal
// is shared by all its parallel calls, and per-call add/remove on an EventTarget is slow (and
// trips Node's max-listeners warning past 10 calls).
const fanOut = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Calls `listener` when `signal` aborts; returns an unsubscribe. Any number of listeners share
 * one EventTarget listener per signal, so no max-listeners warning at any count.
 */
export function onSignalAbort(signal: AbortSignal, listener: () => void): () => void {
  let set = fanOut.get(signal);
  if (set === undefined) {
    const listeners = new Set<() => void>();
    set = listeners;
    fanOut.set(signal, listeners);
    signal.addEventListener(
      'abort',
      () => {
        fanOut.delete(signal);
        for (const l of listeners) l();
      },
      { once: true },
    );
  }
  const own = set;
  own.add(listener);
  return () => {
    own.delete(listener);
  };
}

/** Starts a deadline of `ms` milliseconds linked to `outer`; `now` is the injected clock's time. */
export function startDeadline(ms: number, outer: AbortSignal, now: number): Deadline {
  let aborted = false;
  let byCaller = false;
  let listeners: Array<() => void> = [];
  const fire = (): void => {
    if (aborted) return;
    aborted = true;
    clearTimeout(timer);
    offOuter();
    const current = listeners;
    listeners = [];
    for (const l of current) l();
  };
  const onOuter = (): void => {
    byCaller = true;
    fire();
  };
  const timer = setTimeout(fire, ms);
  let offOuter = NOOP;
  if (outer.aborted) onOuter();
  else offOuter = onSignalAbort(outer, onOuter);
  return {
    at: now + ms,
    get aborted() {
      return aborted;
    },
    cancelled: () => byCaller,
    cancel: onOuter,
    onAbort(listener) {
      if (aborted) {
        listener();
        return NOOP;
      }
      listeners.push(listener);
      return () => {
        const i = listeners.indexOf(listener);
        if (i >= 0) listeners.splice(i, 1);
      };
    },
    dispose() {
      clearTimeout(timer);
      offOuter();
      listeners = [];
    },
  };
}

/** Waits `ms` unless `abortable` aborts first (resolves either way; the caller checks it). */
export function abortableSleep(ms: number, abortable: Abortable): Promise<void> {
  return new Promise((resolve) => {
    const off = abortable.onAbort(() => {
      clearTimeout(timer);
      resolve();
    });
    const timer = setTimeout(() => {
      off();
      resolve();
    }, ms);
  });
}

/** Resolves with the promise's value, or undefined as soon as `abortable` aborts. */
export function untilAborted<T>(promise: Promise<T>, abortable: Abortable): Promise<T | undefined> {
  if (abortable.aborted) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const off = abortable.onAbort(() => resolve(undefined));
    promise.then(
      (v) => {
        off();
        resolve(v);
      },
      (e: unknown) => {
        off();
        reject(e instanceof Error ? e : new Error('failed'));
      },
    );
  });
}
