/**
 * Coordination of one session across processes (docs/sessions-redis.md): a store shared by several
 * engine processes offers a per-session lease (one turn at a time, anywhere), a revision per
 * session (a stale save is refused), and a tool-call journal (a side effect started by a process
 * that then died is answered from the journal, never dispatched again). The engine uses these
 * through the interfaces below; {@link RedisSessionStore} implements them.
 */
import { ToolError } from '../errors.js';
import type { ChatMessage } from '../models/types.js';
import type { SessionState } from './types.js';

/** A stored state and the revision it was stored under (1 for the first save). */
export interface StoredSession {
  readonly state: SessionState;
  readonly revision: number;
}

/** One journaled call: recorded before dispatch; `content` once its result is known. */
export interface JournalEntry {
  readonly callId: string;
  readonly tool: string;
  /** The arguments exactly as the model sent them. */
  readonly arguments: string;
  /** The tool message content the model received; absent while the outcome is unknown. */
  readonly content?: string;
}

/** The journal of a turn that has not been saved yet (a crashed turn, when found by another lease). */
export interface OpenTurn {
  readonly turn: number;
  readonly userText: string;
  readonly entries: readonly JournalEntry[];
}

/** A journal record refused when a lease read the journal: its index in the list, and why. */
export interface JournalRefusal {
  readonly index: number;
  readonly reason: string;
}

/** What the engine writes while a turn runs under a lease. */
export interface TurnJournal {
  /** Records a call before it is dispatched. Rejecting means: do not dispatch. */
  record(entry: JournalEntry): Promise<void>;
  /** Records the result content of a recorded call. */
  complete(callId: string, content: string): Promise<void>;
}

/** Exclusive right to run turns of one session, until released or expired. */
export interface SessionLease {
  /** The revision stored when the lease was taken (0: not stored). */
  readonly revision: number;
  /** Turns left unsaved by a previous holder (it crashed mid-turn), oldest first; checked records only. */
  readonly openTurns: readonly OpenTurn[];
  /** The journal of the turn `turn` (started with `userText`). */
  journal(turn: number, userText: string): TurnJournal;
  /**
   * Saves the state if the stored revision is still `expected`, clears the journal, and returns
   * the new revision. Throws {@link StaleSessionError} or {@link SessionLeaseLostError}.
   * `unchangedPrefix`: how many leading history messages the caller guarantees are unchanged
   * since it loaded or saved revision `expected` (a store may then write only the rest).
   */
  save(state: SessionState, expected: number, unchangedPrefix?: number): Promise<number>;
  /**
   * The turn's last save: {@link save}, then the lease is released, in one step (one round trip
   * to the store). When it throws the lease is kept, and {@link release} releases it.
   */
  finish(state: SessionState, expected: number, unchangedPrefix?: number): Promise<number>;
  /** Releases the lease (nothing to do after a {@link finish} that succeeded). */
  release(): Promise<void>;
}

/** The optional coordination side of a {@link SessionStore} shared by processes. */
export interface SessionCoordination {
  /** The stored state with its revision (validated; see RedisSessionStore). */
  load(id: string): Promise<StoredSession | undefined>;
  /**
   * Takes the lease of session `id`, waiting while another holder has it. Throws
   * {@link SessionBusyError} when it stays taken past the store's wait limit, and
   * {@link InvalidSnapshotError} (with `journalRecords`, the lease released) when records of the
   * journal were refused; those are then gone, so the next acquire succeeds.
   */
  acquire(id: string): Promise<SessionLease>;
}

/** Base of the coordination errors; `code` is stable. */
export class SessionStoreError extends Error {
  override readonly name: string = 'SessionStoreError';
  readonly code:
    'stale_session' | 'session_busy' | 'lease_lost' | 'invalid_snapshot' | 'store_failed';
  readonly sessionId: string;
  constructor(code: SessionStoreError['code'], sessionId: string, message: string) {
    super(message);
    this.code = code;
    this.sessionId = sessionId;
  }
}

/** A save was refused: another process saved this session since this one loaded it. */
export class StaleSessionError extends SessionStoreError {
  override readonly name = 'StaleSessionError';
  readonly expected: number;
  readonly actual: number;
  constructor(sessionId: string, expected: number, actual: number) {
    super(
      'stale_session',
      sessionId,
      `session ${sessionId} was saved elsewhere (stored revision ${actual}, this copy has ${expected}); resume it from the store`,
    );
    this.expected = expected;
    this.actual = actual;
  }
}

/** Another process holds the session's lease longer than the store waits. */
export class SessionBusyError extends SessionStoreError {
  override readonly name = 'SessionBusyError';
  constructor(sessionId: string, waitedMs: number) {
    super(
      'session_busy',
      sessionId,
      `session ${sessionId} is running a turn in another process (waited ${waitedMs} ms for its lease)`,
    );
  }
}

/** The lease expired or was taken over before the save (the turn ran too long without renewal). */
export class SessionLeaseLostError extends SessionStoreError {
  override readonly name = 'SessionLeaseLostError';
  constructor(sessionId: string) {
    super('lease_lost', sessionId, `the lease of session ${sessionId} was lost before the save`);
  }
}

/**
 * A stored snapshot is malformed, tampered with, or belongs to another session or store; or
 * records of its tool-call journal were (`journalRecords`: each refused record's index and reason).
 */
export class InvalidSnapshotError extends SessionStoreError {
  override readonly name = 'InvalidSnapshotError';
  /** The refused journal records (empty when the snapshot itself was refused). */
  readonly journalRecords: readonly JournalRefusal[];
  constructor(sessionId: string, reason: string, journalRecords: readonly JournalRefusal[] = []) {
    super(
      'invalid_snapshot',
      sessionId,
      `stored snapshot of session ${sessionId} refused: ${reason}`,
    );
    this.journalRecords = journalRecords;
  }
}

/** The coordination side of a store, when it has one. */
export function coordinationOf(store: unknown): SessionCoordination | undefined {
  if (store === null || typeof store !== 'object' || !('coordination' in store)) return undefined;
  const c = (store as { coordination?: unknown }).coordination;
  return c !== null && typeof c === 'object' ? (c as SessionCoordination) : undefined;
}

/** The tool error a resumed session gives the model for a call whose result was never recorded. */
export function outcomeUnknownError(tool: string): ToolError {
  return new ToolError(
    'outcome_unknown',
    `the ${tool} call was started before the service restarted and its outcome is unknown; it was not repeated`,
  );
}

/**
 * The messages that close a crashed turn: its user message, one assistant message with the
 * journaled calls, and one tool message per call (the journaled result, or `outcome_unknown`).
 * Calls that were not journaled (cancellable ones) are left out: they had no side effect to keep.
 */
export function crashedTurnMessages(open: OpenTurn): ChatMessage[] {
  const out: ChatMessage[] = [{ role: 'user', content: open.userText }];
  if (open.entries.length === 0) return out;
  out.push({
    role: 'assistant',
    content: null,
    tool_calls: open.entries.map((e) => ({
      id: e.callId,
      type: 'function' as const,
      function: { name: e.tool, arguments: e.arguments },
    })),
  });
  for (const e of open.entries) {
    out.push({
      role: 'tool',
      tool_call_id: e.callId,
      content: e.content ?? JSON.stringify(outcomeUnknownError(e.tool).toJSON()),
    });
  }
  return out;
}

/**
 * A store command failed: the connection to the store is down (the Redis store does not queue
 * commands while it reconnects) or the store refused the command. `cause` is the client's error.
 */
export class SessionStoreFailedError extends SessionStoreError {
  override readonly name = 'SessionStoreFailedError';
  constructor(sessionId: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super('store_failed', sessionId, `session store failed for session ${sessionId}: ${reason}`);
    this.cause = cause;
  }
}
