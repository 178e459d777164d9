/**
 * Reading a flood in slices: a socket hands over every frame it holds in one go, so a storm of
 * server events would block the event loop for as long as it lasts. After
 * {@link MAX_EVENTS_PER_SLICE} events in one turn of the loop, reading pauses until it has turned.
 */
import type { RealtimeConnection } from './types.js';

/**
 * Server events handled before the socket's reading pauses until the event loop has turned: 256
 * (tens of microseconds each, so a flood blocks the loop for milliseconds, not seconds).
 */
export const MAX_EVENTS_PER_SLICE = 256;

export class ReadSlices {
  readonly #socket: RealtimeConnection['socket'];
  readonly #live: () => boolean;
  /** Events handled since the event loop last turned. */
  #events = 0;

  /** `live` false: the connection was let go, reading is not resumed. */
  constructor(socket: RealtimeConnection['socket'], live: () => boolean) {
    this.#socket = socket;
    this.#live = live;
  }

  /** One event was handled. */
  counted(): void {
    if (++this.#events === 1) setImmediate(this.#turned);
    else if (this.#events === MAX_EVENTS_PER_SLICE) this.#pause();
  }

  readonly #turned = (): void => {
    this.#events = 0;
  };

  #pause(): void {
    const socket = this.#socket;
    if (socket?.pause === undefined || socket.resume === undefined) return;
    socket.pause();
    setImmediate(() => {
      if (this.#live()) socket.resume?.();
    });
  }
}
