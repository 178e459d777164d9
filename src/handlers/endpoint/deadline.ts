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

/** Does nothing: the unsubscribe of a listener never added. */
export const NOOP = (): void => undefined;

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
 * The timers of every running deadline of one duration. Deadlines of the same duration expire in
 * the order they start, so they wait in a FIFO queue under one Node timer armed for the oldest
 * live one: starting a deadline is a push and ending it a flag, where a timer per call cost an
 * insertion into, and a removal from, Node's timer lists (a measurable share of a loopback call).
 * Ended deadlines leave the queue lazily; the queue is compacted when they outnumber live ones.
 */
class DurationQueue {
  readonly #ms: number;
  #queue: CallDeadline[] = [];
  #head = 0;
  #live = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  // The timer functions the timer was armed with: a test that installs fake timers brings new ones.
  #armedWith: typeof setTimeout | undefined;
  #clearWith: typeof clearTimeout = clearTimeout;
  // The `due` the timer was armed for: when it fires, that time has come, whatever the clock says.
  #armedFor = 0;

  constructor(ms: number) {
    this.#ms = ms;
  }

  add(deadline: CallDeadline): void {
    this.#queue.push(deadline);
    this.#live++;
    if (this.#timer === undefined || this.#armedWith !== setTimeout) {
      // For the oldest live deadline: the new one unless a timer of other functions held older ones.
      const head = this.#queue[this.#head] as CallDeadline;
      this.#arm(
        head.due,
        head === deadline ? this.#ms : Math.max(1, Math.ceil(head.due - deadline.due + this.#ms)),
      );
    } else if (this.#live === 1) {
      this.#timer.ref();
    }
  }

  /** `deadline` (queued) ended: it no longer holds the process open or its place in the queue. */
  remove(): void {
    this.#live--;
    // An idle timer stays armed, unreferenced (a call every few ms must not re-arm one each time);
    // when it fires with nothing live it is dropped.
    if (this.#live === 0) this.#timer?.unref();
    const queue = this.#queue;
    while (this.#head < queue.length && !(queue[this.#head] as CallDeadline).queued) this.#head++;
    if (this.#head === queue.length) {
      queue.length = 0;
      this.#head = 0;
    } else if (queue.length - this.#head > 2 * this.#live + 64) {
      // A long call at the head holds ended ones behind it: keep only the live ones.
      this.#queue = queue.filter((d, i) => i >= this.#head && d.queued);
      this.#head = 0;
    }
  }

  #arm(due: number, delay: number): void {
    if (this.#timer !== undefined) this.#clearWith(this.#timer);
    this.#armedFor = due;
    this.#armedWith = setTimeout;
    this.#clearWith = clearTimeout;
    const timer = setTimeout(() => {
      if (this.#timer === timer) this.#expire();
    }, delay);
    this.#timer = timer;
    if (this.#live === 0) timer.unref();
  }

  /** Expires every due deadline, then re-arms for the next live one (or drops the queue). */
  #expire(): void {
    this.#timer = undefined;
    // The timer's word counts: Node may fire it a little before the monotonic clock reaches
    // `due` (as a timer per call did), and fake timers may not move `performance.now()` at all.
    const now = Math.max(performance.now(), this.#armedFor);
    while (this.#head < this.#queue.length) {
      const deadline = this.#queue[this.#head] as CallDeadline;
      if (!deadline.queued) {
        this.#head++;
        continue;
      }
      if (deadline.due > now) break;
      this.#head++;
      deadline.expire();
    }
    if (this.#live > 0) {
      // (Re)armed for the oldest live deadline, even if a listener above started a new one.
      const next = this.#queue[this.#head] as CallDeadline;
      this.#arm(next.due, Math.max(1, Math.ceil(next.due - now)));
      return;
    }
    this.#queue = [];
    this.#head = 0;
    if (queues.get(this.#ms) === this) queues.delete(this.#ms);
  }
}

/** The queue of each duration in use (dropped when its timer fires with nothing live). */
const queues = new Map<number, DurationQueue>();

function queueFor(ms: number): DurationQueue {
  let queue = queues.get(ms);
  if (queue === undefined) {
    queue = new DurationQueue(ms);
    queues.set(ms, queue);
  }
  return queue;
}

/**
 * A class, not an object literal: a literal with a getter (`aborted`) is created in dictionary
 * mode, so every call's deadline was a slow object, and so was every read of it.
 */
class CallDeadline implements Deadline {
  readonly at: number;
  /** Monotonic time (`performance.now()`) when the deadline passes. */
  readonly due: number;
  /** True while it waits in its duration's queue. */
  queued = true;
  #aborted = false;
  #byCaller = false;
  #listeners: Array<() => void> = [];
  readonly #queue: DurationQueue;
  #offOuter: () => void = NOOP;

  constructor(ms: number, outer: AbortSignal, now: number) {
    this.at = now + ms;
    this.due = performance.now() + ms;
    this.#queue = queueFor(ms);
    this.#queue.add(this);
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

  /** Its time has come (called by its queue, which has already let go of it). */
  expire(): void {
    this.#dequeue();
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
    this.#dequeue();
    this.#offOuter();
    this.#listeners = [];
  }

  #dequeue(): void {
    if (!this.queued) return;
    this.queued = false;
    this.#queue.remove();
  }

  #fire(): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#dequeue();
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
