/**
 * runFixtures' and runFixture's options, checked when called (a TypeError naming each: a bad
 * fixture is a result, a host's mistake in calling the harness is not): `paths: 'fixtures'` was
 * read letter by letter, `transport: 'realtme'` ran as text, an `onResult` that is not a
 * function failed after the first fixture.
 */
import {
  arrayOf,
  checkOptions,
  fields,
  isFunction,
  isNonEmptyString,
  isString,
  kindOf,
  oneOf,
  type Check,
} from '../option-checks.js';

/** An object whose present hooks are functions (every hook is optional). */
const isObserver: Check = (value, path, sink) => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    sink.problem(path, `expected an observer object, got ${kindOf(value)}`);
    return;
  }
  for (const hook of ['fixtureStart', 'turnStart', 'event', 'request', 'turnEnd']) {
    const fn: unknown = (value as Record<string, unknown>)[hook];
    if (fn !== undefined) isFunction(fn, `${path}.${hook}`, sink);
  }
};

const transport = oneOf('text', 'realtime');

const FIXTURES = fields(
  { paths: arrayOf(isNonEmptyString), observer: isObserver, transport, onResult: isFunction },
  ['paths'],
);
const FIXTURE = fields({ file: isString, dir: isNonEmptyString, observer: isObserver, transport });

/** Throws a TypeError `runFixtures: path: …; …`. */
export function checkRunFixturesOptions(options: unknown): void {
  checkOptions(FIXTURES, options, { caller: 'runFixtures', error: 'type' });
}

/** Throws a TypeError `runFixture: path: …; …`. */
export function checkRunFixtureOptions(options: unknown): void {
  checkOptions(FIXTURE, options, { caller: 'runFixture', error: 'type' });
}
