/**
 * One deadline per call, combined with the caller's cancellation signal: whichever comes first
 * aborts the call, so connect, headers, body reads and retry waits all end on time. A small
 * listener list instead of an AbortController: creating an AbortSignal and adding/removing
 * EventTarget listeners on every call is a measurable share of a loopback request's cost. The
 * parts live beside it: signal-watch.ts (caller signals), duration-queue.ts (timers),
 * deadline-group.ts (calls in flight) and abortable.ts (waiting under an abort).
 */
import type { Abortable } from './abortable.js';
import type { DeadlineGroup, GroupMember } from './deadline-group.js';
import { queueFor, type DurationQueue } from './duration-queue.js';
import {
  isAborted,
  NEVER_ABORTED,
  watchSignal,
  type SignalWatch,
  type WatchNode,
} from './signal-watch.js';

export { abortableSleep, untilAborted, type Abortable } from './abortable.js';
export { DeadlineGroup, type GroupMember } from './deadline-group.js';
export { isAborted, NEVER_ABORTED, onlyIdleWatch, onSignalAbort } from './signal-watch.js';

/** Told once when a deadline aborts: an object's method, so watching makes no closure. */
export interface AbortWatcher {
  abortedNow(): void;
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

/**
 * Starts a deadline of `ms` milliseconds linked to `outer`; `now` is the injected clock's time.
 * With `group`, the deadline is in it until disposed.
 */
export function startDeadline(
  ms: number,
  outer: AbortSignal,
  now: number,
  group?: DeadlineGroup,
): Deadline {
  return new CallDeadline(ms, outer, now, group);
}

/**
 * A class, not an object literal: a literal with a getter (`aborted`) is created in dictionary
 * mode, so every call's deadline was a slow object, and so was every read of it.
 */
export class CallDeadline implements Deadline, WatchNode, GroupMember {
  readonly at: number;
  /** Monotonic time (`performance.now()`) when the deadline passes. */
  readonly due: number;
  /** True while it waits in its duration's queue. */
  queued = true;
  #aborted = false;
  #byCaller = false;
  // The exchange in flight watches in a slot of its own (one at a time: attempts are sequential);
  // other listeners and watchers are in arrays made on first use.
  #watcher: AbortWatcher | undefined = undefined;
  #watchers: AbortWatcher[] | undefined = undefined;
  #listeners: Array<() => void> | undefined = undefined;
  readonly #queue: DurationQueue;
  // Its place in the caller signal's watch list and in its group (intrusive: no allocation).
  watchPrev: WatchNode | undefined = undefined;
  watchNext: WatchNode | undefined = undefined;
  watch: SignalWatch | undefined = undefined;
  groupPrev: GroupMember | undefined = undefined;
  groupNext: GroupMember | undefined = undefined;
  readonly #group: DeadlineGroup | undefined;

  constructor(ms: number, outer: AbortSignal, now: number, group: DeadlineGroup | undefined) {
    this.at = now + ms;
    this.due = performance.now() + ms;
    this.#queue = queueFor(ms);
    this.#queue.add(this);
    this.#group = group;
    group?.add(this);
    // The never-aborted signal is neither asked nor watched: nothing would ever come from it.
    if (isAborted(outer)) this.cancel();
    else if (outer !== NEVER_ABORTED) watchSignal(outer, this);
  }

  signalAborted(): void {
    this.cancel();
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
    (this.#listeners ??= []).push(listener);
    return () => {
      const listeners = this.#listeners;
      const i = listeners === undefined ? -1 : listeners.indexOf(listener);
      if (i >= 0) listeners?.splice(i, 1);
    };
  }

  /** Tells `watcher` (once) when the deadline aborts, at once if it has; see {@link unwatchAbort}. */
  watchAbort(watcher: AbortWatcher): void {
    if (this.#aborted) watcher.abortedNow();
    else if (this.#watcher === undefined) this.#watcher = watcher;
    else (this.#watchers ??= []).push(watcher);
  }

  unwatchAbort(watcher: AbortWatcher): void {
    if (this.#watcher === watcher) {
      this.#watcher = undefined;
      return;
    }
    const i = this.#watchers === undefined ? -1 : this.#watchers.indexOf(watcher);
    if (i >= 0) this.#watchers?.splice(i, 1);
  }

  dispose(): void {
    this.#dequeue();
    this.watch?.remove(this);
    this.#group?.remove(this);
    this.#watcher = undefined;
    this.#watchers = undefined;
    this.#listeners = undefined;
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
    this.watch?.remove(this);
    const watcher = this.#watcher;
    const watchers = this.#watchers;
    const listeners = this.#listeners;
    this.#watcher = undefined;
    this.#watchers = undefined;
    this.#listeners = undefined;
    watcher?.abortedNow();
    if (watchers !== undefined) for (const w of watchers) w.abortedNow();
    if (listeners !== undefined) for (const l of listeners) l();
  }
}
