/**
 * `when` conditions: compiled once into predicates over the evolving arguments and the session
 * variables. Comparisons are on string forms, so `5` matches `"5"` and `true` matches `"true"`.
 * No regular expressions (no ReDoS surface).
 */
import { compileField, parseFieldName } from './field-path.js';
import type { ArgsView } from './args-view.js';
import { getOwn, isPlainObject } from '../own-data.js';
import { numberText } from './python-text.js';
import type { Condition, TransformContext, WhenOperator } from './types.js';

/** A compiled condition. */
export type Predicate = (args: ArgsView, context: TransformContext | undefined) => boolean;

/** A problem in a `when`, with the path below the `when` (`.key`, `.all[1].operator`). */
export interface ConditionProblem {
  readonly code: 'invalid_when' | 'forbidden_segment';
  readonly subPath: string;
  readonly message: string;
}

export interface CompiledCondition {
  readonly condition: Condition;
  readonly predicate: Predicate;
  readonly keys: readonly string[];
}

const OPERATORS: ReadonlySet<string> = new Set([
  'eq',
  'ne',
  'in',
  'not_in',
  'exists',
  'not_exists',
]);

/**
 * The string form a scalar is compared in: strings as is, numbers as Python prints them (`5`,
 * `2.5`), booleans `true`/`false`, null `null`. Arrays and objects have none (compared as JSON).
 */
function scalarForm(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
      return numberText(value);
    case 'boolean':
      return value ? 'true' : 'false';
    default:
      return value === null ? 'null' : undefined;
  }
}

/** Python spellings accepted as well: `True`/`False` for booleans, `None` for null. */
function pythonForm(value: unknown): string | undefined {
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  return value === null ? 'None' : undefined;
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isPlainObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(getOwn(value, k))}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Equality of an argument (`actual`, never undefined) with a condition value, precompiled. */
function equalsTo(expected: unknown): (actual: unknown) => boolean {
  const form = scalarForm(expected);
  if (form === undefined) {
    const json = canonicalJson(expected);
    return (actual) =>
      actual !== null && typeof actual === 'object' && canonicalJson(actual) === json;
  }
  return (actual) => {
    const f = typeof actual === 'string' ? actual : scalarForm(actual);
    return f === form || (f !== undefined && pythonForm(actual) === form);
  };
}

/** Compiles a `when` value (an object, `{all:[…]}`, `{any:[…]}`, or a list meaning `all`). */
export function compileCondition(raw: unknown, subPath = ''): CompiledCondition | ConditionProblem {
  if (Array.isArray(raw)) return compileList('all', raw, subPath);
  if (!isPlainObject(raw))
    return {
      code: 'invalid_when',
      subPath,
      message: 'a condition must be an object {key, operator, value}',
    };
  const hasAll = Object.hasOwn(raw, 'all');
  const hasAny = Object.hasOwn(raw, 'any');
  if (hasAll || hasAny) {
    if (hasAll && hasAny)
      return { code: 'invalid_when', subPath, message: 'use either "all" or "any", not both' };
    const which = hasAll ? 'all' : 'any';
    const list: unknown = raw[which];
    if (!Array.isArray(list))
      return {
        code: 'invalid_when',
        subPath: `${subPath}.${which}`,
        message: `"${which}" must be a list of conditions`,
      };
    return compileList(which, list, `${subPath}.${which}`);
  }
  for (const k of Object.keys(raw)) {
    if (k !== 'key' && k !== 'operator' && k !== 'value') {
      return {
        code: 'invalid_when',
        subPath: `${subPath}.${k}`,
        message: `unknown field "${k}" (expected key, operator, value, all or any)`,
      };
    }
  }
  const key: unknown = raw['key'];
  if (typeof key !== 'string' || key === '')
    return {
      code: 'invalid_when',
      subPath: `${subPath}.key`,
      message: 'the condition needs a "key" (a parameter path or vars.<name>)',
    };
  // Syllable's API writes an unset operator as null (OptionalNullable, default "eq").
  const operatorRaw: unknown =
    Object.hasOwn(raw, 'operator') && raw['operator'] !== null ? raw['operator'] : 'eq';
  if (typeof operatorRaw !== 'string' || !OPERATORS.has(operatorRaw)) {
    return {
      code: 'invalid_when',
      subPath: `${subPath}.operator`,
      message: `unknown operator ${JSON.stringify(operatorRaw)} (expected one of ${[...OPERATORS].join('|')})`,
    };
  }
  const operator = operatorRaw as WhenOperator;
  const parsed = parseFieldName(key);
  if (!parsed.ok) {
    return {
      code: parsed.message.includes('not allowed') ? 'forbidden_segment' : 'invalid_when',
      subPath: `${subPath}.key`,
      message: `${parsed.message} in ${JSON.stringify(key)}`,
    };
  }
  const field = compileField(parsed.segments);
  if ('error' in field)
    return { code: 'invalid_when', subPath: `${subPath}.key`, message: field.error };
  const hasValue = Object.hasOwn(raw, 'value');
  const value: unknown = raw['value'];
  const resolve = field.resolve;
  let predicate: Predicate;
  switch (operator) {
    case 'eq':
    case 'ne': {
      if (!hasValue)
        return {
          code: 'invalid_when',
          subPath: `${subPath}.value`,
          message: `operator "${operator}" needs a "value"`,
        };
      const eq = equalsTo(value);
      predicate =
        operator === 'eq'
          ? (args, ctx) => {
              const v = resolve(args, ctx);
              return v !== undefined && eq(v);
            }
          : (args, ctx) => {
              const v = resolve(args, ctx);
              return v === undefined || !eq(v);
            };
      break;
    }
    case 'in':
    case 'not_in': {
      if (!Array.isArray(value))
        return {
          code: 'invalid_when',
          subPath: `${subPath}.value`,
          message: `operator "${operator}" needs a list "value"`,
        };
      const tests = value.map(equalsTo);
      const member = (v: unknown): boolean => v !== undefined && tests.some((t) => t(v));
      predicate =
        operator === 'in'
          ? (args, ctx) => member(resolve(args, ctx))
          : (args, ctx) => !member(resolve(args, ctx));
      break;
    }
    case 'exists':
      predicate = (args, ctx) => {
        const v = resolve(args, ctx);
        return v !== undefined && v !== null;
      };
      break;
    case 'not_exists':
      predicate = (args, ctx) => {
        const v = resolve(args, ctx);
        return v === undefined || v === null;
      };
      break;
    default: {
      const exhaustive: never = operator;
      throw new Error(`unreachable operator ${String(exhaustive)}`);
    }
  }
  const condition: Condition = hasValue
    ? { kind: 'compare', key, operator, value }
    : { kind: 'compare', key, operator };
  return { condition, predicate, keys: [key] };
}

function compileList(
  which: 'all' | 'any',
  list: readonly unknown[],
  subPath: string,
): CompiledCondition | ConditionProblem {
  const compiled: CompiledCondition[] = [];
  for (let i = 0; i < list.length; i++) {
    const c = compileCondition(list[i], `${subPath}[${i}]`);
    if ('code' in c) return c;
    compiled.push(c);
  }
  const predicates = compiled.map((c) => c.predicate);
  const predicate: Predicate =
    which === 'all'
      ? (args, ctx) => predicates.every((p) => p(args, ctx))
      : (args, ctx) => predicates.some((p) => p(args, ctx));
  return {
    condition: { kind: which, conditions: compiled.map((c) => c.condition) },
    predicate,
    keys: compiled.flatMap((c) => c.keys),
  };
}
