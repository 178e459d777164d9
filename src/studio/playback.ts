/**
 * Playback on the timeline under `--speech-ack host`: which utterances of a turn still wait for
 * the page's "Mark spoken", and which speak-then-act calls are held by them. Which utterances a
 * call waits for is the session's decision, read from its `speech-wait` event (never re-derived
 * here). Without host acknowledgement speech counts as played when emitted, so nothing is marked.
 */

/** Tracks one turn's events; see {@link buildTimelineTurn}. */
export class PlaybackMarks {
  readonly #host: boolean;
  readonly #unplayed = new Set<string>();
  /** Calls that started waiting for speech and have no result yet: the utterances each waits for. */
  readonly #waiting = new Map<string, readonly string[]>();

  constructor(host: boolean) {
    this.#host = host;
  }

  uttered(speechId: string): 'waiting' | undefined {
    if (!this.#host) return undefined;
    this.#unplayed.add(speechId);
    return 'waiting';
  }

  played(speechId: string): 'played' | undefined {
    if (!this.#host) return undefined;
    this.#unplayed.delete(speechId);
    return 'played';
  }

  /** The session's `speech-wait`: the call is dispatched once these utterances are played. */
  waits(callId: string, speechIds: readonly string[]): void {
    this.#waiting.set(callId, speechIds);
  }

  finished(callId: string): void {
    this.#waiting.delete(callId);
  }

  /** The call waited, has no result yet, and an utterance it waits for is not played yet. */
  holds(callId: string): boolean {
    const ids = this.#waiting.get(callId);
    return ids !== undefined && ids.some((id) => this.#unplayed.has(id));
  }
}
