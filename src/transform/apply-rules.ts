/**
 * Applying compiled rules (SPEC §2): document order over the evolving arguments, copy-on-write of
 * the touched path only (the caller's arguments, context and the definition are never mutated),
 * one trace entry per rule.
 */
import { deepCopy, getOwn, isEmptyValue, isPlainObject, type PlainObject } from './own-data.js';
import type { Predicate } from './condition.js';
import type { CompiledTemplate } from './template.js';
import type { TransformAction, TransformContext, TransformOutcome, TransformTraceEntry } from './types.js';

/** One rule ready to run. */
export interface RuleProgram {
  readonly key: string;
  readonly action: TransformAction;
  readonly segments: readonly string[];
  readonly predicate: Predicate | undefined;
  readonly render: CompiledTemplate['render'] | undefined;
  /** The literal to write (copied on every write when it is an array or object). */
  readonly value?: unknown;
}

const NOT_AN_OBJECT = Symbol('not_an_object');

/** The parent object of the target as it stands, `undefined` if an intermediate is absent. */
function parentOf(root: PlainObject, segments: readonly string[]): PlainObject | undefined | typeof NOT_AN_OBJECT {
  let obj = root;
  for (let i = 0; i < segments.length - 1; i++) {
    const child = getOwn(obj, segments[i] as string);
    if (child === undefined) return undefined;
    if (!isPlainObject(child)) return NOT_AN_OBJECT;
    obj = child;
  }
  return obj;
}

/**
 * Writes (or deletes, when `remove`) the target, copying every intermediate object on the way
 * so objects shared with the caller are never touched. Intermediates were checked by `parentOf`.
 * Keys were validated at load (never `__proto__`), so plain assignment is safe here.
 */
function writePath(root: PlainObject, segments: readonly string[], value: unknown, remove: boolean): void {
  let obj = root;
  const last = segments.length - 1;
  for (let i = 0; i < last; i++) {
    const k = segments[i] as string;
    const child = getOwn(obj, k);
    const next: PlainObject = child === undefined ? {} : { ...(child as PlainObject) };
    obj[k] = next;
    obj = next;
  }
  const k = segments[last] as string;
  if (remove) delete obj[k];
  else obj[k] = value;
}

function skipped(rule: RuleProgram, reason: NonNullable<TransformTraceEntry['reason']>, detail?: string): TransformTraceEntry {
  return detail === undefined
    ? { key: rule.key, action: rule.action, outcome: 'skipped', reason }
    : { key: rule.key, action: rule.action, outcome: 'skipped', reason, detail };
}

/** Builds the `apply` function of a compiled rule set. */
export function makeApply(programs: readonly RuleProgram[]): (args: Readonly<Record<string, unknown>>, context?: TransformContext) => TransformOutcome {
  return (input, context) => {
    const args: PlainObject = { ...input };
    const trace: TransformTraceEntry[] = [];
    for (const rule of programs) {
      if (rule.predicate !== undefined && !rule.predicate(args, context)) {
        trace.push(skipped(rule, 'when_false'));
        continue;
      }
      const segments = rule.segments;
      const parent = segments.length === 1 ? args : parentOf(args, segments);
      if (parent === NOT_AN_OBJECT) {
        trace.push(skipped(rule, 'not_an_object', `an intermediate of "${rule.key}" is not an object`));
        continue;
      }
      const last = segments[segments.length - 1] as string;
      if (rule.action === 'remove') {
        if (parent === undefined || !Object.hasOwn(parent, last)) {
          trace.push(skipped(rule, 'absent'));
          continue;
        }
        writePath(args, segments, undefined, true);
        trace.push({ key: rule.key, action: 'remove', outcome: 'applied' });
        continue;
      }
      if (rule.action === 'default' && parent !== undefined && !isEmptyValue(getOwn(parent, last))) {
        trace.push(skipped(rule, 'not_empty'));
        continue;
      }
      let value: unknown;
      if (rule.render !== undefined) {
        const out = rule.render(args, context);
        if (typeof out !== 'string') {
          const detail =
            out.kind === 'missing'
              ? `template field {${out.field}} names a missing value`
              : `template field {${out.field}} cannot be rendered: ${out.message}`;
          if (context?.onMissingTemplateValue === 'error') {
            return { ok: false, code: 'missing_template_value', message: `cannot set "${rule.key}": ${detail}`, trace };
          }
          trace.push(skipped(rule, out.kind === 'missing' ? 'missing_value' : 'format_error', detail));
          continue;
        }
        value = out;
      } else {
        const literal = rule.value;
        value = literal !== null && typeof literal === 'object' ? deepCopy(literal) : literal;
      }
      writePath(args, segments, value, false);
      trace.push({ key: rule.key, action: rule.action, outcome: 'applied', value });
    }
    return { ok: true, args, trace };
  };
}
