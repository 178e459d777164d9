/**
 * Small checks of a host's option values, composed into the shape of an options object
 * (`SessionOptions` in session/check-option-shapes.ts; any layer's own). Each reports
 * "expected …, got …" at the value's path and never shows the value itself: it may be a secret.
 */
import { closestName, didYouMean } from './did-you-mean.js';
import { DefinitionError, type DefinitionIssue } from './errors.js';
import { isPlainObject } from './own-data.js';

/** Reports one problem at a path; `code` defaults to `session_options`. */
export type Problem = (path: string, message: string, code?: string) => void;

/** Reports a key the shape does not know (a warning: the value is ignored). */
export type UnknownKey = (path: string, message: string) => void;

/** What a check reports to. */
export interface CheckSink {
  readonly problem: Problem;
  readonly unknownKey: UnknownKey;
  /** Unknown keys are another check's (no "did you mean" is computed for them: it costs µs). */
  readonly ignoresUnknown?: boolean;
}

/** Checks one value found at `path`. */
export type Check = (value: unknown, path: string, sink: CheckSink) => void;

/** The longest delay a Node timer holds (2^31 − 1 ms); a longer one fires at once. */
export const MAX_TIMER_MS = 2_147_483_647;

/** What a value is, for "expected …, got …" messages (never the value: it may be a secret). */
export function kindOf(value: unknown): string {
  if (value === undefined) return 'nothing (undefined)';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return value === '' ? 'an empty string' : 'a string';
  if (typeof (value as { then?: unknown }).then === 'function')
    return 'a Promise (missing `await`?)';
  if (typeof value === 'object') {
    if (isPlainObject(value)) return 'an object';
    const name: unknown = (value as { constructor?: { name?: unknown } }).constructor?.name;
    return typeof name === 'string' && name !== '' ? `a ${name}` : 'an object';
  }
  return `a ${typeof value}`;
}

const expected =
  (test: (value: unknown) => boolean, what: string): Check =>
  (value, path, sink) => {
    if (!test(value)) sink.problem(path, `expected ${what}, got ${kindOf(value)}`);
  };

export const isFunction: Check = expected((v) => typeof v === 'function', 'a function');
export const isBoolean: Check = expected((v) => typeof v === 'boolean', 'true or false');
export const isString: Check = expected((v) => typeof v === 'string', 'a string');
export const isNonEmptyString: Check = expected(
  (v) => typeof v === 'string' && v !== '',
  'a non-empty string',
);

/** An integer from `min` to `max`. */
export function integer(min: number, max = Number.MAX_SAFE_INTEGER): Check {
  const what =
    max === Number.MAX_SAFE_INTEGER
      ? `an integer of at least ${min}`
      : `an integer from ${min} to ${max}`;
  return (value, path, sink) => {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
      sink.problem(path, `expected ${what}, got ${describeNumber(value)}`);
  };
}

/** A number above 0 and at most `max`, in `unit`. */
export function positive(max: number, unit: string): Check {
  return (value, path, sink) => {
    if (typeof value !== 'number' || !(value > 0 && value <= max))
      sink.problem(path, `must be a number of ${unit} above 0 and at most ${max}`);
  };
}

function describeNumber(value: unknown): string {
  return typeof value === 'number' ? String(value) : kindOf(value);
}

/** One of the given strings. */
export function oneOf(...allowed: readonly string[]): Check {
  return (value, path, sink) => {
    if (typeof value === 'string' && allowed.includes(value)) return;
    const hint = typeof value === 'string' ? didYouMean(value, allowed) : '';
    sink.problem(
      path,
      `expected ${allowed.map((a) => JSON.stringify(a)).join(' or ')}, got ${kindOf(value)}${hint}`,
    );
  };
}

/** An object with these methods (a store, a dispatcher: any class or object literal). */
export function withMethods(what: string, ...methods: readonly string[]): Check {
  return (value, path, sink) => {
    if (typeof value !== 'object' || value === null) {
      sink.problem(path, `expected ${what}, got ${kindOf(value)}`);
      return;
    }
    const missing = methods.filter(
      (m) => typeof (value as Record<string, unknown>)[m] !== 'function',
    );
    if (missing.length > 0)
      sink.problem(
        path,
        `expected ${what}: it has no ${missing.map((m) => `${m}()`).join(', ')} method`,
      );
  };
}

/** An array whose every item passes `item`. */
export function arrayOf(item: Check): Check {
  return (value, path, sink) => {
    if (!Array.isArray(value)) sink.problem(path, `expected an array, got ${kindOf(value)}`);
    else value.forEach((v: unknown, i) => item(v, `${path}[${i}]`, sink));
  };
}

/** A plain object whose every value passes `item` (keys are names the host chose). */
export function recordOf(item: Check): Check {
  return (value, path, sink) => {
    if (!isPlainObject(value)) sink.problem(path, `expected an object, got ${kindOf(value)}`);
    else for (const key of Object.keys(value)) item(value[key], `${path}.${key}`, sink);
  };
}

/**
 * A plain object with these fields (absent or `undefined`: not set; a getter is not read). A field
 * it does not know is reported to `unknownKey` with the nearest known name.
 */
export function fields(
  shape: Readonly<Record<string, Check>>,
  /** Required fields; as an object, each with what to give (appended to "is required"). */
  required: readonly string[] | Readonly<Record<string, string>> = {},
) {
  const known = Object.keys(shape);
  const needed: Readonly<Record<string, string>> = Array.isArray(required)
    ? Object.fromEntries(required.map((k: string) => [k, '']))
    : (required as Readonly<Record<string, string>>);
  const check: Check = (value, path, sink) => {
    if (!isPlainObject(value)) {
      sink.problem(path, `expected an object, got ${kindOf(value)}`);
      return;
    }
    const at = (key: string): string => (path === '' ? key : `${path}.${key}`);
    for (const [key, what] of Object.entries(needed)) {
      if (value[key] !== undefined) continue;
      // The likely cause: the option given under another spelling (`exchange` for `exchanges`).
      const written = closestName({
        name: key,
        candidates: Object.keys(value).filter((k) => !Object.hasOwn(shape, k)),
      });
      const given = written === undefined ? '' : ` (${JSON.stringify(written)} was given)`;
      sink.problem(at(key), `is required${what === '' ? '' : `: ${what}`}${given}`);
    }
    for (const key of Object.keys(value)) {
      const field = Object.hasOwn(shape, key) ? shape[key] : undefined;
      if (field === undefined) {
        if (sink.ignoresUnknown !== true)
          sink.unknownKey(at(key), `is not a known option${didYouMean(key, known)}; it is ignored`);
        continue;
      }
      // A getter is the host's on purpose (a value read when used); reading it here proves nothing.
      const own = Object.getOwnPropertyDescriptor(value, key);
      if (own !== undefined && 'value' in own && own.value !== undefined)
        field(own.value, at(key), sink);
    }
  };
  return check;
}

/** Plain JSON data (what a session's state holds): no functions, instances, cycles or NaN. */
export const isJsonData: Check = (value, path, sink) => {
  const seen = new Set<object>();
  const visit = (v: unknown, at: string, depth: number): boolean => {
    if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
    if (typeof v === 'number') {
      if (Number.isFinite(v)) return true;
      sink.problem(at, `expected JSON data, got ${v}`);
      return false;
    }
    if (depth > 64) {
      sink.problem(at, 'is nested deeper than 64 levels');
      return false;
    }
    if (Array.isArray(v) || isPlainObject(v)) {
      if (seen.has(v)) {
        sink.problem(at, 'refers back to itself (a cycle is not JSON data)');
        return false;
      }
      seen.add(v);
      const ok = Array.isArray(v)
        ? v.every((item: unknown, i) => visit(item, `${at}[${i}]`, depth + 1))
        : Object.keys(v).every((k) => visit(v[k], `${at}.${k}`, depth + 1));
      seen.delete(v);
      return ok;
    }
    sink.problem(at, `expected JSON data, got ${kindOf(v)}`);
    return false;
  };
  visit(value, path, 0);
};

/** How {@link checkOptions} reports: the error's heading and type, and where warnings go. */
export interface CheckOptionsReport {
  /** The function checked, e.g. `createAgentServer`: it heads the error. */
  readonly caller: string;
  /**
   * `definition` (default): a {@link DefinitionError} "invalid <caller> options" with an issue per
   * wrong option; `type` (`range`): a TypeError (RangeError) `<caller>: path: message; …`, for
   * entries whose documented error for a host mistake is one.
   */
  readonly error?: 'definition' | 'type' | 'range';
  /** Where an unknown key's warning goes (the function's `onWarning`); else {@link warnOnce}. */
  readonly onWarning?: ((issue: DefinitionIssue) => void) | undefined;
  /**
   * Keys left to another check (a session's options handed on to createSession): not reported
   * as unknown here.
   */
  readonly passOn?: 'ignore-unknown';
}

/**
 * Checks a public function's options object with `check` (usually {@link fields}), at its entry:
 * every wrong option is listed in one error, an unknown key is an `unknown_option` warning.
 */
export function checkOptions(check: Check, options: unknown, report: CheckOptionsReport): void {
  const issues: DefinitionIssue[] = [];
  const warnings: DefinitionIssue[] = [];
  check(options, '', {
    problem: (path, message, code = 'invalid_option') =>
      issues.push({ code, severity: 'error', path: path === '' ? 'options' : path, message }),
    unknownKey: (path, message) =>
      warnings.push({ code: 'unknown_option', severity: 'warning', path, message }),
    ignoresUnknown: report.passOn !== undefined,
  });
  if (issues.length > 0) {
    const text = `${report.caller}: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`;
    if (report.error === 'type') throw new TypeError(text);
    if (report.error === 'range') throw new RangeError(text);
    throw new DefinitionError(issues, `invalid ${report.caller} options`);
  }
  const warn = typeof report.onWarning === 'function' ? report.onWarning : warnOnce;
  for (const w of warnings) warn(w);
}

/** Warnings already shown by {@link warnOnce} (bounded: names come from definitions). */
const shown = new Set<string>();
const MAX_SHOWN = 1000;

/**
 * Default `onWarning`: a process warning, each once per process (a server that makes a session per
 * call would otherwise repeat it on every call).
 */
export function warnOnce(issue: DefinitionIssue): void {
  const text = `${issue.path}: ${issue.message}`;
  if (shown.has(text)) return;
  if (shown.size < MAX_SHOWN) shown.add(text);
  process.emitWarning(text, { code: `SWITCHBOARD_${issue.code.toUpperCase()}` });
}

/** A tool set from `await loadTools(...)`; a Promise or a tools file's content is named as such. */
export const isToolSet: Check = (value, path, sink) => {
  const tools: unknown = (value as { tools?: unknown } | null | undefined)?.tools;
  if (tools instanceof Map) return;
  if (typeof value === 'string') {
    const quoted = JSON.stringify(value);
    sink.problem(
      path,
      `expected a ToolSet, got the path ${quoted}: load it first with await loadTools(${quoted})`,
    );
    return;
  }
  const hint = Array.isArray(tools)
    ? ": this is a tools file's content; pass it through `await loadTools(...)` first"
    : kindOf(value).startsWith('a Promise')
      ? ': `await` the loadTools(...) call'
      : ' (from `await loadTools(...)`)';
  sink.problem(path, `expected a ToolSet, got ${kindOf(value)}${hint}`);
};

/** A plain object (`what` names it), whose fields another check owns. */
export function isPlainObjectCheck(what: string): Check {
  return (value, path, sink) => {
    if (!isPlainObject(value)) sink.problem(path, `expected ${what}, got ${kindOf(value)}`);
  };
}

/** Any value (a field known here whose shape another check owns). */
export const anyValue: Check = () => undefined;

/** A positive finite number (seconds, milliseconds) at most `max`. */
export function positiveNumber(max = Number.MAX_VALUE): Check {
  const what =
    max === Number.MAX_VALUE ? 'a number above 0' : `a number above 0 and at most ${max}`;
  return (value, path, sink) => {
    if (typeof value !== 'number' || !(value > 0 && value <= max))
      sink.problem(path, `expected ${what}, got ${describeNumber(value)}`);
  };
}

/**
 * The error for a public function's parameter that JavaScript passed as something its type does
 * not allow (TypeScript callers cannot): `compileCel(source): expected a string, got nothing
 * (undefined)`, thrown where it is called instead of a failure deep inside.
 */
export function argumentError(parameter: string, expected: string, value: unknown): TypeError {
  return new TypeError(`${parameter}: expected ${expected}, got ${kindOf(value)}`);
}

/**
 * The TypeError of a function argument that must be one of a few names: a string names itself
 * (`got "toString"`), anything else its kind.
 */
export function choiceError(
  parameter: string,
  choices: readonly string[],
  value: unknown,
): TypeError {
  const got = typeof value === 'string' && value !== '' ? JSON.stringify(value) : kindOf(value);
  return new TypeError(`${parameter}: expected one of ${choices.join(', ')}, got ${got}`);
}
