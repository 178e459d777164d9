/**
 * What a model wrapper (text markers, JSON calls, the recorder) passes on from the model it wraps:
 * every optional capability of {@link Model}. A wrapper that dropped one would silently switch it
 * off: without `credentials()` the session no longer knows the API key, so it stops scrubbing it.
 */
import type { Model } from './types.js';

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
