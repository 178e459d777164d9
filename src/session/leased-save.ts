/**
 * What a live session (live-session.ts) does with its store's lease (docs/sessions-redis.md): the
 * turns a crashed holder left unsaved closed in its state, and the save under the lease, which
 * vouches for the part of the history already stored.
 */
import { crashedTurnMessages, type OpenTurn, type SessionLease } from './coordination.js';
import type { LiveState } from './session-state.js';
import type { StateSnapshots } from './state-snapshots.js';
import type { SessionState } from './types.js';

/**
 * Closes the turns a crashed holder left unsaved (their journaled calls answered, never
 * repeated); true when there were any, and the state must be saved.
 */
export function closeCrashedTurns(state: LiveState, open: readonly OpenTurn[]): boolean {
  const crashed = open.filter((t) => t.turn > state.turns);
  for (const turn of crashed) {
    state.history.push(...crashedTurnMessages(turn));
    // One more turn, whatever number the journal gave it (at most the next; never a jump).
    state.turns += 1;
  }
  return crashed.length > 0;
}

/** Saves under the lease (`last`: the turn's save, which releases it); the new revision. */
export async function leasedSave(
  lease: SessionLease,
  state: SessionState,
  expected: number,
  snapshots: StateSnapshots,
  last: boolean,
): Promise<number> {
  // A history rewrite while the save is under way lowers storedPrefix again.
  const vouched = snapshots.storedPrefix;
  snapshots.storedPrefix = state.history.length;
  try {
    return last
      ? await lease.finish(state, expected, vouched)
      : await lease.save(state, expected, vouched);
  } catch (err) {
    snapshots.storedPrefix = Math.min(vouched, snapshots.storedPrefix);
    throw err;
  }
}
