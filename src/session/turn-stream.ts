/**
 * The TurnStream a `send()` returns: an async iterable over the turn's events (each iterator
 * replays from the first event, so late or repeated iteration sees everything) plus a `result`
 * promise. A turn that fails (model error) ends the iteration normally after its `model-error`
 * event and rejects `result`; the rejection is pre-handled so a host that only iterates never
 * sees an unhandled-rejection crash.
 */
import type { SessionEvent, TurnEvent, TurnResult, TurnStream } from './types.js';

/** The producer side of a turn stream. */
export interface TurnChannel {
  readonly stream: TurnStream;
  readonly events: SessionEvent[];
  emit(event: TurnEvent): void;
  resolve(result: TurnResult): void;
  reject(error: unknown): void;
}

/** Where a host callback threw (see `SessionOptions.hostError`). */
export interface HostErrorContext {
  readonly callback: 'onEvent';
  /** The event the callback was given. */
  readonly event: SessionEvent['type'];
}

/**
 * Creates a channel; `onEvent` (if any) sees each event synchronously as it is emitted. A throwing
 * `onEvent` is reported to `hostError` and otherwise ignored: the engine's record of the turn
 * (events, history, result) never depends on what a host callback does. `stamp` gives speaking
 * events their speech id (docs/voice.md); without it they must carry one.
 */
export function createTurnChannel(
  onEvent?: (event: SessionEvent) => void,
  stamp?: (event: TurnEvent) => SessionEvent,
  hostError: (error: unknown, context: HostErrorContext) => void = warnHostError,
): TurnChannel {
  const events: SessionEvent[] = [];
  let closed = false;
  let wake: (() => void) | undefined;
  let settle!: { resolve: (r: TurnResult) => void; reject: (e: unknown) => void };
  const result = new Promise<TurnResult>((resolve, reject) => {
    settle = { resolve, reject };
  });
  result.catch(() => undefined);
  const notify = (): void => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  const stream: TurnStream = {
    result,
    async *[Symbol.asyncIterator]() {
      let i = 0;
      for (;;) {
        while (i < events.length) {
          const event = events[i++];
          if (event !== undefined) yield event;
        }
        if (closed) return;
        await new Promise<void>((resolve) => {
          const previous = wake;
          wake = () => {
            previous?.();
            resolve();
          };
        });
      }
    },
  };
  return {
    stream,
    events,
    emit(turnEvent) {
      if (closed) return;
      const event = stamp === undefined ? (turnEvent as SessionEvent) : stamp(turnEvent);
      events.push(event);
      if (onEvent !== undefined) callHost(onEvent, event, hostError);
      notify();
    },
    resolve(r) {
      closed = true;
      settle.resolve(r);
      notify();
    },
    reject(e) {
      closed = true;
      settle.reject(e);
      notify();
    },
  };
}

function callHost(
  onEvent: (event: SessionEvent) => void,
  event: SessionEvent,
  hostError: (error: unknown, context: HostErrorContext) => void,
): void {
  try {
    onEvent(event);
  } catch (error) {
    try {
      hostError(error, { callback: 'onEvent', event: event.type });
    } catch {
      // The host's own error reporter failed too; nothing the engine records depends on it.
    }
  }
}

/** Default `hostError`: a process warning, so a broken callback is visible but never fatal. */
export function warnHostError(error: unknown, context: HostErrorContext): void {
  const message = error instanceof Error ? error.message : String(error);
  process.emitWarning(`${context.callback} threw on a ${context.event} event: ${message}`, {
    code: 'SWITCHBOARD_HOST_CALLBACK',
  });
}
