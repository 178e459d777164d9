/**
 * Speech acknowledgement (docs/voice.md): every utterance the session emits gets a speech id; the
 * host reports playback with `session.spoken(id)`. With `speechAck: 'auto'` an utterance counts as
 * spoken the moment it is emitted, so chat hosts never wait. The ledger also stamps the ids onto
 * events (consecutive `text-delta`s share one utterance) and lets speak-then-act calls wait for the
 * utterances emitted before them in the turn. Waits use the global timers (fake timers in tests).
 */
import type { SessionEvent, TurnEvent } from '../types.js';

/** How a wait for speech ended. */
export type SpeechWaitOutcome = 'spoken' | 'timeout' | 'interrupted';

/** The ledger of one session. */
export class SpeechLedger {
  readonly #auto: boolean;
  // Made on first use: with `auto` (most sessions) nothing is ever pending or waited for, and an
  // idle session should not carry two empty hash tables.
  #pending: Set<string> | undefined;
  #waiters: Set<() => void> | undefined;
  #count = 0;
  #turnIds: string[] = [];
  #openText: string | undefined;

  /** `mode` is the session's `speechAck` (default `auto`). */
  constructor(mode: 'host' | 'auto' = 'auto') {
    this.#auto = mode === 'auto';
  }

  /** A new turn: earlier utterances no longer hold back this turn's calls. */
  beginTurn(): void {
    if (this.#turnIds.length > 0) this.#turnIds = [];
    this.#openText = undefined;
  }

  /** Opens an utterance and returns its id (`sp_1`, `sp_2`, … per session). */
  open(): string {
    const id = `sp_${++this.#count}`;
    // With `auto` nothing is ever pending, so the turn's ids are not kept (none would be waited on).
    if (!this.#auto) {
      this.#turnIds.push(id);
      (this.#pending ??= new Set()).add(id);
    }
    return id;
  }

  /**
   * The event with its speech id: a `say` opens its own utterance; a `text-delta` continues the
   * open text utterance if the previous event was a `text-delta`, else opens one. Any other event
   * closes the open text utterance.
   */
  stamp(event: TurnEvent): SessionEvent {
    switch (event.type) {
      case 'text-delta': {
        if (event.speechId !== undefined) return event as SessionEvent;
        // Written out, not spread: one per streamed chunk.
        return { type: 'text-delta', text: event.text, speechId: (this.#openText ??= this.open()) };
      }
      case 'say':
        this.#openText = undefined;
        return event.speechId !== undefined
          ? (event as SessionEvent)
          : Object.assign({}, event, { speechId: this.open() });
      case 'spoken':
        // An acknowledgement arriving mid-utterance does not split it.
        return event;
      default:
        this.#openText = undefined;
        return event;
    }
  }

  /** Playback finished; false for an unknown or already acknowledged id. */
  spoken(id: string): boolean {
    if (this.#pending?.delete(id) !== true) return false;
    this.#wake();
    return true;
  }

  /** Acknowledges everything pending; returns the ids that were, in the order they were opened. */
  spokenAll(): string[] {
    const pending = this.#pending;
    if (pending === undefined || pending.size === 0) return [];
    const ids = [...pending];
    pending.clear();
    this.#wake();
    return ids;
  }

  /**
   * A barge-in: whatever is still pending was cut off, so it is dropped, not acknowledged (no
   * `spoken` event, and a later `spoken(id)` for it is false). Waiters are not woken: the
   * interrupted turn's waits end by its signal, and a wait for cut-off speech is not `spoken`.
   */
  cutOff(): void {
    this.#pending?.clear();
  }

  /** True while the utterance is emitted and not yet acknowledged. */
  isPending(id: string): boolean {
    return this.#pending?.has(id) === true;
  }

  /** The ids opened so far in this turn that are not acknowledged yet. */
  pendingInTurn(): string[] {
    return this.#turnIds.filter((id) => this.isPending(id));
  }

  /**
   * Waits until none of `ids` is pending, at most `maxWaitMs`, or until `signal` aborts.
   * Resolves at once (`spoken`) when nothing is pending.
   */
  waitFor(
    ids: readonly string[],
    maxWaitMs: number,
    signal: AbortSignal,
  ): Promise<SpeechWaitOutcome> {
    const done = (): boolean => ids.every((id) => !this.isPending(id));
    if (done()) return Promise.resolve('spoken');
    if (signal.aborted) return Promise.resolve('interrupted');
    return new Promise((resolve) => {
      const finish = (outcome: SpeechWaitOutcome): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.#waiters?.delete(check);
        resolve(outcome);
      };
      const check = (): void => {
        if (done()) finish('spoken');
      };
      const onAbort = (): void => finish('interrupted');
      const timer = setTimeout(() => finish('timeout'), maxWaitMs);
      signal.addEventListener('abort', onAbort, { once: true });
      (this.#waiters ??= new Set()).add(check);
    });
  }

  #wake(): void {
    if (this.#waiters !== undefined) for (const check of [...this.#waiters]) check();
  }
}
