/**
 * The options of a function that hands the rest of its options object to createSession (the
 * agent server, MCP server, framework adapters): its own keys are checked with their shapes at
 * its entry, the session's keys are left to createSession, and a key neither knows is warned
 * about here, once, with the nearest name among both (createSession would only suggest its own),
 * and dropped, so no session warns about it again.
 */
import { didYouMean } from '../did-you-mean.js';
import type { DefinitionIssue } from '../errors.js';
import {
  checkOptions,
  fields,
  warnOnce,
  type Check,
  type CheckOptionsReport,
} from '../option-checks.js';
import { isPlainObject } from '../own-data.js';
import { SESSION_OPTION_NAMES } from './check-option-shapes.js';

/** How {@link checkOwnOptions} checks: the function's own keys and those it requires. */
export interface OwnOptions extends Pick<CheckOptionsReport, 'caller' | 'error'> {
  readonly own: Readonly<Record<string, Check>>;
  readonly required?: readonly string[];
}

/**
 * Throws for a wrong own option (a DefinitionError, or the `error` type the function documents);
 * returns `options` without the keys neither the function nor the session knows.
 */
export function checkOwnOptions<T extends object>(options: T, spec: OwnOptions): T {
  const { own, required = [], caller, error } = spec;
  checkOptions(fields(own, required), options, {
    caller,
    ...(error === undefined ? {} : { error }),
    passOn: 'ignore-unknown',
  });
  // `fields` refused anything else; the keys are the host's own enumerable data.
  if (!isPlainObject(options)) return options;
  const known = [...Object.keys(own), ...SESSION_OPTION_NAMES];
  const unknown: DefinitionIssue[] = [];
  const kept: Record<string, unknown> = {};
  for (const key of Object.keys(options)) {
    if (Object.hasOwn(own, key) || SESSION_OPTION_NAMES.has(key)) {
      // A descriptor, not the value: a getter stays unread (and `__proto__` stays a key).
      const descriptor = Object.getOwnPropertyDescriptor(options, key);
      if (descriptor !== undefined) Object.defineProperty(kept, key, descriptor);
      continue;
    }
    const message = `is not a known option${didYouMean(key, known)}; it is ignored`;
    unknown.push({ code: 'unknown_option', severity: 'warning', path: key, message });
  }
  if (unknown.length === 0) return options;
  const onWarning = options['onWarning'];
  const warn =
    typeof onWarning === 'function' ? (onWarning as (issue: DefinitionIssue) => void) : warnOnce;
  for (const issue of unknown) warn(issue);
  return kept as T;
}
