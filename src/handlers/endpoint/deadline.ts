/**
 * One deadline per call, combined with the caller's cancellation signal: whichever comes first
 * aborts the call, so connect, headers, body reads and retry waits all end on time. A small
 * listener list instead of an AbortController: creating an AbortSignal and adding/removing
 * EventTarget listeners on every call is a measurable share of a loopback request's cost.
 */
import { setMaxListeners } from 'node:events';

/** Something that can be aborted once and told about it. */
export interface Abortable {
  readonly aborted: boolean;
  /** Calls `listener` once on abort (at once if already aborted); returns an unsubscribe. */
  onAbort(listener: () => void): () => void;
}

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

/**
 * A signal that never aborts, shared: the signal of every call interruption may not cancel
 * (execute-tool-call.ts). A deadline does not watch it, as nothing would ever come. Any other user
 * removes its listener when its call ends; no cap on how many listen at once.
 */
export const NEVER_ABORTED: AbortSignal = new AbortController().signal;
setMaxListeners(0, NEVER_ABORTED);

/**
 * Whether `signal` has aborted, without asking {@link NEVER_ABORTED}: in Node 20 a read of
 * `signal.aborted` is two calls into Node's internals, and most calls (those interruption may not
 * cancel) carry the never-aborted signal.
 */
export function isAborted(signal: AbortSignal): boolean {
  return signal !== NEVER_ABORTED && signal.aborted;
}

/** Does nothing: the unsubscribe of a listener never added. */
export const NOOP = (): void => undefined;

/**
 * A member of a {@link SignalWatch}: an intrusive list node, so joining and leaving a signal's
 * list allocates nothing (a `Set` per signal reallocated its table every few calls as members
 * came and went, and a closure per member was garbage of every call).
 */
interface WatchNode {
  watchPrev: WatchNode | undefined;
  watchNext: WatchNode | undefined;
  watch: SignalWatch | undefined;
  /** The watched signal aborted (the node has already left the list). */
  signalAborted(): void;
}

/**
 * Everything waiting on one caller signal, behind one EventTarget listener: a turn's signal is
 * shared by all its parallel calls, and per-call add/remove on an EventTarget is slow (and trips
 * Node's max-listeners warning past 10 calls).
 */
class SignalWatch {
  #head: WatchNode | undefined;
  #tail: WatchNode | undefined;
  /** Its one listener on the signal (stays until the signal aborts, also while no one waits). */
  readonly listener: () => void;

  constructor(signal: AbortSignal) {
    this.listener = () => {
      watches.delete(signal);
      // One by one, each leaving before it is told: a member removed by an earlier one's
      // reaction is not told at all (as when iterating a Set that loses an element).
      for (let node = this.#head; node !== undefined; node = this.#head) {
        this.remove(node);
        node.signalAborted();
      }
    };
    signal.addEventListener('abort', this.listener, { once: true });
  }

  /** No one waits on the signal through this watch. */
  get idle(): boolean {
    return this.#head === undefined;
  }

  /** Appends `node`: members are told in the order they joined. */
  add(node: WatchNode): void {
    node.watch = this;
    node.watchNext = undefined;
    node.watchPrev = this.#tail;
    if (this.#tail === undefined) this.#head = node;
    else this.#tail.watchNext = node;
    this.#tail = node;
  }

  remove(node: WatchNode): void {
    if (node.watch !== this) return;
    const { watchPrev: prev, watchNext: next } = node;
    if (prev === undefined) this.#head = next;
    else prev.watchNext = next;
    if (next === undefined) this.#tail = prev;
    else next.watchPrev = prev;
    node.watch = undefined;
    node.watchPrev = undefined;
    node.watchNext = undefined;
  }
}

const watches = new WeakMap<AbortSignal, SignalWatch>();

/**
 * Whether `listeners` (the signal's `abort` listeners) are only this module's watch with no one
 * waiting: nothing outside the engine listens, and a later abort would tell no one.
 */
export function onlyIdleWatch(signal: AbortSignal, listeners: readonly unknown[]): boolean {
  const watch = watches.get(signal);
  return (
    watch !== undefined && watch.idle && listeners.length === 1 && listeners[0] === watch.listener
  );
}

/** Adds `node` to the watch list of `signal` (which must not have aborted yet). */
function watchSignal(signal: AbortSignal, node: WatchNode): void {
  let watch = watches.get(signal);
  if (watch === undefined) {
    watch = new SignalWatch(signal);
    watches.set(signal, watch);
  }
  watch.add(node);
}

/** A listener of {@link onSignalAbort} as a list node. */
class SignalListener implements WatchNode {
  watchPrev: WatchNode | undefined = undefined;
  watchNext: WatchNode | undefined = undefined;
  watch: SignalWatch | undefined = undefined;
  readonly #listener: () => void;

  constructor(listener: () => void) {
    this.#listener = listener;
  }

  signalAborted(): void {
    this.#listener();
  }

  /** The unsubscribe: a method, so it is made once per listener, not per call site. */
  readonly off = (): void => {
    this.watch?.remove(this);
  };
}

/**
 * Calls `listener` when `signal` aborts; returns an unsubscribe. Any number of listeners share
 * one EventTarget listener per signal, so no max-listeners warning at any count.
 */
export function onSignalAbort(signal: AbortSignal, listener: () => void): () => void {
  const node = new SignalListener(listener);
  watchSignal(signal, node);
  return node.off;
}

/** A member of a {@link DeadlineGroup}: its links in the group's list. */
export interface GroupMember {
  groupPrev: GroupMember | undefined;
  groupNext: GroupMember | undefined;
  cancel(): void;
}

/**
 * The calls in flight of one owner (an endpoint handler), so closing it can end them all. An
 * intrusive list, as {@link SignalWatch} is: a call joins and leaves it without allocating.
 */
export class DeadlineGroup {
  #head: GroupMember | undefined;

  add(deadline: GroupMember): void {
    deadline.groupNext = this.#head;
    if (this.#head !== undefined) this.#head.groupPrev = deadline;
    this.#head = deadline;
  }

  remove(deadline: GroupMember): void {
    const { groupPrev: prev, groupNext: next } = deadline;
    if (prev === undefined) {
      if (this.#head !== deadline) return;
      this.#head = next;
    } else prev.groupNext = next;
    if (next !== undefined) next.groupPrev = prev;
    deadline.groupPrev = undefined;
    deadline.groupNext = undefined;
  }

  /** Ends every call in flight as cancelled (the owner is closing). */
  cancelAll(): void {
    for (let d = this.#head; d !== undefined; d = this.#head) {
      this.remove(d);
      d.cancel();
    }
  }
}

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
 * The timers of every running deadline of one duration. Deadlines of the same duration expire in
 * the order they start, so they wait in a FIFO queue under one Node timer armed for the oldest
 * live one: starting a deadline is a push and ending it a flag, where a timer per call cost an
 * insertion into, and a removal from, Node's timer lists (a measurable share of a loopback call).
 * Ended deadlines leave the queue lazily; the queue is compacted when they outnumber live ones.
 */
class DurationQueue {
  readonly #ms: number;
  // A ring buffer (capacity a power of two): a queue that empties between calls, as at
  // concurrency 1, keeps its storage instead of freeing and growing it again on every call.
  #ring: Array<CallDeadline | undefined> = new Array<CallDeadline | undefined>(16);
  #head = 0;
  #size = 0;
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
    if (this.#size === this.#ring.length) this.#resize(this.#ring.length * 2, false);
    this.#ring[(this.#head + this.#size) & (this.#ring.length - 1)] = deadline;
    this.#size++;
    this.#live++;
    if (this.#timer === undefined || this.#armedWith !== setTimeout) {
      // For the oldest live deadline: the new one unless a timer of other functions held older ones.
      const head = this.#first() as CallDeadline;
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
    while (this.#size > 0 && !(this.#first() as CallDeadline).queued) this.#shift();
    // A long call at the head holds ended ones behind it: keep only the live ones.
    if (this.#size > 2 * this.#live + 64) this.#resize(this.#ring.length, true);
  }

  /** The oldest deadline in the ring (ended or not), if any. */
  #first(): CallDeadline | undefined {
    return this.#size === 0 ? undefined : this.#ring[this.#head];
  }

  #shift(): void {
    this.#ring[this.#head] = undefined;
    this.#head = (this.#head + 1) & (this.#ring.length - 1);
    this.#size--;
  }

  /** Copies the ring, in order, into one of `capacity` slots; `liveOnly` leaves ended ones out. */
  #resize(capacity: number, liveOnly: boolean): void {
    const old = this.#ring;
    const ring = new Array<CallDeadline | undefined>(capacity);
    let n = 0;
    for (let i = 0; i < this.#size; i++) {
      const d = old[(this.#head + i) & (old.length - 1)] as CallDeadline;
      if (!liveOnly || d.queued) ring[n++] = d;
    }
    this.#ring = ring;
    this.#head = 0;
    this.#size = n;
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
    for (let deadline = this.#first(); deadline !== undefined; deadline = this.#first()) {
      if (deadline.queued && deadline.due > now) break;
      this.#shift();
      if (deadline.queued) deadline.expire();
    }
    // Ended ones a listener above left at the head go too.
    while (this.#size > 0 && !(this.#first() as CallDeadline).queued) this.#shift();
    const next = this.#first();
    if (this.#live > 0 && next !== undefined) {
      // (Re)armed for the oldest live deadline, even if a listener above started a new one.
      this.#arm(next.due, Math.max(1, Math.ceil(next.due - now)));
      return;
    }
    this.#ring = new Array<CallDeadline | undefined>(16);
    this.#head = 0;
    this.#size = 0;
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
