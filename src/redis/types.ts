/** Types shared by the Redis store's parts (store, lease, scripts). */
import type { Signer } from './redis-snapshot.js';

/**
 * The commands the store sends: EVALSHA when the client has it, else (and for a script Redis has
 * not cached yet) EVAL (node-redis v5+ `client.evalSha` and `client.eval`).
 */
export interface RedisEvalClient {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  evalSha?(sha1: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

/** Store-wide settings the lease needs. */
export interface RedisStoreSettings {
  readonly ttlMs: number;
  readonly endedTtlMs: number;
  readonly leaseTtlMs: number;
  readonly leaseWaitMs: number;
  readonly sign: Signer;
  /** Whether snapshots are signed (a secret is set). */
  readonly signing: boolean;
}
