/**
 * RedisSessionStore: sessions shared by engine processes through Redis (docs/sessions-redis.md).
 * Besides the three {@link SessionStore} methods it offers {@link SessionCoordination}: a
 * revision per session, a per-session lease and the tool-call journal (see redis-lease.ts).
 *
 * Keys, for prefix `p` and session id `id`: `p` + `s:` + id is a hash (`rev`, `data` = the JSON
 * snapshot, `mac` = its HMAC when a secret is set); `l:` + id the lease; `j:` + id the journal (a
 * list). Every multi-key change is one Lua script, so a crash never leaves half of one.
 */
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import {
  InvalidSnapshotError,
  type SessionCoordination,
  type SessionLease,
  type StoredSession,
} from './coordination.js';
import { acquireRedisLease, type LeaseKeys } from './redis-lease.js';
import { liveStateFrom } from './session-state.js';
import type { SessionState, SessionStore } from './types.js';

/** The one command the store sends: EVAL (node-redis v5+ `client.eval`). */
export interface RedisEvalClient {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

/** Options of {@link RedisSessionStore.connect} (and of the constructor, with `client`). */
export interface RedisSessionStoreOptions {
  /** Redis URL. Default: `process.env.REDIS_URL`, else `redis://127.0.0.1:6379`. */
  readonly url?: string;
  /** Prefix of every key. Default `switchboard:`. */
  readonly keyPrefix?: string;
  /** Seconds a session is kept after its last save. Default 86400 (one day). */
  readonly ttlSecs?: number;
  /** Seconds an ended session is kept after its last save. Default 3600. */
  readonly endedTtlSecs?: number;
  /**
   * Milliseconds a lease lives without renewal; the holder renews it every third of that, so a
   * lease of a dead process frees after at most this long. Default 10000.
   */
  readonly leaseTtlMs?: number;
  /** Milliseconds `send` waits for another process's lease before a SessionBusyError. Default 15000. */
  readonly leaseWaitMs?: number;
  /**
   * Key for HMAC-SHA256 signatures of snapshots. When set, a snapshot without a matching
   * signature (written by hand, by another deployment, or altered) is refused on load.
   */
  readonly secret?: string;
}

const GET = `return redis.call('HMGET', KEYS[1], 'rev', 'data', 'mac')`;
const SET = `
local rev = redis.call('HINCRBY', KEYS[1], 'rev', 1)
redis.call('HSET', KEYS[1], 'data', ARGV[1], 'mac', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return rev`;
const DELETE = `return redis.call('DEL', KEYS[1], KEYS[2])`;

/** Store-wide settings the lease needs. */
export interface RedisStoreSettings {
  readonly ttlMs: number;
  readonly endedTtlMs: number;
  readonly leaseTtlMs: number;
  readonly leaseWaitMs: number;
  readonly sign: (id: string, data: string) => string;
}

/** A {@link SessionStore} on Redis, with leases, revisions and a tool-call journal. */
export class RedisSessionStore implements SessionStore {
  readonly #client: RedisEvalClient;
  readonly #owned: { close(): Promise<void> } | undefined;
  readonly #prefix: string;
  readonly #secret: string | undefined;
  readonly #settings: RedisStoreSettings;
  /** Lease, revision and journal operations (used by the session engine). */
  readonly coordination: SessionCoordination;

  /** Connects a client of its own to `options.url` (closed by {@link close}). */
  static async connect(options: RedisSessionStoreOptions = {}): Promise<RedisSessionStore> {
    const url = options.url ?? process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
    // Loaded on first use: hosts without Redis never pay for the client's modules.
    const { createClient } = await import('redis');
    const client = createClient({ url });
    // Without a listener node-redis rethrows connection errors as uncaught; commands still reject.
    client.on('error', () => undefined);
    await client.connect();
    return new RedisSessionStore({ ...options, client, owned: client });
  }

  /** Uses a connected client (node-redis v5+); the caller keeps closing it. */
  constructor(
    options: RedisSessionStoreOptions & {
      readonly client: RedisEvalClient;
      /** @internal The client {@link connect} made. */
      readonly owned?: { close(): Promise<void> };
    },
  ) {
    this.#client = options.client;
    this.#owned = options.owned;
    this.#prefix = options.keyPrefix ?? 'switchboard:';
    this.#secret = options.secret;
    this.#settings = {
      ttlMs: positive(options.ttlSecs ?? 86_400, 'ttlSecs') * 1000,
      endedTtlMs: positive(options.endedTtlSecs ?? 3_600, 'endedTtlSecs') * 1000,
      leaseTtlMs: positive(options.leaseTtlMs ?? 10_000, 'leaseTtlMs'),
      leaseWaitMs: Math.max(0, options.leaseWaitMs ?? 15_000),
      sign: (id, data) => this.#sign(id, data),
    };
    this.coordination = {
      load: (id) => this.#load(id),
      acquire: (id) => this.#acquire(id),
    };
  }

  async get(id: string): Promise<SessionState | undefined> {
    return (await this.#load(id))?.state;
  }

  async set(state: SessionState): Promise<void> {
    if (typeof state.id !== 'string') throw new TypeError('session state needs a string id');
    const data = JSON.stringify(state);
    await this.#client.eval(SET, {
      keys: [this.#keys(state.id).state],
      arguments: [data, this.#sign(state.id, data), String(this.ttlMsFor(state))],
    });
  }

  async delete(id: string): Promise<void> {
    const keys = this.#keys(id);
    await this.#client.eval(DELETE, { keys: [keys.state, keys.journal], arguments: [] });
  }

  /** Closes the client made by {@link connect} (a client passed in is left open). */
  async close(): Promise<void> {
    await this.#owned?.close();
  }

  /** @internal Expiry of a saved state: ended sessions expire sooner. */
  ttlMsFor(state: SessionState): number {
    return state.ended ? this.#settings.endedTtlMs : this.#settings.ttlMs;
  }

  #keys(id: string): LeaseKeys {
    return {
      state: `${this.#prefix}s:${id}`,
      lease: `${this.#prefix}l:${id}`,
      journal: `${this.#prefix}j:${id}`,
    };
  }

  #sign(id: string, data: string): string {
    if (this.#secret === undefined) return '';
    return createHmac('sha256', this.#secret).update(id).update('\n').update(data).digest('hex');
  }

  async #load(id: string): Promise<StoredSession | undefined> {
    const reply = await this.#client.eval(GET, { keys: [this.#keys(id).state], arguments: [] });
    const [rev, data, mac] = Array.isArray(reply) ? (reply as unknown[]) : [];
    if (data === null || data === undefined) return undefined;
    if (typeof data !== 'string')
      throw new InvalidSnapshotError(id, 'the stored value is not text');
    return {
      state: this.#verify(id, data, typeof mac === 'string' ? mac : ''),
      revision: Number(rev),
    };
  }

  /** Parses and checks a stored snapshot; throws InvalidSnapshotError naming what is wrong. */
  #verify(id: string, data: string, mac: string): SessionState {
    if (this.#secret !== undefined) {
      const want = Buffer.from(this.#sign(id, data), 'hex');
      const got = Buffer.from(mac, 'hex');
      if (got.length !== want.length || !timingSafeEqual(got, want))
        throw new InvalidSnapshotError(
          id,
          'its signature does not match (altered, or written by another deployment)',
        );
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      throw new InvalidSnapshotError(id, 'it is not JSON');
    }
    const state = parsed as SessionState;
    if (parsed === null || typeof parsed !== 'object' || state.id !== id)
      throw new InvalidSnapshotError(
        id,
        `it belongs to session ${JSON.stringify(typeof state?.id === 'string' ? state.id : null)}`,
      );
    try {
      liveStateFrom(state);
    } catch (err) {
      throw new InvalidSnapshotError(id, err instanceof Error ? err.message : String(err));
    }
    return state;
  }

  #acquire(id: string): Promise<SessionLease> {
    return acquireRedisLease({
      client: this.#client,
      id,
      keys: this.#keys(id),
      token: randomUUID(),
      settings: this.#settings,
      ttlMsFor: (state) => this.ttlMsFor(state),
    });
  }
}

function positive(value: number, name: string): number {
  if (!Number.isFinite(value) || value <= 0)
    throw new TypeError(
      `RedisSessionStore option ${name} must be a positive number, got ${String(value)}`,
    );
  return value;
}
