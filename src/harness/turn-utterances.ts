/**
 * One turn's speech as a person playing it sees it (`--speech-ack host` in the REPL and the
 * studio, where the person is the host's audio player): each utterance's text by speech id, which
 * ones the person acknowledged, and the texts acknowledged while the turn ran, which a fixture
 * saved from the conversation keeps as that turn's `spoken` points (docs/voice.md).
 */
import type { SessionEvent } from '../session/types.js';

export class TurnUtterances {
  /** Speech id → text so far. */
  readonly #texts = new Map<string, string>();
  readonly #acked = new Set<string>();
  #spokenThisTurn: string[] = [];
  #inTurn = false;

  startTurn(): void {
    this.#texts.clear();
    this.#acked.clear();
    this.#spokenThisTurn = [];
    this.#inTurn = true;
  }

  /** The texts acknowledged while the turn that just ended ran. */
  endTurn(): string[] {
    this.#inTurn = false;
    return this.#spokenThisTurn;
  }

  /** Follows the turn's speech: a `say` or a `text-delta` adds to its utterance's text. */
  heard(event: SessionEvent): void {
    if (event.type === 'say' || event.type === 'text-delta')
      this.#texts.set(event.speechId, (this.#texts.get(event.speechId) ?? '') + event.text);
  }

  /** Of `ids` (default: this turn's utterances), the ones not acknowledged yet. */
  unplayed(ids: Iterable<string> = this.#texts.keys()): string[] {
    return [...ids].filter((id) => !this.#acked.has(id));
  }

  /** This turn's unacknowledged utterances an acknowledgement of `id` (or of all) covers. */
  covered(id: string | undefined): string[] {
    if (id === undefined) return this.unplayed();
    return this.#texts.has(id) && !this.#acked.has(id) ? [id] : [];
  }

  /** Records the person's acknowledgement of `ids` (made while the turn runs: a `spoken` point). */
  acknowledge(ids: readonly string[]): void {
    for (const id of ids) {
      this.#acked.add(id);
      const text = this.#texts.get(id)?.trim() ?? '';
      if (this.#inTurn && text !== '') this.#spokenThisTurn.push(text);
    }
  }
}
