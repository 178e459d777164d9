/**
 * switchboard/redis — sessions shared by many processes through Redis, with leases and a
 * crash-safe tool-call journal (docs/sessions-redis.md).
 */
// --- Redis session store ------------------------------------------------------------------
export {
  RedisSessionStore,
  type RedisSessionStoreOptions,
  type RedisConnectOptions,
  type RedisEvalClient,
} from '../redis/redis-store.js';
export { RedisNoAnswerError } from '../redis/command-deadline.js';
