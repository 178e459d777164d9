/**
 * Errors of the model side: the model server failed (HTTP 5xx, timeout, refused connection) or a
 * scripted model was called beyond its script. Unlike tool errors these end the turn: the session
 * emits a `model-error` event and rejects the turn's `result` with a {@link ModelError}.
 */

/** Why a model call failed. */
export type ModelErrorCode =
  /** The model server answered with a non-2xx status. */
  | 'http_status'
  /** No complete answer before the adapter's timeout. */
  | 'timeout'
  /** Connection refused, reset, DNS failure. */
  | 'network'
  /** The answer could not be understood (bad stream, unknown shape). */
  | 'bad_response'
  /** A test double was used wrongly (e.g. a scripted model called beyond its script). */
  | 'script';

/** A failed model call. Ends the turn; the session stays usable for the next turn. */
export class ModelError extends Error {
  override readonly name = 'ModelError';
  readonly code: ModelErrorCode;
  /** HTTP status of the model server, when it answered. */
  readonly status: number | undefined;
  /** The model's name (`openai:gpt-4o-mini`, `scripted`). */
  readonly model: string;

  constructor(options: {
    code: ModelErrorCode;
    message: string;
    model: string;
    status?: number;
    cause?: unknown;
  }) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = options.code;
    this.model = options.model;
    this.status = options.status;
  }
}

/** True for a {@link ModelError} (also across module copies). */
export function isModelError(value: unknown): value is ModelError {
  return value instanceof ModelError || (value instanceof Error && value.name === 'ModelError');
}

/** The error an adapter throws when its request's signal was aborted (interruption). */
export function abortError(): Error {
  const err = new Error('the model stream was aborted');
  err.name = 'AbortError';
  return err;
}

/** Wraps anything a model adapter threw as a {@link ModelError} (`bad_response` unless it is one). */
export function asModelError(err: unknown, model: string): ModelError {
  if (isModelError(err)) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new ModelError({
    code: 'bad_response',
    model,
    message: `model ${model} failed: ${message}`,
    cause: err,
  });
}

/**
 * The error with every credential (raw or percent-encoded) in its message replaced by
 * `[redacted]`: a model server may echo the key it was sent in its error text. When one was found
 * the cause (the client's own error, holding the same text) is dropped.
 */
export function scrubModelError(error: ModelError, credentials: readonly string[]): ModelError {
  let message = error.message;
  for (const secret of credentials) {
    // Short values (a placeholder like "none") would mangle ordinary text.
    if (secret.length < 8) continue;
    for (const form of new Set([secret, encodeURIComponent(secret)]))
      message = message.split(form).join('[redacted]');
  }
  return withScrubbedMessage(error, message);
}

/**
 * The error with `message` in place of its own, or the same error when nothing changed. The
 * cause is dropped: it is the client's own error, holding the text that was scrubbed.
 */
export function withScrubbedMessage(error: ModelError, message: string): ModelError {
  if (message === error.message) return error;
  return new ModelError({
    code: error.code,
    model: error.model,
    message,
    ...(error.status === undefined ? {} : { status: error.status }),
  });
}
