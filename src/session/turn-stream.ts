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

/**
 * Creates a channel; `onEvent` (if any) sees each event synchronously as it is emitted. `stamp`
 * gives speaking events their speech id (docs/voice.md); without it they must carry one.
 */
export function createTurnChannel(
  onEvent?: (event: SessionEvent) => void,
  stamp?: (event: TurnEvent) => SessionEvent,
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
      onEvent?.(event);
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
