/**
 * Applying compiled rules (docs/transform.md): document order over the evolving arguments, one trace entry
 * per rule. Each rule is compiled into a step closure, so the hot path does no parsing, no
 * regular expressions and no generic dispatch on the rule's form.
 *
 * Copy-on-write: root-level changes go to the {@link ArgsView} overlay and the result is built
 * once at the end; an intermediate object is copied the first time a rule writes under it (later
 * rules reuse that copy). Nothing reachable from the caller's arguments, the context or the
 * definition is ever mutated. Removing a nested key rebuilds its parent rather than using
 * `delete`, which would push the object into V8's slow dictionary mode.
 */
import {
  hasArg,
  keyBit,
  materialize,
  ownedArg,
  ownedAt,
  readArg,
  removeAt,
  setArg,
  setAt,
  slot,
  valueAt,
  type ArgsView,
} from './args-view.js';
import {
  copyWithout,
  deepCopy,
  isEmptyValue,
  isPlainObject,
  ownValue,
  shallowCopy,
  type PlainObject,
} from '../own-data.js';
import type { Predicate } from './condition.js';
import type { RenderFailure, ViewTemplate } from './template.js';
import type {
  TransformAction,
  TransformContext,
  TransformOutcome,
  TransformTraceEntry,
} from './types.js';

/** One rule ready to run. */
export interface RuleProgram {
  readonly key: string;
  readonly action: TransformAction;
  readonly segments: readonly string[];
  readonly predicate: Predicate | undefined;
  readonly render: ViewTemplate['renderView'] | undefined;
  /** The literal to write (copied on every write when it is an array or object). */
  readonly value?: unknown;
}

/**
 * Mutable state of one application; it is also the {@link ArgsView} of the evolving arguments.
 * Every object in `owned` (below the root level) was created by this application.
 */
interface ApplyState extends ArgsView {
  owned: object[] | undefined;
  readonly context: TransformContext | undefined;
  /** The trace so far (read when a step stops the application). */
  readonly trace: TransformTraceEntry[];
  stop: TransformOutcome | undefined;
}

/** A compiled rule: returns its trace entry, or `undefined` after setting `state.stop` (error policy). */
type Step = (state: ApplyState) => TransformTraceEntry | undefined;

function isOwned(state: ApplyState, value: unknown): boolean {
  return state.owned !== undefined && state.owned.includes(value as object);
}

function own(state: ApplyState, copy: PlainObject): PlainObject {
  if (state.owned === undefined) state.owned = [copy];
  else state.owned.push(copy);
  return copy;
}

/**
 * The object at `path` (non-empty), made owned by this application along the way: absent
 * intermediates are created, foreign ones copied. `path` was checked to hold objects or nothing.
 */
function ownPath(state: ApplyState, path: readonly string[]): PlainObject {
  const first = path[0] as string;
  let obj = ownedArg(state, first);
  if (obj === undefined) {
    const child = readArg(state, first);
    obj = child === undefined ? {} : shallowCopy(child as PlainObject);
    setArg(state, first, obj, true);
  }
  for (let i = 1; i < path.length; i++) {
    const seg = path[i] as string;
    const child = ownValue(obj, seg);
    if (child !== undefined && isOwned(state, child)) obj = child as PlainObject;
    else {
      const next = own(state, child === undefined ? {} : shallowCopy(child as PlainObject));
      obj[seg] = next;
      obj = next;
    }
  }
  return obj;
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
  const grandPath = segments.slice(0, -2);
  const parentKey = segments[segments.length - 2] as string;
  const last = segments[segments.length - 1] as string;
  const depth = parentPath.length;
  const first = segments[0] as string;
  const firstBit = keyBit(first);
  const whenFalse: TransformTraceEntry = Object.freeze({
    key,
    action,
    outcome: 'skipped',
    reason: 'when_false',
  });
  const notEmpty: TransformTraceEntry = Object.freeze({
    key,
    action,
    outcome: 'skipped',
    reason: 'not_empty',
  });
  const absent: TransformTraceEntry = Object.freeze({
    key,
    action,
    outcome: 'skipped',
    reason: 'absent',
  });
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
  // A literal that is not an object is written as it is: its trace entry is the same every time.
  const appliedLiteral: TransformTraceEntry | undefined =
    render === undefined && !literalIsObject
      ? Object.freeze({ key, action, outcome: 'applied', value: literal })
      : undefined;

  /**
   * The parent object below the root value as it stands; `undefined` if an intermediate is
   * absent, `null` if one is not an object.
   */
  const readParent = (root: unknown): PlainObject | undefined | null => {
    if (root === undefined) return undefined;
    if (!isPlainObject(root)) return null;
    let obj = root;
    for (let i = 1; i < depth; i++) {
      const child = ownValue(obj, parentPath[i] as string);
      if (child === undefined) return undefined;
      if (!isPlainObject(child)) return null;
      obj = child;
    }
    return obj;
  };

  /** Writes the value; `at` is the root key's slot, `root` its value, `parent` the parent object. */
  const write = (
    state: ApplyState,
    at: number,
    root: unknown,
    parent: PlainObject | undefined,
    value: unknown,
  ): void => {
    if (depth === 0) setAt(state, at, first, value, false, root !== undefined, firstBit);
    else if (depth > 1) ownPath(state, parentPath)[last] = value;
    else if (parent === undefined)
      setAt(state, at, first, { [last]: value }, true, root !== undefined, firstBit);
    else if (ownedAt(state, at)) parent[last] = value;
    else {
      const copy = shallowCopy(root as PlainObject);
      copy[last] = value;
      setAt(state, at, first, copy, true, true, firstBit);
    }
  };

  const remove = (state: ApplyState, at: number, root: unknown): void => {
    if (depth === 0) removeAt(state, at, first, firstBit);
    else if (depth === 1)
      setAt(state, at, first, copyWithout(root as PlainObject, last), true, true, firstBit);
    else {
      const grand = ownPath(state, grandPath);
      grand[parentKey] = own(state, copyWithout(ownValue(grand, parentKey) as PlainObject, last));
    }
  };

  return (state) => {
    if (predicate !== undefined && !predicate(state, state.context)) return whenFalse;
    const at = slot(state, first, firstBit);
    const root = valueAt(state, at, first);
    let current: unknown;
    let parent: PlainObject | undefined;
    if (depth === 0) current = root;
    else {
      const p = readParent(root);
      if (p === null) return notAnObject;
      parent = p;
      current = p === undefined ? undefined : ownValue(p, last);
    }
    if (action === 'remove') {
      if (current === undefined && (depth > 0 || !hasArg(state, last))) return absent;
      remove(state, at, root);
      return removed;
    }
    if (action === 'default' && !isEmptyValue(current)) return notEmpty;
    let value: unknown;
    if (render !== undefined) {
      const out = render(state, state.context);
      if (typeof out !== 'string') {
        const detail = failureDetail(out);
        if (state.context?.onMissingTemplateValue === 'error') {
          state.stop = {
            ok: false,
            code: 'missing_template_value',
            message: `cannot set "${key}": ${detail}`,
            trace: state.trace,
          };
          return undefined;
        }
        return {
          key,
          action,
          outcome: 'skipped',
          reason: out.kind === 'missing' ? 'missing_value' : 'format_error',
          detail,
        };
      }
      value = out;
    } else value = literalIsObject ? deepCopy(literal) : literal;
    write(state, at, root, parent, value);
    return appliedLiteral ?? { key, action, outcome: 'applied', value };
  };
}

/** Builds the `apply` function of a compiled rule set. */
export function makeApply(
  programs: readonly RuleProgram[],
): (args: Readonly<Record<string, unknown>>, context?: TransformContext) => TransformOutcome {
  const steps = programs.map(compileStep);
  return (input, context) => {
    const trace: TransformTraceEntry[] = [];
    const state: ApplyState = {
      input: input as PlainObject,
      overlay: undefined,
      mask: 0,
      touched: 0,
      owned: undefined,
      context,
      trace,
      stop: undefined,
    };
    for (let i = 0; i < steps.length; i++) {
      const entry = (steps[i] as Step)(state);
      if (entry === undefined) return state.stop as TransformOutcome;
      trace.push(entry);
    }
    return { ok: true, args: materialize(state), trace };
  };
}
