/**
 * The Lua scripts of a session lease (redis-lease.ts, acquire-lease.ts): take, renew and release
 * it, append to the tool-call journal, save (and release) under it, and set refused journal
 * records aside. Every write checks the lease token inside its script, so a process that lost its
 * lease (paused past the TTL) can neither journal, dispatch nor save.
 */
import { redisScript } from './redis-script.js';
import { WRITE_STATE } from './redis-snapshot.js';

export const ACQUIRE = redisScript(`
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  local h = redis.call('HMGET', KEYS[2], 'rev', 'n', 'hc')
  return {1, h[1] or '0', redis.call('LRANGE', KEYS[3], 0, -1), h[2] or '0', h[3] or ''}
end
return {0, redis.call('PTTL', KEYS[1])}`);
export const RENEW = redisScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`);
export const RELEASE = redisScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`);
export const APPEND = redisScript(`
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
export const SAVE = redisScript(saveScript(false));
export const SAVE_RELEASE = redisScript(saveScript(true));

/**
 * Drops refused journal records and releases the lease, in one step. KEYS: lease, journal, refused
 * records. ARGV: token, ttl ms, the journal length read, the number kept, the kept items, then the
 * refused ones. The journal is rewritten only if nothing was appended since it was read; the
 * refused records are kept aside (the last 100) for a look. Returns 1 when they were removed.
 */
export const REFUSE = redisScript(`
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
