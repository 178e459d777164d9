/**
 * The TurnStream a `send()` returns: an async iterable over the turn's events (each iterator
 * replays from the first event, so late or repeated iteration sees everything) plus a `result`
 * promise. A turn that fails (model error) ends the iteration normally after its `model-error`
 * event and rejects `result`; the rejection is pre-handled so a host that only iterates never
 * sees an unhandled-rejection crash.
 */
import type { HostErrorContext, SessionEvent, TurnEvent, TurnResult, TurnStream } from './types.js';

/** The producer side of a turn stream. */
export interface TurnChannel {
  readonly stream: TurnStream;
  readonly events: SessionEvent[];
  emit(event: TurnEvent): void;
  resolve(result: TurnResult): void;
  reject(error: unknown): void;
}

/** Gives speaking events their speech id (the session's speech ledger, docs/voice.md). */
export interface EventStamper {
  stamp(event: TurnEvent): SessionEvent;
}

/**
 * Creates a channel; `onEvent` (if any) sees each event synchronously as it is emitted. A throwing
 * `onEvent` is reported to `hostError` and otherwise ignored: the engine's record of the turn
 * (events, history, result) never depends on what a host callback does. `stamper` gives speaking
 * events their speech id; without it they must carry one. An object, not a function: the ledger
 * itself, called as its method, with no wrapper function between the two.
 */
export function createTurnChannel(
  onEvent?: (event: SessionEvent) => void,
  stamper?: EventStamper,
  hostError: (error: unknown, context: HostErrorContext) => void = warnHostError,
): TurnChannel {
  return new Channel(onEvent, stamper, hostError);
}

/**
 * One per turn, so its parts live on prototypes: only `emit` (handed down the turn loop as a
 * function) and the result promise's settle functions are made per turn.
 */
class Channel implements TurnChannel {
  readonly events: SessionEvent[] = [];
  readonly stream: TurnStream;
  readonly emit: (event: TurnEvent) => void;
  closed = false;
  wake: (() => void) | undefined;
  readonly #resolve: (r: TurnResult) => void;
  readonly #reject: (e: unknown) => void;

  constructor(
    onEvent: ((event: SessionEvent) => void) | undefined,
    stamper: EventStamper | undefined,
    hostError: (error: unknown, context: HostErrorContext) => void,
  ) {
    let resolve!: (r: TurnResult) => void;
    let reject!: (e: unknown) => void;
    const result = new Promise<TurnResult>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    this.#resolve = resolve;
    this.#reject = reject;
    this.stream = new ChannelStream(this, result);
    this.emit = (turnEvent) => {
      if (this.closed) return;
      const event = stamper === undefined ? (turnEvent as SessionEvent) : stamper.stamp(turnEvent);
      this.events.push(event);
      if (onEvent !== undefined) callHost(onEvent, event, hostError);
      if (this.wake !== undefined) this.notify();
    };
  }

  notify(): void {
    const w = this.wake;
    this.wake = undefined;
    w?.();
  }

  resolve(r: TurnResult): void {
    this.closed = true;
    this.#resolve(r);
    this.notify();
  }

  reject(e: unknown): void {
    this.closed = true;
    // Handled before it rejects, so a host that only iterates never sees an unhandled rejection.
    // Only then: a handler on every turn's result cost a promise and a reaction per turn.
    void this.stream.result.catch(ignore);
    this.#reject(e);
    this.notify();
  }
}

function ignore(): undefined {
  return undefined;
}

/** The stream of a channel: each iterator replays from the first event. */
class ChannelStream implements TurnStream {
  readonly #channel: Channel;
  readonly result: Promise<TurnResult>;

  constructor(channel: Channel, result: Promise<TurnResult>) {
    this.#channel = channel;
    this.result = result;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<SessionEvent, void, undefined> {
    const channel = this.#channel;
    const events = channel.events;
    let i = 0;
    for (;;) {
      while (i < events.length) {
        const event = events[i++];
        if (event !== undefined) yield event;
      }
      if (channel.closed) return;
      await new Promise<void>((resolve) => {
        const previous = channel.wake;
        channel.wake = () => {
          previous?.();
          resolve();
        };
      });
    }
  }
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
