/**
 * A session lease once held in Redis: renewing it while the turn runs, the fenced tool-call
 * journal, the revision-checked save, and release. Taking it is acquire-lease.ts; its Lua scripts,
 * each checking the lease token, are lease-scripts.ts; the journal's record checks are
 * redis-journal.ts.
 */
import {
  SessionLeaseLostError,
  StaleSessionError,
  type OpenTurn,
  type SessionLease,
  type TurnJournal,
} from '../session/coordination.js';
import { APPEND, RELEASE, RENEW, SAVE, SAVE_RELEASE } from './lease-scripts.js';
import { encodeRecord, type JournalRecord } from './redis-journal.js';
import { runScript, type ScriptClient } from './redis-script.js';
import { writeArguments, type StoredHistory } from './redis-snapshot.js';
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

/** What taking a lease needs. */
export interface AcquireRequest {
  readonly client: ScriptClient;
  readonly id: string;
  readonly keys: LeaseKeys;
  readonly token: string;
  readonly settings: RedisStoreSettings;
  readonly ttlMsFor: (state: SessionState) => number;
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

/** A lease taken by {@link acquireRedisLease} (acquire-lease.ts). */
export class RedisLease implements SessionLease {
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
