/**
 * restoreSession / resumeSession: a live session (live-session.ts) rebuilt from plain-JSON state,
 * given by the host or loaded from a store; the snapshot is validated first. Re-exported by
 * create-session.ts.
 */
import { DefinitionError } from '../errors.js';
import { kindOf } from '../option-checks.js';
import { coordinationOf, InvalidSnapshotError } from './coordination.js';
import { LiveSession } from './live-session.js';
import { liveStateFrom } from './session-state.js';
import { checkedOptions } from './session-setup.js';
import { parseSnapshot } from './snapshot.js';
import type { Session, SessionOptions, SessionState } from './types.js';

/**
 * Recreates a session from plain-JSON state (from `toJSON()`, a TurnResult or a store). The state
 * is validated first ({@link parseSnapshot}): a bad one throws a DefinitionError naming its paths.
 */
export function restoreSession(state: SessionState, given: SessionOptions): Session {
  return restoreAt(state, given, undefined);
}

function restoreAt(
  state: SessionState,
  given: SessionOptions,
  revision: number | undefined,
): Session {
  const options = checkedOptions(given);
  const check = {
    ...(options.languages === undefined ? {} : { languages: options.languages }),
    agents: options.agents === undefined ? [] : Object.keys(options.agents),
  };
  let checked: SessionState;
  try {
    checked = parseSnapshot(state, check);
  } catch (err) {
    // A snapshot a coordinating store kept (revision known) is refused as that store refuses it.
    if (revision === undefined || !(err instanceof DefinitionError)) throw err;
    throw new InvalidSnapshotError(state.id, err.message);
  }
  return new LiveSession(options, liveStateFrom(checked), revision);
}

/** Loads a session's state from `options.store` and restores it; undefined when not stored. */
export async function resumeSession(
  id: string,
  options: SessionOptions,
): Promise<Session | undefined> {
  if (typeof id !== 'string')
    throw new TypeError(
      `resumeSession: id: expected the session's id (a string), got ${kindOf(id)}`,
    );
  const store = (options as Partial<SessionOptions> | null | undefined)?.store;
  if (store === undefined)
    throw new TypeError(
      `resumeSession: options.store is required (the store the session was saved to), got ${typeof options === 'object' && options !== null ? 'options without store' : kindOf(options)}`,
    );
  const coordination = coordinationOf(store);
  if (coordination !== undefined) {
    const stored = await coordination.load(id);
    return stored === undefined ? undefined : restoreAt(stored.state, options, stored.revision);
  }
  const state = await store.get(id);
  return state === undefined ? undefined : restoreSession(state, options);
}
