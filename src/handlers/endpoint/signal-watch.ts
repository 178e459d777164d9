/**
 * Watches caller signals for deadlines and listeners: one EventTarget listener per signal with an
 * intrusive list of everyone waiting on it, plus the shared never-aborted signal.
 */
import { setMaxListeners } from 'node:events';

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

/**
 * A member of a {@link SignalWatch}: an intrusive list node, so joining and leaving a signal's
 * list allocates nothing (a `Set` per signal reallocated its table every few calls as members
 * came and went, and a closure per member was garbage of every call).
 */
export interface WatchNode {
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
export class SignalWatch {
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
export function watchSignal(signal: AbortSignal, node: WatchNode): void {
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
