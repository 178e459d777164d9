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

const OPTIONS = {
  url: isNonEmptyString,
  keyPrefix: isString,
  ttlSecs: positiveNumber(),
  endedTtlSecs: positiveNumber(),
  leaseTtlMs: positiveNumber(MAX_TIMER_MS),
  leaseWaitMs: nonNegative,
  secret: isNonEmptyString,
};

const forConnect = fields(OPTIONS);
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
