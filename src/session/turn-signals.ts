/**
 * Turn signals: one `AbortController` per turn, taken from a pool shared by every session of the
 * process and given back when nothing can tell the difference.
 *
 * Why: in Node 20 every new `AbortSignal` gets a hidden class of its own (Node makes an
 * `EventTarget`, changes its prototype, then adds fields, and V8 caches no transition for that).
 * One costs about 2 µs hot and several times that in a paced session. And every read of a
 * signal's property where many signals pass is megamorphic: with a spare controller per session,
 * 1,000 sessions' turns brought 1,000 maps to the turn loop's `signal.aborted`, more than V8's stub
 * cache holds, so each read missed into the runtime (both measured with `bench/turn-http.bench.mjs`;
 * git history has the runs). A shared pool keeps the signals in use about as many as the turns running at
 * once, and a new session's first turn needs no controller of its own.
 *
 * When a controller goes back to the pool (all must hold when its turn ends):
 * - the turn was not interrupted (the signal has not aborted);
 * - nothing listens to it any more, but the engine's own idle watch (the one listener behind
 *   which cancellable calls wait, `handlers/endpoint/deadline.ts`): a model adapter that left a
 *   listener keeps it out of the pool, so nothing is told of a later turn's interruption (the
 *   OpenAI adapter leaves none: it removes its listener when its stream ends, and its SDK is
 *   given a controller of the adapter's own).
 *
 * Handlers never hand the turn's signal to host code: an action's function gets a controller of
 * its own per call, and the endpoint handler waits through the watch. So a turn whose lookups
 * (`side_effects: none`, cancellable) ran gives its controller back like any other.
 *
 * A model sees the signal only while its stream runs (`ModelRequest.signal`); a later turn, of
 * this session or another, may get the same signal.
 */
import { getEventListeners } from 'node:events';
import { onlyIdleWatch } from '../handlers/endpoint/deadline.js';

/**
 * Most controllers the pool keeps. Past it a released controller is dropped: the pool only needs
 * as many as turns run at once, and a larger one would bring back the maps it exists to avoid.
 */
export const MAX_SPARE_CONTROLLERS = 256;

/**
 * A turn's controller. It knows whether it has aborted without asking its signal: the turn loop
 * checks between stream parts and rounds, and in Node 20 every `signal.aborted` read is two calls
 * into Node's internals (the getter and its receiver check), about nine a turn. Only `abort()` can
 * abort a controller's signal, so `stopped` is exactly `signal.aborted`.
 */
export class TurnController extends AbortController {
  /** The turn was interrupted, timed out or its session closed (`signal.aborted`, as a field). */
  stopped = false;

  /** The signal, read once: Node's `signal` getter is two calls per read too. */
  override readonly signal: AbortSignal = super.signal;

  override abort(reason?: unknown): void {
    this.stopped = true;
    super.abort(reason);
  }
}

/** Released controllers, last in first out: the one used most recently is taken next. */
const spares: TurnController[] = [];

/** A controller for a new turn: one a finished turn gave back, else a new one. */
export function takeTurnController(): TurnController {
  return spares.pop() ?? new TurnController();
}

/** A turn has ended normally: its controller goes back to the pool if nothing can tell. */
export function releaseTurnController(controller: TurnController): void {
  if (spares.length >= MAX_SPARE_CONTROLLERS) return;
  if (controller.stopped) return;
  const signal = controller.signal;
  const listeners = getEventListeners(signal, 'abort');
  if (listeners.length > 0 && !onlyIdleWatch(signal, listeners)) return;
  spares.push(controller);
}
