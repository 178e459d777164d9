/**
 * Pipeline data references: `$name` (a pipeline variable), `@stepId.path.to.value` (an earlier
 * step's outcome) in step `inputs`, and `.result.field` in step `outputs`. A path walks own
 * properties of plain objects and array indices only; a segment that is absent makes the whole
 * reference missing (never `undefined` passed on silently).
 */
import { getOwn, isPlainObject } from '../own-data.js';

/** A reference found in a step's inputs. */
export type Reference =
  | { readonly kind: 'variable'; readonly name: string }
  | { readonly kind: 'step'; readonly step: string; readonly path: readonly string[] };

const VARIABLE = /^\$([A-Za-z_][A-Za-z0-9_]*)$/;
const STEP = /^@([A-Za-z_][\w-]*)((?:\.[^.]+)*)$/;
/** `.result.field`: one or more non-empty segments after dots. */
const OUTPUT_PATH = /^(?:\.[^.]+)+$/;

/** The reference a string is, or undefined for a literal (only whole-string forms are references). */
export function parseReference(value: string): Reference | undefined {
  const v = VARIABLE.exec(value);
  if (v !== null) return { kind: 'variable', name: v[1] as string };
  const s = STEP.exec(value);
  if (s !== null) return { kind: 'step', step: s[1] as string, path: splitPath(s[2] as string) };
  return undefined;
}

/** The segments of an output path (`.result.items.0`), or undefined when it is not one. */
export function parseOutputPath(path: string): readonly string[] | undefined {
  return OUTPUT_PATH.test(path) ? splitPath(path) : undefined;
}

function splitPath(path: string): string[] {
  return path === '' ? [] : path.slice(1).split('.');
}

/** Every reference in a value (strings at any depth of objects and arrays), with its place. */
export function referencesIn(value: unknown, at: string): { ref: Reference; at: string }[] {
  if (typeof value === 'string') {
    const ref = parseReference(value);
    return ref === undefined ? [] : [{ ref, at }];
  }
  if (Array.isArray(value)) return value.flatMap((v, i) => referencesIn(v, `${at}[${i}]`));
  if (isPlainObject(value))
    return Object.keys(value).flatMap((k) => referencesIn(getOwn(value, k), `${at}.${k}`));
  return [];
}

/** The value at `path` under `root`, or `{ missing }` naming the first absent segment. */
export function walk(
  root: unknown,
  path: readonly string[],
): { readonly value: unknown } | { readonly missing: string } {
  let here = root;
  for (let i = 0; i < path.length; i++) {
    const key = path[i] as string;
    let next: unknown;
    if (Array.isArray(here) && /^(0|[1-9]\d*)$/.test(key) && Number(key) < here.length)
      next = here[Number(key)];
    else if (isPlainObject(here) && Object.hasOwn(here, key)) next = getOwn(here, key);
    else return { missing: `.${path.slice(0, i + 1).join('.')}` };
    here = next;
  }
  return { value: here };
}

/**
 * `inputs` with every reference replaced by its value. Throws {@link MissingReference} for a
 * variable or path that is not there.
 */
export function resolveInputs(
  inputs: unknown,
  variables: ReadonlyMap<string, unknown>,
  outcomes: ReadonlyMap<string, unknown>,
  at = 'inputs',
): unknown {
  if (typeof inputs === 'string') {
    const ref = parseReference(inputs);
    if (ref === undefined) return inputs;
    if (ref.kind === 'variable') {
      if (!variables.has(ref.name))
        throw new MissingReference(`${at}: variable $${ref.name} has no value`);
      return variables.get(ref.name);
    }
    const found = walk(outcomes.get(ref.step), ref.path);
    if ('missing' in found)
      throw new MissingReference(`${at}: ${inputs} — step ${ref.step} has no ${found.missing}`);
    return found.value;
  }
  if (Array.isArray(inputs))
    return inputs.map((v, i) => resolveInputs(v, variables, outcomes, `${at}[${i}]`));
  if (isPlainObject(inputs)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(inputs))
      Object.defineProperty(out, k, {
        value: resolveInputs(getOwn(inputs, k), variables, outcomes, `${at}.${k}`),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return out;
  }
  return inputs;
}

/** A `$variable` or `@step.path` with no value at run time (code `missing_input`). */
export class MissingReference extends Error {
  override readonly name = 'MissingReference';
}
