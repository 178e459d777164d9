/** The one-method interface that hides ajv from the rest of the engine. */

/** One JSON Schema failure, with the path of the failing value (`/address/city`). */
export interface ValidationFailure {
  readonly path: string;
  readonly message: string;
}

/** Validates a tool's arguments against its JSON Schema, compiled once. */
export interface ArgumentValidator {
  validate(value: unknown): { ok: true } | { ok: false; failures: readonly ValidationFailure[] };
}
