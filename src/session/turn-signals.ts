/**
 * A session's turn signals: one `AbortController` per turn, reused for the session's next turn
 * when nothing can tell the difference.
 *
 * Why: in Node 20 every new `AbortSignal` gets a hidden class of its own (Node makes an
 * `EventTarget`, changes its prototype, then adds fields, and V8 caches no transition for that).
 * One costs about 2 µs hot and several times that in a paced session, and it was the largest
 * single item of a turn's own cost (docs/benchmarks.md, tenth round).
 *
 * When a controller is reused (all must hold when its turn ends):
 * - the turn was not interrupted (the signal has not aborted);
 * - no handler was given the signal ({@link lendSignal}): a handler may keep it past its call,
 *   and a later turn's interruption must not reach what it started;
 * - nothing listens to it any more: a model adapter that left a listener keeps it from reuse, so
 *   nothing is told of a later turn's interruption (the OpenAI adapter leaves none: it removes its
 *   listener when its stream ends, and its SDK is given a controller of the adapter's own).
 *
 * A model sees the signal only while its stream runs (`ModelRequest.signal`).
 */
import { getEventListeners } from 'node:events';

/** Signals given to code outside the engine that may keep them (handlers); never reused. */
const lent = new WeakSet<AbortSignal>();

/** Marks `signal` as given to a handler: its controller is not reused for a later turn. */
export function lendSignal(signal: AbortSignal): void {
  lent.add(signal);
}

/** The spare controller of one session (at most one: turns of a session run one at a time). */
export class TurnSignals {
  #spare: AbortController | undefined;

  /** A controller for a new turn: the last turn's when it was kept, else a new one. */
  take(): AbortController {
    const spare = this.#spare;
    if (spare === undefined) return new AbortController();
    this.#spare = undefined;
    return spare;
  }

  /** A turn has ended normally: keeps its controller for the next turn if nothing can tell. */
  release(controller: AbortController): void {
    const signal = controller.signal;
    if (signal.aborted || lent.has(signal) || getEventListeners(signal, 'abort').length > 0) return;
    this.#spare = controller;
  }
}
