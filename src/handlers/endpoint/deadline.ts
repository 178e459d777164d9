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
  return new CallDeadline(ms, outer, now);
}

/**
 * A class, not an object literal: a literal with a getter (`aborted`) is created in dictionary
 * mode, so every call's deadline was a slow object, and so was every read of it.
 */
class CallDeadline implements Deadline {
  readonly at: number;
  #aborted = false;
  #byCaller = false;
  #listeners: Array<() => void> = [];
  readonly #timer: ReturnType<typeof setTimeout>;
  #offOuter: () => void = NOOP;

  constructor(ms: number, outer: AbortSignal, now: number) {
    this.at = now + ms;
    this.#timer = setTimeout(() => this.#fire(), ms);
    if (outer.aborted) this.cancel();
    else this.#offOuter = onSignalAbort(outer, () => this.cancel());
  }

  get aborted(): boolean {
    return this.#aborted;
  }

  cancelled(): boolean {
    return this.#byCaller;
  }

  /** The caller's signal aborted, or the handler is closing. */
  cancel(): void {
    if (this.#aborted) return;
    this.#byCaller = true;
    this.#fire();
  }

  onAbort(listener: () => void): () => void {
    if (this.#aborted) {
      listener();
      return NOOP;
    }
    this.#listeners.push(listener);
    return () => {
      const i = this.#listeners.indexOf(listener);
      if (i >= 0) this.#listeners.splice(i, 1);
    };
  }

  dispose(): void {
    clearTimeout(this.#timer);
    this.#offOuter();
    this.#listeners = [];
  }

  #fire(): void {
    if (this.#aborted) return;
    this.#aborted = true;
    clearTimeout(this.#timer);
    this.#offOuter();
    const current = this.#listeners;
    this.#listeners = [];
    for (const l of current) l();
  }
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
