/**
 * RedisSessionStore's options, checked by the constructor and by `connect()` before it connects
 * (a TypeError naming each wrong option, as before): `ttlSecs: '5'` was refused as "got 5", a
 * number `url` or an empty `secret` (an unset variable) was accepted and failed, or signed with
 * an empty key, later.
 */
import {
  anyValue,
  checkOptions,
  fields,
  isNonEmptyString,
  isString,
  kindOf,
  MAX_TIMER_MS,
  positiveNumber,
  withMethods,
  type Check,
} from '../option-checks.js';

const nonNegative: Check = (value, path, sink) => {
  if (typeof value !== 'number' || !(value >= 0 && value <= MAX_TIMER_MS))
    sink.problem(
      path,
      `expected a number from 0 to ${MAX_TIMER_MS}, got ${typeof value === 'number' ? String(value) : kindOf(value)}`,
    );
};

/** A redis: or rediss: URL (node-redis's own error named neither the option nor the store). */
const redisUrl: Check = (value, path, sink) => {
  if (typeof value !== 'string' || value === '') return isNonEmptyString(value, path, sink);
  // The value is not quoted: a URL may carry a password.
  const protocol = URL.canParse(value) ? new URL(value).protocol : undefined;
  if (protocol !== 'redis:' && protocol !== 'rediss:')
    sink.problem(
      path,
      `expected a redis:// or rediss:// URL, got ${protocol === undefined ? 'a string that is not a URL' : `a URL with protocol ${protocol}`}`,
    );
};

const OPTIONS = {
  url: redisUrl,
  keyPrefix: isString,
  ttlSecs: positiveNumber(),
  endedTtlSecs: positiveNumber(),
  leaseTtlMs: positiveNumber(MAX_TIMER_MS),
  leaseWaitMs: nonNegative,
  secret: isNonEmptyString,
  commandTimeoutMs: positiveNumber(MAX_TIMER_MS),
};

const forConnect = fields({ ...OPTIONS, connectTimeoutMs: positiveNumber(MAX_TIMER_MS) });
const forConstructor = fields(
  { ...OPTIONS, client: withMethods('a connected node-redis client', 'eval'), owned: anyValue },
  ['client'],
);

/** Throws a TypeError `RedisSessionStore: path: …; …`; `client` is required but for connect(). */
export function checkStoreOptions(options: unknown, connecting: boolean): void {
  checkOptions(connecting ? forConnect : forConstructor, options, {
    caller: connecting ? 'RedisSessionStore.connect' : 'RedisSessionStore',
    error: 'type',
  });
}

const forEnvironment = fields({ REDIS_URL: redisUrl });

/** connect() without `url` uses `REDIS_URL` when it is set: checked the same way, named as the variable. */
export function checkRedisUrlVariable(value: string): void {
  checkOptions(
    forEnvironment,
    { REDIS_URL: value },
    {
      caller: 'RedisSessionStore.connect',
      error: 'type',
    },
  );
}
