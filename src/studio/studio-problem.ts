/** A request the studio cannot serve: an HTTP status, a stable code, and what is wrong. */
export class StudioProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
