/**
 * Playback on the timeline under `--speech-ack host`: which utterances of a turn still wait for
 * the page's "Mark spoken", and which speak-then-act calls are held by them. Without host
 * acknowledgement speech counts as played when emitted, so nothing is marked.
 */

/** Tracks one turn's events; see {@link buildTimelineTurn}. */
export class PlaybackMarks {
  readonly #host: boolean;
  readonly #afterSpeech: (tool: string) => boolean;
  readonly #unplayed = new Set<string>();
  /** Calls of `after_speech` tools without a result yet: the utterances each waits for. */
  readonly #held = new Map<string, { readonly tool: string; readonly ids: Set<string> }>();

  constructor(host: boolean, afterSpeech: (tool: string) => boolean) {
    this.#host = host;
    this.#afterSpeech = afterSpeech;
  }

  /** An utterance started; `preToolOf` names the tool whose pre-tool phrase it is. */
  uttered(speechId: string, preToolOf?: string): 'waiting' | undefined {
    if (!this.#host) return undefined;
    this.#unplayed.add(speechId);
    // A call waits for its own announcement too (said as it is dispatched, after its tool-call).
    for (const call of this.#held.values()) if (call.tool === preToolOf) call.ids.add(speechId);
    return 'waiting';
  }

  played(speechId: string): 'played' | undefined {
    if (!this.#host) return undefined;
    this.#unplayed.delete(speechId);
    return 'played';
  }

  /** The model called `tool`: it waits for what the turn said before, if it is speak-then-act. */
  called(callId: string, tool: string): void {
    if (this.#host && this.#afterSpeech(tool))
      this.#held.set(callId, { tool, ids: new Set(this.#unplayed) });
  }

  finished(callId: string): void {
    this.#held.delete(callId);
  }

  /** The call has no result and speech it waits for is not played yet. */
  holds(callId: string): boolean {
    const call = this.#held.get(callId);
    return call !== undefined && [...call.ids].some((id) => this.#unplayed.has(id));
  }
}
