/**
 * RedisSessionStore: sessions shared by engine processes through Redis (docs/sessions-redis.md).
 * Besides the three {@link SessionStore} methods it offers {@link SessionCoordination}: a
 * revision per session, a per-session lease and the tool-call journal (see acquire-lease.ts, redis-lease.ts).
 *
 * Keys, for prefix `p` and session id `id`: `p` + `s:` + id is a hash (`rev`, `head` = the
 * state's JSON without its history, `n`, `hc` and `mac`, see redis-snapshot.ts); `m:` + id the
 * history (a list, one JSON text per message, appended to by each turn's save); `l:` + id the
 * lease; `j:` + id the journal (a list). Every multi-key change is one Lua script, so a crash never
 * leaves half of one.
 */
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import {
  InvalidSnapshotError,
  type SessionCoordination,
  type SessionLease,
  type StoredSession,
} from '../session/coordination.js';
import { acquireRedisLease } from './acquire-lease.js';
import type { LeaseKeys } from './redis-lease.js';
import { redisScript, runScript, type ScriptClient } from './redis-script.js';
import { decodeStored, WRITE_STATE, writeArguments, type StoredParts } from './redis-snapshot.js';
import { parseStoredSnapshot } from '../session/snapshot.js';
import type { SessionState, SessionStore } from '../session/types.js';
import { checkRedisUrlVariable, checkStoreOptions } from './check-store-options.js';
import { CommandDeadline } from './command-deadline.js';
import type { RedisEvalClient, RedisStoreSettings } from './types.js';

export type { RedisEvalClient } from './types.js';

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
  /**
   * Milliseconds the store waits for Redis's answer to a command before the call fails with a
   * SessionStoreFailedError (a frozen Redis, a network path dropping packets). Default 5000.
   */
  readonly commandTimeoutMs?: number;
}

const GET = redisScript(`
local h = redis.call('HMGET', KEYS[1], 'rev', 'head', 'n', 'hc', 'mac')
if not h[2] then return {} end
return {h[1], h[2], h[3] or '0', h[4] or '', h[5] or '', redis.call('LRANGE', KEYS[2], 0, -1)}`);
const SET = redisScript(`${WRITE_STATE}
return write_state(KEYS[1], KEYS[2], ARGV, 1)`);
const DELETE = redisScript(`return redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4])`);

/** Options of {@link RedisSessionStore.connect}: the store's, and how long to wait for Redis. */
export interface RedisConnectOptions extends RedisSessionStoreOptions {
  /**
   * Milliseconds connect() waits for the first connection and Redis's answer to the handshake
   * before it rejects (a wrong host, a firewall dropping packets, a server that is not Redis).
   * Default 5000.
   */
  readonly connectTimeoutMs?: number;
}

const CONNECT_DEADLINE_MS = 5000;
const COMMAND_DEADLINE_MS = 5000;

/** A {@link SessionStore} on Redis, with leases, revisions and a tool-call journal. */
export class RedisSessionStore implements SessionStore {
  readonly #client: ScriptClient;
  readonly #owned: { close(): Promise<void> } | undefined;
  readonly #prefix: string;
  readonly #secret: string | undefined;
  readonly #settings: RedisStoreSettings;
  /** Lease, revision and journal operations (used by the session engine). */
  readonly coordination: SessionCoordination;

  /** Connects a client of its own to `options.url` (closed by {@link close}). */
  static async connect(options: RedisConnectOptions = {}): Promise<RedisSessionStore> {
    checkStoreOptions(options, true);
    const { connectTimeoutMs: deadlineMs = CONNECT_DEADLINE_MS, ...storeOptions } = options;
    const fromEnvironment = options.url === undefined ? process.env['REDIS_URL'] : undefined;
    if (fromEnvironment !== undefined) checkRedisUrlVariable(fromEnvironment);
    const url = options.url ?? fromEnvironment ?? 'redis://127.0.0.1:6379';
    // Loaded on first use: hosts without Redis never pay for the client's modules.
    const { createClient } = await import('redis');
    // Until the first connection is made, a failure rejects connect() (a wrong URL, port or
    // password, or no Redis yet, would otherwise wait forever while node-redis retried);
    // afterwards node-redis reconnects with its usual back-off.
    let connected = false;
    const client = createClient({
      url,
      socket: {
        connectTimeout: deadlineMs,
        reconnectStrategy: (retries: number) =>
          connected ? Math.min(2 ** retries * 50, 2000) + Math.floor(Math.random() * 200) : false,
      },
      // A command is written at once while connected; while the connection is down (node-redis
      // reconnects in the background) a store call fails at once with a clear error instead of
      // queueing. That makes node-redis's per-command timeout moot, and it is switched off: it
      // is an AbortSignal.timeout per command whose 5 s timer outlives the reply, which at
      // thousands of commands a second was the largest share of the worker's GC work
      // (docs/load.md).
      disableOfflineQueue: true,
      commandOptions: { timeout: undefined },
    });
    // Without a listener node-redis rethrows connection errors as uncaught; commands still reject.
    client.on('error', () => undefined);
    const connecting = client.connect();
    let timer: NodeJS.Timeout | undefined;
    // node-redis bounds the TCP connect, not the handshake after it: with command timeouts off, a
    // server that accepts and never answers (not Redis) would hold connect() for ever.
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${deadlineMs} ms`)), deadlineMs);
    });
    try {
      await Promise.race([connecting, deadline]);
    } catch (cause) {
      connecting.catch(() => undefined);
      client.destroy();
      throw new Error(
        `RedisSessionStore.connect: could not connect to ${redactUrl(url)}: ${cause instanceof Error ? cause.message : String(cause)}`,
        { cause },
      );
    } finally {
      clearTimeout(timer);
    }
    connected = true;
    return new RedisSessionStore({
      ...storeOptions,
      client,
      owned: { close: () => client.close(), send: (args) => client.sendCommand(args) },
    });
  }

  /** Uses a connected client (node-redis v5+); the caller keeps closing it. */
  constructor(
    options: RedisSessionStoreOptions & {
      readonly client: RedisEvalClient;
      /** @internal The client {@link connect} made: closed by {@link close}, sent raw commands. */
      readonly owned?: {
        close(): Promise<void>;
        send(args: string[]): Promise<unknown>;
      };
    },
  ) {
    // `?.`: a JavaScript caller's `new RedisSessionStore()` is named by the check, not crashed on.
    if (options?.owned === undefined) checkStoreOptions(options, false);
    const { owned, client } = options;
    const evalSha = client.evalSha;
    const deadline = new CommandDeadline({
      timeoutMs: options.commandTimeoutMs ?? COMMAND_DEADLINE_MS,
    });
    this.#client =
      owned === undefined
        ? {
            kind: 'typed',
            client: {
              eval: (script, call) => deadline.track(client.eval(script, call)),
              ...(evalSha === undefined
                ? {}
                : { evalSha: (sha, call) => deadline.track(evalSha.call(client, sha, call)) }),
            },
          }
        : { kind: 'command', send: (args) => deadline.track(owned.send(args)) };
    this.#owned = options.owned;
    this.#prefix = options.keyPrefix ?? 'switchboard:';
    this.#secret = options.secret;
    this.#settings = {
      ttlMs: (options.ttlSecs ?? 86_400) * 1000,
      endedTtlMs: (options.endedTtlSecs ?? 3_600) * 1000,
      leaseTtlMs: options.leaseTtlMs ?? 10_000,
      leaseWaitMs: options.leaseWaitMs ?? 15_000,
      sign: (id, data) => this.#sign(id, data),
      signing: this.#secret !== undefined,
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
    const keys = this.#keys(state.id);
    const { args } = writeArguments(
      state,
      { count: 0, chain: '' },
      this.#settings,
      this.ttlMsFor(state),
    );
    await runScript(
      this.#client,
      SET,
      { keys: [keys.state, keys.history], arguments: args },
      state.id,
    );
  }

  async delete(id: string): Promise<void> {
    const keys = this.#keys(id);
    await runScript(
      this.#client,
      DELETE,
      {
        keys: [keys.state, keys.journal, keys.history, keys.refused],
        arguments: [],
      },
      id,
    );
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
      history: `${this.#prefix}m:${id}`,
      refused: `${this.#prefix}jr:${id}`,
    };
  }

  #sign(id: string, data: string): string {
    if (this.#secret === undefined) return '';
    return createHmac('sha256', this.#secret).update(id).update('\n').update(data).digest('hex');
  }

  async #load(id: string): Promise<StoredSession | undefined> {
    const keys = this.#keys(id);
    const reply = await runScript(
      this.#client,
      GET,
      {
        keys: [keys.state, keys.history],
        arguments: [],
      },
      id,
    );
    const [rev, head, count, chain, mac, messages] = Array.isArray(reply)
      ? (reply as unknown[])
      : [];
    if (head === null || head === undefined) return undefined;
    if (typeof head !== 'string' || !Array.isArray(messages))
      throw new InvalidSnapshotError(id, 'the stored value is not text');
    return {
      state: this.#verify(id, {
        head,
        count: Number(count),
        chain: typeof chain === 'string' ? chain : '',
        mac: typeof mac === 'string' ? mac : '',
        messages,
      }),
      revision: Number(rev),
    };
  }

  /** Joins and checks a stored snapshot; throws InvalidSnapshotError naming what is wrong. */
  #verify(id: string, parts: StoredParts): SessionState {
    let parsed: unknown;
    try {
      parsed = decodeStored(
        id,
        parts,
        this.#secret === undefined ? undefined : (i, text, mac) => this.#matches(i, text, mac),
      );
    } catch (err) {
      throw new InvalidSnapshotError(id, err instanceof Error ? err.message : String(err));
    }
    const claimed = (parsed as { id?: unknown }).id;
    if (claimed !== id)
      throw new InvalidSnapshotError(
        id,
        `it belongs to session ${JSON.stringify(typeof claimed === 'string' ? claimed : null)}`,
      );
    // The option-free checks restoring makes (schema, caps, roles, tool pairs): a bad snapshot is
    // this store's InvalidSnapshotError, not the DefinitionError restoring would give.
    try {
      return parseStoredSnapshot(parsed);
    } catch (err) {
      throw new InvalidSnapshotError(id, err instanceof Error ? err.message : String(err));
    }
  }

  #matches(id: string, text: string, mac: string): boolean {
    const want = Buffer.from(this.#sign(id, text), 'hex');
    const got = Buffer.from(mac, 'hex');
    return got.length === want.length && timingSafeEqual(got, want);
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

/** The URL for an error message, without its password. */
function redactUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.password !== '') parsed.password = '***';
  return parsed.href;
}
