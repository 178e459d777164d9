/**
 * The checks and defaults createSession and restoreSession share (siblings: create-session.ts,
 * restore-session.ts): the host's options canonicalised, the first agent chosen and its tools
 * checked, and a new session's id.
 */
import { randomUUID } from 'node:crypto';
import { checkSessionOptions } from './check-options.js';
import type { SessionOptions } from './types.js';

/**
 * A new session id, as one flat string. `randomUUID()` returns its 36 characters as a tree of
 * about 20 joined pieces, which V8 keeps as it is: every string later made from the id (an
 * `Idempotency-Key` digest per unsafe call, trace ids) walked the whole tree again.
 */
export function flatUuid(): string {
  return Buffer.from(randomUUID(), 'latin1').toString('latin1');
}

/**
 * The options with the language settings canonicalised (a copy: the caller's object is never
 * changed). Throws a DefinitionError for a bad language or `toolDefaults`.
 */
export function checkedOptions(options: SessionOptions): SessionOptions {
  const { language, languages } = checkSessionOptions(options);
  // `language` comes before the host's keys and is then written over them, never added after a
  // spread: in code V8 has optimized, `{ ...options, language }` gives each copy a hidden class of
  // its own, so every read of a session's options became a slow, megamorphic one
  // (docs/performance-notes.md). `languages` is only set when the host gave it.
  const checked: { -readonly [K in keyof SessionOptions]: SessionOptions[K] } = {
    language,
    ...options,
  };
  checked.language = language;
  if (languages !== undefined) checked.languages = languages;
  return checked;
}

export function hasOwnAgent(options: SessionOptions, name: string): boolean {
  return options.agents !== undefined && Object.hasOwn(options.agents, name);
}

/** The agent a new session starts with (checked by checkOptionShapes): `agent`, else the first. */
export function initialAgent(options: SessionOptions): string | undefined {
  if (options.agents === undefined) return undefined;
  return options.agent ?? Object.keys(options.agents)[0];
}
