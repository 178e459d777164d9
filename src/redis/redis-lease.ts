/**
 * The Redis side of a session lease: taking it (waiting while another process holds it), renewing
 * it while the turn runs, the fenced tool-call journal, the revision-checked save, and release.
 * Every write checks the lease token inside its Lua script, so a process that lost its lease
 * (paused past the TTL) can neither journal, dispatch nor save.
 * About 430 lines: the lease and the journal writes share one set of Lua scripts and one fencing
 * token; the journal's record checks live in redis-journal.ts.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import {
  InvalidSnapshotError,
  SessionBusyError,
  SessionLeaseLostError,
  SessionStoreFailedError,
  StaleSessionError,
  type OpenTurn,
  type SessionLease,
  type TurnJournal,
} from '../session/coordination.js';
import {
  checkJournal,
  encodeRecord,
  type CheckedJournal,
  type JournalRecord,
} from './redis-journal.js';
import { RedisNoAnswerError } from './command-deadline.js';
import { redisScript, runScript, type ScriptClient } from './redis-script.js';
import { WRITE_STATE, writeArguments, type StoredHistory } from './redis-snapshot.js';
import type { RedisStoreSettings } from './types.js';
import type { SessionState } from '../session/types.js';

/** The keys of one session. */
export interface LeaseKeys {
  readonly state: string;
  readonly lease: string;
  readonly journal: string;
  /** The history list (redis-snapshot.ts). */
  readonly history: string;
  /** Journal records refused on reading, set aside for a look (redis-journal.ts). */
  readonly refused: string;
}

const ACQUIRE = redisScript(`
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  local h = redis.call('HMGET', KEYS[2], 'rev', 'n', 'hc')
  return {1, h[1] or '0', redis.call('LRANGE', KEYS[3], 0, -1), h[2] or '0', h[3] or ''}
end
return {0, redis.call('PTTL', KEYS[1])}`);
const RENEW = redisScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`);
const RELEASE = redisScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`);
const APPEND = redisScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
for i = 3, #ARGV do redis.call('RPUSH', KEYS[2], ARGV[i]) end
redis.call('PEXPIRE', KEYS[2], ARGV[2])
return 1`);
/**
 * KEYS: lease, state, journal, history. ARGV: token, expected revision, then WRITE_STATE's
 * arguments. A save that keeps stored messages checks their count, and that the list still holds
 * them (an eviction takes one key, not the session), first (-3: write them all).
 * SAVE_RELEASE, the turn's last save, also releases the lease: one round trip instead of two.
 */
const saveScript = (release: boolean): string => `${WRITE_STATE}
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return {-1, 0} end
local cur = tonumber(redis.call('HGET', KEYS[2], 'rev') or '0')
if cur ~= tonumber(ARGV[2]) then return {-2, cur} end
local keep = tonumber(ARGV[6])
if keep > 0 and (tonumber(redis.call('HGET', KEYS[2], 'n') or '0') ~= keep or redis.call('LLEN', KEYS[4]) ~= keep) then return {-3, cur} end
local rev = write_state(KEYS[2], KEYS[4], ARGV, 3)
redis.call('DEL', KEYS[3])${release ? "\nredis.call('DEL', KEYS[1])" : ''}
return {rev, 0}`;
const SAVE = redisScript(saveScript(false));
const SAVE_RELEASE = redisScript(saveScript(true));

/**
 * Drops refused journal records and releases the lease, in one step. KEYS: lease, journal, refused
 * records. ARGV: token, ttl ms, the journal length read, the number kept, the kept items, then the
 * refused ones. The journal is rewritten only if nothing was appended since it was read; the
 * refused records are kept aside (the last 100) for a look. Returns 1 when they were removed.
 */
const REFUSE = redisScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
local removed = 0
if redis.call('LLEN', KEYS[2]) == tonumber(ARGV[3]) then
  removed = 1
  local kept = tonumber(ARGV[4])
  redis.call('DEL', KEYS[2])
  for i = 5, 4 + kept do redis.call('RPUSH', KEYS[2], ARGV[i]) end
  if kept > 0 then redis.call('PEXPIRE', KEYS[2], ARGV[2]) end
  for i = 5 + kept, #ARGV do redis.call('RPUSH', KEYS[3], ARGV[i]) end
  redis.call('LTRIM', KEYS[3], -100, -1)
  redis.call('PEXPIRE', KEYS[3], ARGV[2])
end
redis.call('DEL', KEYS[1])
return removed`);

/** The most refused records an error message names (all are in `journalRecords`). */
const NAMED_REFUSALS = 5;

/** What taking a lease needs. */
export interface AcquireRequest {
  readonly client: ScriptClient;
  readonly id: string;
  readonly keys: LeaseKeys;
  readonly token: string;
  readonly settings: RedisStoreSettings;
  readonly ttlMsFor: (state: SessionState) => number;
}

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

/**
 * Result records waiting for their write: sent together with the next journal write, dropped by
 * the turn's save (which clears the journal), or on their own on the next turn of the event loop.
 */
interface PendingRecords {
  readonly items: string[];
  readonly settle: (error?: unknown) => void;
  readonly written: Promise<void>;
  timer: NodeJS.Immediate | undefined;
}

class RedisLease implements SessionLease {
  readonly revision: number;
  readonly openTurns: readonly OpenTurn[];
  readonly #r: AcquireRequest;
  readonly #renewal: NodeJS.Timeout;
  #lost = false;
  /** The lease was released (by the turn's last save, or by release()). */
  #released = false;
  /** What is stored at revision {@link #storedAt}: the history a save can extend. */
  #stored: StoredHistory;
  #storedAt: number;
  #pending: PendingRecords | undefined;

  constructor(
    request: AcquireRequest,
    revision: number,
    open: readonly OpenTurn[],
    stored: StoredHistory,
  ) {
    this.#r = request;
    this.revision = revision;
    this.openTurns = open;
    this.#stored = stored;
    this.#storedAt = revision;
    const every = Math.max(1, Math.floor(request.settings.leaseTtlMs / 3));
    this.#renewal = setInterval(() => void this.#renew(), every);
    this.#renewal.unref();
  }

  async #renew(): Promise<void> {
    const { client, keys, token, settings } = this.#r;
    try {
      const ok = await runScript(
        client,
        RENEW,
        {
          keys: [keys.lease],
          arguments: [token, String(settings.leaseTtlMs)],
        },
        this.#r.id,
      );
      if (ok !== 1) this.#lost = true;
    } catch {
      // A missed renewal is retried on the next tick; the TTL covers two misses.
    }
  }

  /** Appends encoded records (after any pending ones, which it takes along) under the lease. */
  async #append(items: string[]): Promise<void> {
    const pending = this.#takePending();
    const { client, keys, token, settings, id } = this.#r;
    try {
      const ok = await runScript(
        client,
        APPEND,
        {
          keys: [keys.lease, keys.journal],
          arguments: [
            token,
            String(settings.ttlMs),
            ...(pending === undefined ? items : [...pending.items, ...items]),
          ],
        },
        id,
      );
      if (ok !== 1) {
        this.#lost = true;
        throw new SessionLeaseLostError(id);
      }
      pending?.settle();
    } catch (err) {
      pending?.settle(err);
      throw err;
    }
  }

  #takePending(): PendingRecords | undefined {
    const pending = this.#pending;
    if (pending?.timer !== undefined) clearImmediate(pending.timer);
    this.#pending = undefined;
    return pending;
  }

  /**
   * A result record is written behind the call: on the next turn of the event loop, or sooner and
   * in the same command as the next journal write or the save. The result is journaled by the
   * time the model's next call is under way, as before, without a round trip of its own when the
   * turn goes on at once.
   */
  #later(item: string): Promise<void> {
    if (this.#pending !== undefined) {
      this.#pending.items.push(item);
      return this.#pending.written;
    }
    let settle!: (error?: unknown) => void;
    const written = new Promise<void>((resolve, reject) => {
      settle = (error) => (error === undefined ? resolve() : reject(error));
    });
    const pending: PendingRecords = { items: [item], settle, written, timer: undefined };
    pending.timer = setImmediate(() => {
      if (this.#pending === pending) void this.#append([]).catch(() => undefined);
    });
    this.#pending = pending;
    return written;
  }

  journal(turn: number, userText: string): TurnJournal {
    let headed = false;
    // Records name the revision they extend: after a recovery save that is the new one.
    const r = this.#storedAt;
    const { id, settings } = this.#r;
    return {
      record: async (entry) => {
        // Claimed before the await: a step's calls are journaled in parallel, and each wrote the
        // turn's start, which recovery refuses as tampering. Appends go out in order on one
        // connection, so the start lands before any later call's record.
        const heads = !headed;
        headed = true;
        const records: JournalRecord[] = heads ? [{ t: 'turn', r, turn, userText }] : [];
        records.push({ t: 'call', r, turn, entry });
        try {
          await this.#append(records.map((record) => encodeRecord(id, record, settings)));
        } catch (err) {
          if (heads) headed = false;
          throw err;
        }
      },
      complete: (callId, content) =>
        this.#later(encodeRecord(id, { t: 'done', r, turn, callId, content }, settings)),
    };
  }

  save(state: SessionState, expected: number, unchangedPrefix = 0): Promise<number> {
    return this.#save(state, expected, unchangedPrefix, false);
  }

  finish(state: SessionState, expected: number, unchangedPrefix = 0): Promise<number> {
    return this.#save(state, expected, unchangedPrefix, true);
  }

  async #save(
    state: SessionState,
    expected: number,
    unchangedPrefix: number,
    release: boolean,
  ): Promise<number> {
    const { id } = this.#r;
    if (this.#lost) throw new SessionLeaseLostError(id);
    // Pending result records are moot once the save clears the journal; kept if it fails.
    const pending = this.#takePending();
    try {
      // Append only when the caller vouches for every stored message and nothing was saved since.
      const extend =
        expected === this.#storedAt &&
        this.#stored.count > 0 &&
        unchangedPrefix >= this.#stored.count &&
        state.history.length >= this.#stored.count;
      const first = await this.#write(state, expected, extend ? this.#stored : undefined, release);
      // -3: the stored list is not what this lease read (its key was evicted or deleted while
      // the state hash stayed); a full write is always right.
      const revision = first ?? (await this.#write(state, expected, undefined, release));
      pending?.settle();
      return revision ?? expected;
    } catch (err) {
      if (pending !== undefined)
        void this.#append(pending.items).then(pending.settle, pending.settle);
      throw err;
    }
  }

  /** One save script; undefined when the stored history was not what `from` says. */
  async #write(
    state: SessionState,
    expected: number,
    from: StoredHistory | undefined,
    release: boolean,
  ): Promise<number | undefined> {
    const { client, keys, token, id, settings } = this.#r;
    const { args, stored } = writeArguments(
      state,
      from ?? { count: 0, chain: '' },
      settings,
      this.#r.ttlMsFor(state),
    );
    const reply = (await runScript(
      client,
      release ? SAVE_RELEASE : SAVE,
      {
        keys: [keys.lease, keys.state, keys.journal, keys.history],
        arguments: [token, String(expected), ...args],
      },
      id,
    )) as number[];
    const [status, actual] = [Number(reply[0]), Number(reply[1])];
    if (status === -1) throw new SessionLeaseLostError(id);
    if (status === -2) throw new StaleSessionError(id, expected, actual);
    if (status === -3) return undefined;
    this.#stored = stored;
    this.#storedAt = status;
    if (release) this.#stop();
    return status;
  }

  #stop(): void {
    clearInterval(this.#renewal);
    this.#released = true;
  }

  async release(): Promise<void> {
    if (this.#released) return;
    this.#stop();
    // Pending result records go first, on the same connection (the lease still holds for them).
    const pending = this.#takePending();
    if (pending !== undefined)
      void this.#append(pending.items).then(pending.settle, pending.settle);
    const { client, keys, token, id } = this.#r;
    await runScript(client, RELEASE, { keys: [keys.lease], arguments: [token] }, id);
  }
}
