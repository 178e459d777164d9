/**
 * What a model wrapper (text markers, JSON calls, the recorder) passes on from the model it wraps:
 * every optional capability of {@link Model}. A wrapper that dropped one would silently switch it
 * off: without `credentials()` the session no longer knows the API key, so it stops scrubbing it.
 */
import { kindOf } from '../option-checks.js';
import type { Model } from './types.js';

/**
 * Throws a TypeError naming the wrapper when `model` is not a model: called first, so a missing or
 * wrong argument fails where the wrapper is made, not at the session's first turn.
 */
export function checkWrapped(caller: string, model: unknown): asserts model is Model {
  const stream = (model as { stream?: unknown } | null | undefined)?.stream;
  if (typeof model !== 'object' || model === null || typeof stream !== 'function')
    throw new TypeError(
      `${caller}: expected a Model to wrap (an object with stream(), e.g. openaiModel({ model })), got ${kindOf(model)}`,
    );
}

/** The optional members of a model, beyond its name and stream. */
export type ModelCapabilities = Omit<Model, 'name' | 'stream'>;

/**
 * Every optional capability, listed: a member added to {@link Model} fails to compile here until
 * {@link wrappedCapabilities} forwards it.
 */
const FORWARDED: Readonly<Record<keyof Required<ModelCapabilities>, true>> = { credentials: true };
void FORWARDED;

/** The wrapped model's optional capabilities, bound to it, for a wrapper to spread into itself. */
export function wrappedCapabilities(model: Model): ModelCapabilities {
  const credentials = model.credentials;
  return credentials === undefined ? {} : { credentials: () => credentials.call(model) };
}
