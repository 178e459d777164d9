/**
 * Structural matching of expected fixture values against what a session actually did.
 *
 * Exact by default: objects must have the same keys, arrays the same length, scalars the same
 * type and value (`5` does not match `"5"`). `partial` lets expected objects name only some keys
 * (at every depth). Two loose forms work anywhere: `{ regex: "…" }` (the actual value, a string
 * or a scalar's string form, must match) and `{ any: true }` (any value, but present).
 * Keys are read as own properties only, so `__proto__` or `constructor` in a fixture are data.
 */
import { isPlainObject } from '../own-data.js';
import { joinPath } from '../definition/json-path.js';

/** How strictly objects are compared. */
export type MatchMode = 'exact' | 'partial';

/** One difference between expected and actual. */
export interface Mismatch {
  /** Where, e.g. `turns[0].expect.tool_calls[0].args.city`. */
  readonly path: string;
  /** Why, in a few words. */
  readonly reason: string;
  readonly expected?: unknown;
  readonly actual?: unknown;
}

/** Options of {@link matchValue}. */
export interface MatchOptions {
  /** Default `exact`. */
  readonly mode?: MatchMode;
  /** Path prefix of reported mismatches. Default `""`. */
  readonly path?: string;
}

export { isPlainObject } from '../own-data.js';

function ownKeys(value: Record<string, unknown>): string[] {
  return Object.keys(value);
}

function own(value: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(value, key) ? value[key] : undefined;
}

/** `{ regex: "…" }` with nothing else. */
function regexMatcher(value: unknown): RegExp | undefined {
  if (!isPlainObject(value)) return undefined;
  const keys = ownKeys(value);
  const source = own(value, 'regex');
  if (keys.length !== 1 || typeof source !== 'string') return undefined;
  return new RegExp(source, 'u');
}

/** `{ any: true }` with nothing else. */
function isAnyMatcher(value: unknown): boolean {
  return isPlainObject(value) && ownKeys(value).length === 1 && own(value, 'any') === true;
}

/** True if `value` is one of the loose matcher forms. */
export function isLooseMatcher(value: unknown): boolean {
  return isAnyMatcher(value) || regexMatcher(value) !== undefined;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/**
 * Compares `expected` with `actual` and returns every difference (empty: they match).
 * `undefined` as actual means "absent".
 */
export function matchValue(
  expected: unknown,
  actual: unknown,
  options: MatchOptions = {},
): Mismatch[] {
  const out: Mismatch[] = [];
  walk(expected, actual, options.path ?? '', options.mode ?? 'exact', out);
  return out;
}

function walk(
  expected: unknown,
  actual: unknown,
  path: string,
  mode: MatchMode,
  out: Mismatch[],
): void {
  if (isAnyMatcher(expected)) {
    if (actual === undefined) out.push({ path, reason: 'missing', expected });
    return;
  }
  const regex = regexMatcher(expected);
  if (regex !== undefined) {
    const text =
      typeof actual === 'string' || typeof actual === 'number' || typeof actual === 'boolean'
        ? String(actual)
        : undefined;
    if (text === undefined || !regex.test(text)) {
      out.push({
        path,
        reason: actual === undefined ? 'missing' : `does not match /${regex.source}/`,
        expected,
        actual,
      });
    }
    return;
  }
  if (actual === undefined) {
    out.push({ path, reason: 'missing', expected });
    return;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) {
      out.push({ path, reason: `expected an array, got ${typeName(actual)}`, expected, actual });
      return;
    }
    if (expected.length !== actual.length) {
      out.push({
        path,
        reason: `expected ${expected.length} item(s), got ${actual.length}`,
        expected,
        actual,
      });
      return;
    }
    expected.forEach((item, i) => walk(item, actual[i], joinPath(path, i), mode, out));
    return;
  }
  if (isPlainObject(expected)) {
    if (!isPlainObject(actual)) {
      out.push({ path, reason: `expected an object, got ${typeName(actual)}`, expected, actual });
      return;
    }
    for (const key of ownKeys(expected)) {
      walk(own(expected, key), own(actual, key), joinPath(path, key), mode, out);
    }
    if (mode === 'exact') {
      for (const key of ownKeys(actual)) {
        if (!Object.hasOwn(expected, key)) {
          out.push({
            path: joinPath(path, key),
            reason: 'unexpected key',
            actual: own(actual, key),
          });
        }
      }
    }
    return;
  }
  if (!Object.is(expected, actual) && !(expected === 0 && actual === 0)) {
    const reason =
      typeName(expected) === typeName(actual)
        ? 'different value'
        : `expected ${typeName(expected)}, got ${typeName(actual)}`;
    out.push({ path, reason, expected, actual });
  }
}

/** Checks that a `{ regex }` matcher in a fixture compiles; returns the error message if not. */
export function regexError(value: unknown): string | undefined {
  if (!isPlainObject(value) || ownKeys(value).length !== 1) return undefined;
  const source = own(value, 'regex');
  if (typeof source !== 'string') return undefined;
  try {
    new RegExp(source, 'u');
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}
