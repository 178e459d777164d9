/**
 * Taking a session lease in Redis (redis-store.ts asks for it before a turn): polling with capped
 * back-off while another process holds it, reading the tool-call journal a crashed holder left,
 * and refusing the journal's bad records before any turn runs on them.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import {
  InvalidSnapshotError,
  SessionBusyError,
  SessionStoreFailedError,
  type SessionLease,
} from '../session/coordination.js';
import { RedisNoAnswerError } from './command-deadline.js';
import { ACQUIRE, REFUSE, RELEASE } from './lease-scripts.js';
import { checkJournal, type CheckedJournal } from './redis-journal.js';
import { RedisLease, type AcquireRequest } from './redis-lease.js';
import { runScript } from './redis-script.js';

/** The most refused records an error message names (all are in `journalRecords`). */
const NAMED_REFUSALS = 5;

/** Takes the lease, polling with capped back-off while another holder has it. */
export async function acquireRedisLease(request: AcquireRequest): Promise<SessionLease> {
  const { client, keys, token, settings } = request;
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    const reply = (await runScript(
      client,
      ACQUIRE,
      {
        keys: [keys.lease, keys.state, keys.journal],
        arguments: [token, String(settings.leaseTtlMs)],
      },
      request.id,
    ).catch((err: unknown) => {
      // Unanswered, the lease may still be taken when Redis wakes up, by a turn that is gone:
      // the release sent behind it (same connection, so it runs after) gives it back at once
      // instead of blocking the session for leaseTtlMs.
      if (err instanceof SessionStoreFailedError && err.cause instanceof RedisNoAnswerError)
        void runScript(
          client,
          RELEASE,
          { keys: [keys.lease], arguments: [token] },
          request.id,
          true,
        ).catch(() => undefined);
      throw err;
    })) as unknown[];
    if (reply[0] === 1) {
      const revision = Number(reply[1]);
      const items = Array.isArray(reply[2]) ? (reply[2] as unknown[]) : [];
      const journal = checkJournal(request.id, items, revision, settings);
      if (journal.refused.length > 0) await refuse(request, items.length, journal);
      const stored = { count: Number(reply[3]), chain: String(reply[4] ?? '') };
      return new RedisLease(request, revision, journal.openTurns, stored);
    }
    const waited = Date.now() - started;
    if (waited >= settings.leaseWaitMs) throw new SessionBusyError(request.id, waited);
    const left = Number(reply[1]);
    const backoff = Math.min(200, 5 * 2 ** attempt) * (0.5 + Math.random() / 2);
    await sleep(
      Math.max(1, Math.min(backoff, left > 0 ? left : backoff, settings.leaseWaitMs - waited)),
    );
  }
}

/**
 * Removes refused journal records (setting them aside), releases the lease and throws the
 * InvalidSnapshotError naming them: the turn does not run, and the next one resumes from the
 * stored state and the records kept.
 */
async function refuse(
  request: AcquireRequest,
  length: number,
  journal: CheckedJournal,
): Promise<never> {
  const { client, keys, token, settings, id } = request;
  const removed = await runScript(
    client,
    REFUSE,
    {
      keys: [keys.lease, keys.journal, keys.refused],
      arguments: [
        token,
        String(settings.ttlMs),
        String(length),
        String(journal.kept.length),
        ...journal.kept,
        ...journal.refusedItems,
      ],
    },
    id,
  );
  const named = journal.refused
    .slice(0, NAMED_REFUSALS)
    .map((r) => `record ${r.index}: ${r.reason}`)
    .join('; ');
  const more = journal.refused.length - NAMED_REFUSALS;
  const list = `${named}${more > 0 ? `; and ${more} more` : ''}`;
  throw new InvalidSnapshotError(
    id,
    removed === 1
      ? `its tool-call journal held records that were refused and removed (${list}); the session resumes from its stored state and the journal's other records`
      : // Only a writer other than the engine can change the journal under this lease.
        `its tool-call journal holds records that were refused (${list}); they could not be removed (the journal changed while it was read, or the lease was lost), and the next turn checks them again`,
    journal.refused,
  );
}
