/**
 * Responses switchboard does not take (no room, or the session ended), gathered until the event
 * loop turns: the server runs one response at a time, so one `response.cancel` for the latest is
 * enough, and a flood of responses costs one send and one report per turn of the loop instead of
 * one per event (100,000 cancels written at once blocked the loop in `writev` for half a second).
 */
export interface RefusedBatch {
  /** The latest refused response: the one to cancel. */
  readonly last: string;
  /** What to tell the host (undefined when every refusal was for a session that ended). */
  readonly report: string | undefined;
}

export class Refusals {
  readonly #flush: (batch: RefusedBatch) => void;
  #batch: { last: string; reported: number; reason: string | undefined } | undefined;

  /** `flush` receives each batch once the event loop has turned. */
  constructor(flush: (batch: RefusedBatch) => void) {
    this.#flush = flush;
  }

  /** Refuses `responseId`; `reason` undefined: nothing to report (the session ended). */
  add(responseId: string, reason: string | undefined): void {
    if (this.#batch === undefined) {
      this.#batch = { last: responseId, reported: 0, reason: undefined };
      setImmediate(this.#done);
    }
    this.#batch.last = responseId;
    if (reason !== undefined) {
      this.#batch.reported++;
      this.#batch.reason = reason;
    }
  }

  readonly #done = (): void => {
    const batch = this.#batch;
    this.#batch = undefined;
    if (batch === undefined) return;
    const { last, reported, reason } = batch;
    const which =
      reported === 1 ? `response ${last} was` : `${reported} responses (the last ${last}) were`;
    this.#flush({
      last,
      report: reason === undefined ? undefined : `${which} cancelled: ${reason}`,
    });
  };
}
