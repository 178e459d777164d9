/**
 * createSession: a new session's state, handed to the live session object (live-session.ts, which
 * owns the state, serialises turns and creates handlers lazily). Split by concern, as siblings:
 * restoreSession / resumeSession in restore-session.ts, the option checks and new ids in
 * session-setup.ts, the handler slots and caches shared across sessions in session-handlers.ts.
 * Every name other modules import from here stays importable from here.
 */
import { LiveSession } from './live-session.js';
import { NO_WORKFLOWS } from './workflow/state.js';
import { assignVars, type LiveState } from './session-state.js';
import { checkedOptions, flatUuid, initialAgent } from './session-setup.js';
import type { Session, SessionOptions } from './types.js';

export { SessionEndedError, turnHostOf } from './live-session.js';
export { restoreSession, resumeSession } from './restore-session.js';

/**
 * Creates a session. Throws a DefinitionError naming every option that is wrong (host mistakes:
 * a value of the wrong type, an unknown `agent` or agent tool name, a bad `language`,
 * `toolDefaults`, service or command); nothing runs before the options are right.
 */
export function createSession(given: SessionOptions): Session {
  const options = checkedOptions(given);
  const id = options.id ?? flatUuid();
  const vars: Record<string, unknown> = {};
  if (options.vars !== undefined) assignVars(vars, options.vars);
  const state: LiveState = {
    id,
    language: options.language ?? 'en-US',
    vars,
    agent: initialAgent(options),
    history: [],
    turns: 0,
    ended: false,
    workflows: NO_WORKFLOWS,
  };
  // Revision 0: a store shared by processes refuses this session if one of its id is stored.
  return new LiveSession(options, state, 0);
}
