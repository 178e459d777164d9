/**
 * The harness's options (runFixtures, runFixture, and the doubles and transformCall a test may
 * call on its own), checked when called (a TypeError naming each: a bad
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
  isPlainObjectCheck,
  isString,
  isToolSet,
  kindOf,
  oneOf,
  type Check,
} from '../option-checks.js';
import { isPlainObject } from '../own-data.js';
import { isTimeZone } from '../session/check-option-shapes.js';

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

/** A Map (`new Map([[name, …]])`); a plain object is named, as it is the likely mistake. */
const isMap =
  (what: string): Check =>
  (value, path, sink) => {
    if (!(value instanceof Map))
      sink.problem(path, `expected a Map of ${what} (new Map([[name, …]])), got ${kindOf(value)}`);
  };

const HTTP_DOUBLE = fields(
  { exchanges: arrayOf(isPlainObjectCheck('an exchange object')), onRequest: isFunction },
  ['exchanges'],
);
const COMMAND_DOUBLE = fields({ commands: isMap('runs by command name') }, ['commands']);
const TRANSFORM_CALL = fields(
  {
    tools: isToolSet,
    tool: isNonEmptyString,
    args: (value, path, sink) => {
      if (typeof value !== 'string' && !isPlainObject(value))
        sink.problem(path, `expected an object or its JSON text, got ${kindOf(value)}`);
    },
    vars: isPlainObjectCheck('an object'),
    staticOverrides: isPlainObjectCheck('an object'),
    language: isNonEmptyString,
    systemValues: fields({ timezone: isTimeZone, source: isString, target: isString }),
    now: isFunction,
    onMissingTemplateValue: oneOf('skip', 'error'),
  },
  ['tools', 'tool', 'args'],
);

/** Throws a TypeError `createHttpDouble: path: …; …`. */
export function checkHttpDoubleOptions(options: unknown): void {
  checkOptions(HTTP_DOUBLE, options, { caller: 'createHttpDouble', error: 'type' });
}

/** Throws a TypeError `createCommandDouble: path: …; …`. */
export function checkCommandDoubleOptions(options: unknown): void {
  checkOptions(COMMAND_DOUBLE, options, { caller: 'createCommandDouble', error: 'type' });
}

/** Throws a TypeError `transformCall: path: …; …`. */
export function checkTransformCallOptions(options: unknown): void {
  checkOptions(TRANSFORM_CALL, options, { caller: 'transformCall', error: 'type' });
}
