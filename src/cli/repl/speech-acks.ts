/**
 * `--speech-ack host` in the REPL: the person is the host's audio player. This turn's utterances
 * are tracked by speech id; `/spoken` acknowledges them, and a speak-then-act call waiting for
 * playback makes the REPL read `playback>` lines until they are played.
 */
import type { ToolSet } from '../../definition/types.js';
import type { Session, SessionEvent } from '../../session/types.js';
import type { LineSource } from './line-source.js';

/** What {@link SpeechAcks} needs from the REPL. */
export interface SpeechAcksOptions {
  readonly tools: ToolSet;
  /** `host`: the person acknowledges playback. */
  readonly host: boolean;
  readonly lines: LineSource;
  readonly print: (line: string) => void;
}

/** This turn's utterances and their acknowledgements. */
export class SpeechAcks {
  readonly #o: SpeechAcksOptions;
  /** Speech id → text so far. */
  readonly #utterances = new Map<string, string>();
  readonly #acked = new Set<string>();
  /** Utterances acknowledged while the turn ran, for `/save` (`spoken:` points). */
  #spokenThisTurn: string[] = [];
  #gated = new GatedCalls(new Map());
  #inTurn = false;

  constructor(options: SpeechAcksOptions) {
    this.#o = options;
  }

  startTurn(): void {
    this.#utterances.clear();
    this.#acked.clear();
    this.#spokenThisTurn = [];
    this.#gated = new GatedCalls(
      new Map([...this.#o.tools.tools].map(([name, t]) => [name, t.options.speech.afterSpeech])),
    );
    this.#inTurn = true;
  }

  /** The acknowledgements made during the turn that just ended. */
  endTurn(): string[] {
    this.#inTurn = false;
    return this.#spokenThisTurn;
  }

  /** Follows one of the turn's events; waits for playback when a call needs it. */
  async event(event: SessionEvent, session: Session): Promise<void> {
    if (event.type === 'say' || event.type === 'text-delta')
      this.#utterances.set(
        event.speechId,
        (this.#utterances.get(event.speechId) ?? '') + event.text,
      );
    if (this.#o.host && this.#gated.track(event)) await this.#awaitPlayback(session);
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
    const acked = all
      ? this.#unplayed()
      : this.#utterances.has(id) && !this.#acked.has(id)
        ? [id]
        : [];
    if (all) print(`  ${session.spokenAll()} utterance(s) marked spoken`);
    else if (session.spoken(id)) print(`  ${id} marked spoken`);
    else {
      print(`  ${id}: no utterance waits for playback under this id`);
      return;
    }
    for (const u of acked) {
      this.#acked.add(u);
      const text = this.#utterances.get(u);
      if (this.#inTurn && text !== undefined && text.trim() !== '')
        this.#spokenThisTurn.push(text.trim());
    }
  }

  #unplayed(): string[] {
    return [...this.#utterances.keys()].filter((u) => !this.#acked.has(u));
  }

  /**
   * A call that waits for playback is pending and utterances of this turn are unacknowledged:
   * read `/spoken` lines until all are played or Enter. The turn cannot call the model meanwhile
   * (its round is not over), so no other reader competes for input.
   */
  async #awaitPlayback(session: Session): Promise<void> {
    if (this.#unplayed().length === 0) return;
    this.#o.print(
      `(${this.#gated.tools().join(', ')} waits until ${this.#unplayed().join(', ')} is played: /spoken <id>|all, or Enter to let it wait)`,
    );
    while (this.#unplayed().length > 0) {
      const line = await this.#o.lines.next('playback> ');
      if (line === undefined || line.trim() === '') return;
      const [command = '', ...rest] = line.trim().split(/\s+/);
      if (command === '/spoken') this.spoken(rest.join(' '), session);
      else this.#o.print('(a call waits for playback: /spoken <id>|all, or Enter to go on)');
    }
  }
}

/**
 * Calls of speak-then-act tools (`options.speech.after_speech`) dispatched and not yet finished
 * in this turn. `track` says whether, after this event, such a call may be waiting for playback.
 */
class GatedCalls {
  readonly #afterSpeech: ReadonlyMap<string, boolean>;
  readonly #pending = new Map<string, string>();

  constructor(afterSpeech: ReadonlyMap<string, boolean>) {
    this.#afterSpeech = afterSpeech;
  }

  track(event: SessionEvent): boolean {
    if (event.type === 'tool-call') {
      if (this.#afterSpeech.get(event.tool) === true) this.#pending.set(event.callId, event.tool);
    } else if (event.type === 'tool-result' || event.type === 'tool-error') {
      this.#pending.delete(event.callId);
    }
    return this.#pending.size > 0 && (event.type === 'tool-call' || event.type === 'say');
  }

  tools(): string[] {
    return [...new Set(this.#pending.values())];
  }
}
