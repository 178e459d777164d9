/**
 * The rule forms of docs/transform.md — `{"transform": {…}}`, `"@remove"`, `"@override <fmt>"`,
 * `"@default <fmt>"`, plain strings (templates) and literal values — normalised into one shape,
 * with every authoring mistake reported as an issue (never thrown).
 */
import { closestName, didYouMean } from '../did-you-mean.js';
import type { IssueSeverity } from '../errors.js';
import { isPlainObject } from '../own-data.js';
import type { TransformAction } from './types.js';

/** A rule in its normal form, before templates and conditions are compiled. */
export interface RuleForm {
  readonly action: TransformAction;
  readonly when?: unknown;
  /** Present when the rule writes a literal value. */
  readonly value?: { readonly literal: unknown };
  /** Present when the rule writes a template. */
  readonly format?: string;
  readonly hasValueAndFormat: boolean;
  /** Path suffix of the template and the condition inside the rule (`.transform` or ''). */
  readonly inner: string;
}

/** One problem found while normalising a rule; `subPath` is appended to the rule's path. */
export interface FormProblem {
  readonly code: string;
  readonly severity: IssueSeverity;
  readonly subPath: string;
  readonly message: string;
}

const ACTIONS: ReadonlySet<string> = new Set(['default', 'override', 'remove']);
const TRANSFORM_FIELDS: ReadonlySet<string> = new Set(['action', 'when', 'value', 'format']);

/** Normalises one rule. `form` is undefined when an error makes the rule unusable. */
export function normaliseRule(raw: unknown): {
  form: RuleForm | undefined;
  problems: FormProblem[];
} {
  const problems: FormProblem[] = [];
  if (typeof raw === 'string') return { form: stringRule(raw, problems), problems };
  if (isPlainObject(raw)) {
    const keys = Object.keys(raw);
    if (keys.length === 1 && keys[0] === 'transform')
      return { form: transformRule(raw['transform'], problems), problems };
    // `{"transfrom": {…}}` is a literal value by the rules above: the parameter would be set to
    // that object. Still a literal (it may be meant), but said.
    const only = keys.length === 1 ? keys[0]! : undefined;
    if (only !== undefined && closestName({ name: only, candidates: ['transform'] }) !== undefined)
      problems.push({
        code: 'literal_transform',
        severity: 'warning',
        subPath: /^[A-Za-z_$][\w$]*$/.test(only) ? `.${only}` : `[${JSON.stringify(only)}]`,
        message: `is not "transform", so this object is set as a literal value (did you mean \`transform\`?)`,
      });
  }
  return {
    form: { action: 'default', value: { literal: raw }, hasValueAndFormat: false, inner: '' },
    problems,
  };
}

function stringRule(raw: string, problems: FormProblem[]): RuleForm | undefined {
  if (!raw.startsWith('@'))
    return { action: 'default', format: raw, hasValueAndFormat: false, inner: '' };
  const space = raw.indexOf(' ');
  const verb = space < 0 ? raw.slice(1) : raw.slice(1, space);
  const rest = space < 0 ? '' : raw.slice(space + 1);
  switch (verb) {
    case 'remove':
      if (rest.trim() !== '') {
        problems.push({
          code: 'invalid_rule',
          severity: 'error',
          subPath: '',
          message: `"@remove" takes nothing after it, got ${JSON.stringify(rest)}`,
        });
        return undefined;
      }
      return { action: 'remove', hasValueAndFormat: false, inner: '' };
    case 'override':
    case 'default':
      return { action: verb, format: rest, hasValueAndFormat: false, inner: '' };
    default:
      problems.push({
        code: 'unknown_verb',
        severity: 'error',
        subPath: '',
        message: `unknown verb "@${verb}"${didYouMean(`@${verb}`, ['@remove', '@override', '@default'])} (known: "@remove", "@override <template>", "@default <template>"); to set a literal string starting with "@", write ${JSON.stringify({ transform: { value: raw } })}`,
      });
      return undefined;
  }
}

function transformRule(t: unknown, problems: FormProblem[]): RuleForm | undefined {
  const inner = '.transform';
  if (!isPlainObject(t)) {
    problems.push({
      code: 'invalid_rule',
      severity: 'error',
      subPath: inner,
      message: '"transform" must be an object {action, when, value | format}',
    });
    return undefined;
  }
  for (const k of Object.keys(t)) {
    if (!TRANSFORM_FIELDS.has(k)) {
      problems.push({
        code: 'unknown_field',
        severity: 'warning',
        subPath: `${inner}.${k}`,
        message: `unknown transform field "${k}" is ignored${didYouMean(k, TRANSFORM_FIELDS)} (expected action, when, value, format)`,
      });
    }
  }
  const actionRaw: unknown = Object.hasOwn(t, 'action') ? t['action'] : 'default';
  if (typeof actionRaw !== 'string' || !ACTIONS.has(actionRaw)) {
    problems.push({
      code: 'invalid_action',
      severity: 'error',
      subPath: `${inner}.action`,
      message: `unknown action ${JSON.stringify(actionRaw)} (expected default, override or remove)`,
    });
    return undefined;
  }
  const action = actionRaw as TransformAction;
  // Syllable's API writes unset `when` and `format` as null (OptionalNullable): null is absent.
  // A null `value` is a literal null unless a `format` is set (then it is the unset field).
  const hasFormat = Object.hasOwn(t, 'format') && t['format'] !== null;
  const hasValue = Object.hasOwn(t, 'value') && !(hasFormat && t['value'] === null);
  const formatRaw: unknown = t['format'];
  const when: unknown = Object.hasOwn(t, 'when') && t['when'] !== null ? t['when'] : undefined;
  const base = when === undefined ? {} : { when };
  if (hasFormat && typeof formatRaw !== 'string') {
    problems.push({
      code: 'invalid_rule',
      severity: 'error',
      subPath: `${inner}.format`,
      message: '"format" must be a string template',
    });
    return undefined;
  }
  if (hasValue && hasFormat) {
    problems.push({
      code: 'value_and_format',
      severity: 'error',
      subPath: inner,
      message: 'a rule has either "value" or "format", not both',
    });
    return { action, ...base, hasValueAndFormat: true, inner };
  }
  if (action === 'remove') {
    if (hasValue || hasFormat) {
      problems.push({
        code: 'ignored_value',
        severity: 'warning',
        subPath: inner,
        message: `"remove" ignores ${hasValue ? '"value"' : '"format"'}`,
      });
    }
    return { action, ...base, hasValueAndFormat: false, inner };
  }
  if (hasFormat)
    return { action, ...base, format: formatRaw as string, hasValueAndFormat: false, inner };
  if (hasValue)
    return { action, ...base, value: { literal: t['value'] }, hasValueAndFormat: false, inner };
  // Syllable's own examples carry such rules (a `when` alone); they set nothing, so the rule is
  // skipped with a warning rather than refused (docs/definitions.md, "Lenient loading").
  problems.push({
    code: 'no_value',
    severity: 'warning',
    subPath: inner,
    message: `"${action}" has no "value" or "format", so it sets nothing; the rule is ignored`,
  });
  return undefined;
}
