/**
 * `--speech-ack host` in the REPL: the person is the host's audio player. This turn's utterances
 * are tracked by speech id; `/spoken` acknowledges them, and a speak-then-act call waiting for
 * playback (the session's `speech-wait` event) makes the REPL read `playback>` lines until the
 * utterances it waits for are played.
 */
import type { Session, SessionEvent } from '../../session/types.js';
import type { SpeechWaitEvent } from '../../harness/narrator.js';
import { TurnUtterances } from '../../harness/turn-utterances.js';
import type { LineSource } from './line-source.js';

/** What {@link SpeechAcks} needs from the REPL. */
export interface SpeechAcksOptions {
  /** `host`: the person acknowledges playback. */
  readonly host: boolean;
  readonly lines: Pick<LineSource, 'next'>;
  readonly print: (line: string) => void;
}

/** This turn's utterances and their acknowledgements. */
export class SpeechAcks {
  readonly #o: SpeechAcksOptions;
  /** This turn's utterances; what is acknowledged while it runs goes to `/save` (`spoken:`). */
  readonly #utterances = new TurnUtterances();

  constructor(options: SpeechAcksOptions) {
    this.#o = options;
  }

  startTurn(): void {
    this.#utterances.startTurn();
  }

  /** The acknowledgements made during the turn that just ended. */
  endTurn(): string[] {
    return this.#utterances.endTurn();
  }

  /** Follows one of the turn's events; waits for playback when a call needs it. */
  async event(event: SessionEvent, session: Session): Promise<void> {
    this.#utterances.heard(event);
    if (event.type === 'speech-wait' && this.#o.host) await this.#awaitPlayback(event, session);
  }

  /**
   * What to type while `event`'s call waits, for the narrator's `wait` line (the one line the
   * person reads about it): undefined when nothing it waits for is unplayed (no prompt follows).
   */
  waitHint(event: SpeechWaitEvent): string | undefined {
    if (!this.#o.host) return undefined;
    const unplayed = this.#utterances.unplayed(event.speechIds);
    if (unplayed.length === 0) return undefined;
    const each = unplayed.length === 1 ? `/spoken ${unplayed[0]}` : '/spoken <id> for each';
    return `type ${each} (or /spoken all) when played, or Enter to let it wait`;
  }

  /** Said again when the person types something else while a call waits. */
  #reminder(event: SpeechWaitEvent): string {
    return `(${event.tool} still waits: ${this.waitHint(event) ?? ''})`;
  }

  /**
   * `/spoken [id|all]`: the person reports playback, as a voice host would. An acknowledgement
   * made while a turn runs is saved by `/save` as a `spoken` point of that turn.
   */
  spoken(id: string, session: Session): void {
    const print = this.#o.print;
    if (!this.#o.host) {
      print(
        '(speech counts as played when emitted: start with --speech-ack host to acknowledge it yourself)',
      );
      return;
    }
    const all = id === '' || id === 'all';
    const acked = this.#utterances.covered(all ? undefined : id);
    if (all) print(`  ${session.spokenAll()} utterance(s) marked spoken`);
    else if (session.spoken(id)) print(`  ${id} marked spoken`);
    else {
      print(`  ${id}: no utterance waits for playback under this id`);
      return;
    }
    this.#utterances.acknowledge(acked);
  }

  /**
   * `event`'s call waits until its `speechIds` are played: read `/spoken` lines until they are, or
   * Enter. The turn cannot call the model meanwhile (its round is not over), so no other reader
   * competes for input.
   */
  async #awaitPlayback(event: SpeechWaitEvent, session: Session): Promise<void> {
    const unplayed = (): string[] => this.#utterances.unplayed(event.speechIds);
    // The narrator's `wait` line has said what waits and what to type (waitHint).
    while (unplayed().length > 0) {
      const line = await this.#o.lines.next('playback> ');
      if (line === undefined || line.trim() === '') return;
      const [command = '', ...rest] = line.trim().split(/\s+/);
      if (command === '/spoken') this.spoken(rest.join(' '), session);
      else this.#o.print(this.#reminder(event));
    }
  }
}
