/** The one-method interface that hides ajv from the rest of the engine. */

/** One JSON Schema failure, with the path of the failing value (`/address/city`). */
export interface ValidationFailure {
  readonly path: string;
  readonly message: string;
}

/**
 * Validates a tool's arguments against its JSON Schema, compiled once. Never writes into `value`:
 * on success `value` is the arguments to use, with the schema's `default`s filled in for
 * properties left out — a fresh deep copy when the schema has a `default` somewhere, else the
 * input itself.
 */
export interface ArgumentValidator {
  validate(
    value: unknown,
  ): { ok: true; value: unknown } | { ok: false; failures: readonly ValidationFailure[] };
}
