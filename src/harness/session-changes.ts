/**
 * Changing a live session's variables or language between turns, the way a host would: take its
 * plain-JSON state, change it, and restore a session from it (the engine has no setters, on
 * purpose: state changes between turns go through the serialisable state).
 */
import { restoreSession } from '../session/create-session.js';
import type { Session, SessionOptions, SessionState } from '../session/types.js';

/** What to change. */
export interface SessionChanges {
  /** Variables to set (flat `"vars.x"` keys allowed); other variables are kept. */
  readonly vars?: Readonly<Record<string, unknown>>;
  readonly language?: string;
}

/** Returns a session equal to `session` with the changes applied; the old one is closed. */
export async function changeSession(
  session: Session,
  changes: SessionChanges,
  options: SessionOptions,
): Promise<Session> {
  const next = restoreSession(changedState(session.toJSON(), changes), options);
  await session.close().catch(() => undefined);
  return next;
}

/** A session state with the changes applied (a copy). */
export function changedState(state: SessionState, changes: SessionChanges): SessionState {
  const vars: Record<string, unknown> = { ...state.vars };
  for (const [key, value] of Object.entries(changes.vars ?? {})) {
    // defineProperty: a variable named `__proto__` is data, never a prototype.
    Object.defineProperty(vars, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return { ...state, vars, language: changes.language ?? state.language };
}
