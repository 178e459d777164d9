/**
 * Applying compiled rules (SPEC §2): document order over the evolving arguments, one trace entry
 * per rule. Each rule is compiled into a step closure specialised for its key depth, so the hot
 * path does no parsing, no regular expressions and no generic path walking for the common
 * `key` / `a.b` forms.
 *
 * Copy-on-write: the caller's argument object is copied on the first write only, and an
 * intermediate object is copied the first time a rule writes under it (later rules reuse that
 * copy). Nothing reachable from the caller's arguments, the context or the definition is ever
 * mutated. `remove` rebuilds the parent without the key rather than using `delete`, which would
 * push the object into V8's slow dictionary mode.
 */
import { copyWithout, deepCopy, isEmptyValue, isPlainObject, ownValue, shallowCopy, type PlainObject } from './own-data.js';
import type { Predicate } from './condition.js';
import type { CompiledTemplate, RenderFailure } from './template.js';
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

/** Mutable state of one application; every object in `owned` was created by this application. */
interface ApplyState {
  args: PlainObject;
  rootOwned: boolean;
  owned: object[] | undefined;
  readonly context: TransformContext | undefined;
  readonly trace: TransformTraceEntry[];
}

/** A compiled rule: records its trace entry; returns an outcome only to stop (error policy). */
type Step = (state: ApplyState) => TransformOutcome | undefined;

function ownRoot(state: ApplyState): PlainObject {
  if (!state.rootOwned) {
    state.args = shallowCopy(state.args);
    state.rootOwned = true;
  }
  return state.args;
}

/** `child` (a plain object under `parent[key]`, or absent) as an object this application owns. */
function ownChild(state: ApplyState, parent: PlainObject, key: string, child: unknown): PlainObject {
  if (child !== undefined && state.owned !== undefined && state.owned.includes(child as object)) return child as PlainObject;
  const copy = child === undefined ? {} : shallowCopy(child as PlainObject);
  if (state.owned === undefined) state.owned = [copy];
  else state.owned.push(copy);
  parent[key] = copy;
  return copy;
}

/** Rebuilds `parent` (reached through `path` from the root) without `key`. */
function removeKey(state: ApplyState, path: readonly string[], key: string): void {
  if (path.length === 0) {
    state.args = copyWithout(state.args, key);
    state.rootOwned = true;
    return;
  }
  let obj = ownRoot(state);
  for (let i = 0; i < path.length - 1; i++) {
    const seg = path[i] as string;
    obj = ownChild(state, obj, seg, ownValue(obj, seg));
  }
  const last = path[path.length - 1] as string;
  const without = copyWithout(ownValue(obj, last) as PlainObject, key);
  (state.owned ??= []).push(without);
  obj[last] = without;
}

function failureDetail(out: RenderFailure): string {
  return out.kind === 'missing'
    ? `template field {${out.field}} names a missing value`
    : `template field {${out.field}} cannot be rendered: ${out.message}`;
}

/** Compiles one rule into a step. Keys were validated at load (never `__proto__`). */
function compileStep(rule: RuleProgram): Step {
  const { key, action, predicate, render } = rule;
  const segments = rule.segments;
  const parentPath = segments.slice(0, -1);
  const last = segments[segments.length - 1] as string;
  const whenFalse: TransformTraceEntry = Object.freeze({ key, action, outcome: 'skipped', reason: 'when_false' });
  const notEmpty: TransformTraceEntry = Object.freeze({ key, action, outcome: 'skipped', reason: 'not_empty' });
  const absent: TransformTraceEntry = Object.freeze({ key, action, outcome: 'skipped', reason: 'absent' });
  const removed: TransformTraceEntry = Object.freeze({ key, action, outcome: 'applied' });
  const notAnObject: TransformTraceEntry = Object.freeze({
    key,
    action,
    outcome: 'skipped',
    reason: 'not_an_object',
    detail: `an intermediate of "${key}" is not an object`,
  });
  const literal = rule.value;
  const literalIsObject = literal !== null && typeof literal === 'object';

  const depth = parentPath.length;
  const first = parentPath[0] as string;

  /** The parent object as it stands; `undefined` if an intermediate is absent, `null` if one is not an object. */
  const readParent = (args: PlainObject): PlainObject | undefined | null => {
    if (depth === 0) return args;
    let obj = args;
    for (let i = 0; i < depth; i++) {
      const child = ownValue(obj, parentPath[i] as string);
      if (child === undefined) return undefined;
      if (!isPlainObject(child)) return null;
      obj = child;
    }
    return obj;
  };

  /** Writes under the parent path, copying intermediates this application does not own yet. */
  const write = (state: ApplyState, value: unknown): void => {
    const root = ownRoot(state);
    if (depth === 0) {
      root[last] = value;
      return;
    }
    let obj = ownChild(state, root, first, ownValue(root, first));
    for (let i = 1; i < depth; i++) {
      const seg = parentPath[i] as string;
      obj = ownChild(state, obj, seg, ownValue(obj, seg));
    }
    obj[last] = value;
  };

  return (state) => {
    const args = state.args;
    if (predicate !== undefined && !predicate(args, state.context)) {
      state.trace.push(whenFalse);
      return undefined;
    }
    const parent = readParent(args);
    if (parent === null) {
      state.trace.push(notAnObject);
      return undefined;
    }
    if (action === 'remove') {
      if (parent === undefined || !Object.hasOwn(parent, last)) state.trace.push(absent);
      else {
        removeKey(state, parentPath, last);
        state.trace.push(removed);
      }
      return undefined;
    }
    if (action === 'default' && parent !== undefined && !isEmptyValue(ownValue(parent, last))) {
      state.trace.push(notEmpty);
      return undefined;
    }
    let value: unknown;
    if (render !== undefined) {
      const out = render(args, state.context);
      if (typeof out !== 'string') {
        const detail = failureDetail(out);
        if (state.context?.onMissingTemplateValue === 'error') {
          return { ok: false, code: 'missing_template_value', message: `cannot set "${key}": ${detail}`, trace: state.trace };
        }
        state.trace.push({ key, action, outcome: 'skipped', reason: out.kind === 'missing' ? 'missing_value' : 'format_error', detail });
        return undefined;
      }
      value = out;
    } else value = literalIsObject ? deepCopy(literal) : literal;
    write(state, value);
    state.trace.push({ key, action, outcome: 'applied', value });
    return undefined;
  };
}

/** Builds the `apply` function of a compiled rule set. */
export function makeApply(programs: readonly RuleProgram[]): (args: Readonly<Record<string, unknown>>, context?: TransformContext) => TransformOutcome {
  const steps = programs.map(compileStep);
  return (input, context) => {
    const state: ApplyState = { args: input as PlainObject, rootOwned: false, owned: undefined, context, trace: [] };
    for (let i = 0; i < steps.length; i++) {
      const stop = (steps[i] as Step)(state);
      if (stop !== undefined) return stop;
    }
    return { ok: true, args: state.rootOwned ? state.args : shallowCopy(state.args), trace: state.trace };
  };
}
