/**
 * `--speech-ack host` in the studio, as in the REPL (src/cli/repl/speech-acks.ts): the page is the
 * host's audio player. Speech counts as played only when the page says so ("mark spoken", POST
 * /api/spoken); a speak-then-act call waits for it, as it would for a voice host. What is
 * acknowledged while a turn runs is saved in the fixture as that turn's `spoken` points.
 */
import type { Session, SessionEvent } from '../session/types.js';
import { TurnUtterances } from '../harness/turn-utterances.js';
import { StudioProblem } from './studio-problem.js';

export class StudioSpeechAcks {
  readonly #host: boolean;
  readonly #utterances = new TurnUtterances();

  constructor(host: boolean) {
    this.#host = host;
  }

  startTurn(): void {
    this.#utterances.startTurn();
  }

  /** The texts acknowledged while the turn that just ended ran. */
  endTurn(): string[] {
    return this.#utterances.endTurn();
  }

  event(event: SessionEvent): void {
    this.#utterances.heard(event);
  }

  /** Marks one utterance (or, without an id, every one) as played; returns how many were. */
  spoken(session: Session, speechId: string | undefined): number {
    if (!this.#host)
      throw new StudioProblem(
        409,
        'speech_ack_auto',
        'speech counts as played when emitted: start the studio with --speech-ack host to acknowledge it yourself',
      );
    let count: number;
    let acked: string[];
    if (speechId === undefined || speechId === 'all') {
      // spokenAll emits a `spoken` event per utterance it acknowledges: the timeline shows each
      // played, this turn's and any an earlier turn left pending.
      acked = this.#utterances.covered(undefined);
      count = session.spokenAll();
    } else {
      if (!session.spoken(speechId))
        throw new StudioProblem(
          404,
          'unknown_speech',
          `${speechId}: no utterance waits for playback under this id`,
        );
      acked = this.#utterances.covered(speechId);
      count = 1;
    }
    this.#utterances.acknowledge(acked);
    return count;
  }
}
