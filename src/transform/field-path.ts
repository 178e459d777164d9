/**
 * Field paths: the `name`, `params.name`, `vars.x`, `a.b`, `a[0]` part of a template field, and
 * the `key` of a `when` condition. Parsed once at load; resolved at call time by walking own data
 * only (plain objects and arrays) — no prototypes, getters, methods, `length`, or string indexing.
 */
import type { SessionSystemValues, TransformContext } from './types.js';
import { keyBit, materialize, readArg, type ArgsView } from './args-view.js';
import { getOwn, isPlainObject, type PlainObject } from '../own-data.js';

/** Segments refused anywhere in a key, a `when.key` or a template path. */
export const FORBIDDEN_SEGMENTS: ReadonlySet<string> = new Set([
  '__proto__',
  'prototype',
  'constructor',
]);

/**
 * Cap on the segments of a dotted `defaults` key, a `when.key` or a template field path: 32.
 * Nothing real nests that far, and a 3000-segment key would be walked on every call.
 */
export const MAX_PATH_SEGMENTS = 32;

/** One step of a path. `index` is the array index when the segment is a canonical integer, else -1. */
export interface PathSegment {
  readonly key: string;
  readonly index: number;
  /** Written as `[key]` rather than `.key`. */
  readonly bracket: boolean;
}

/** A parsed field name, or the reason it is malformed (with an offset into the field text). */
export type ParsedField =
  | { readonly ok: true; readonly segments: readonly PathSegment[] }
  | { readonly ok: false; readonly message: string; readonly offset: number };

function segment(key: string, bracket: boolean): PathSegment {
  return { key, index: /^(0|[1-9][0-9]{0,8})$/.test(key) ? Number(key) : -1, bracket };
}

/**
 * Parses a Python `str.format` field name: `arg_name ("." attr | "[" index "]")*`.
 * Refuses empty parts and the forbidden segments.
 */
export function parseFieldName(text: string): ParsedField {
  const segments: PathSegment[] = [];
  let i = 0;
  const readName = (): string => {
    const start = i;
    while (i < text.length && text[i] !== '.' && text[i] !== '[') i++;
    return text.slice(start, i);
  };
  const first = readName();
  if (first === '')
    return {
      ok: false,
      message: 'empty field name (positional fields are not supported; name a parameter)',
      offset: 0,
    };
  if (/^[0-9]+$/.test(first))
    return {
      ok: false,
      message: `positional field "${first}" is not supported; name a parameter`,
      offset: 0,
    };
  segments.push(segment(first, false));
  while (i < text.length) {
    const c = text[i];
    if (c === '.') {
      i++;
      const at = i;
      const name = readName();
      if (name === '') return { ok: false, message: 'empty attribute in field name', offset: at };
      segments.push(segment(name, false));
    } else if (c === '[') {
      const at = ++i;
      const close = text.indexOf(']', i);
      if (close < 0) return { ok: false, message: "missing ']' in field name", offset: at - 1 };
      const name = text.slice(i, close);
      if (name === '') return { ok: false, message: 'empty index in field name', offset: at };
      segments.push(segment(name, true));
      i = close + 1;
      if (i < text.length && text[i] !== '.' && text[i] !== '[') {
        return { ok: false, message: "only '.' or '[' may follow ']' in a field name", offset: i };
      }
    } else {
      return {
        ok: false,
        message: `unexpected character ${JSON.stringify(c)} in field name`,
        offset: i,
      };
    }
  }
  if (segments.length > MAX_PATH_SEGMENTS) {
    return {
      ok: false,
      message: `field name has ${segments.length} segments; at most ${MAX_PATH_SEGMENTS} are allowed`,
      offset: 0,
    };
  }
  for (const s of segments) {
    if (FORBIDDEN_SEGMENTS.has(s.key)) {
      return {
        ok: false,
        message: `the segment "${s.key}" is not allowed (prototype access)`,
        offset: 0,
      };
    }
  }
  return { ok: true, segments };
}

/** Reads one segment of own data; `undefined` when absent or not reachable. */
export function step(value: unknown, seg: PathSegment): unknown {
  if (value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    const i = seg.index;
    return i >= 0 && i < value.length && Object.hasOwn(value, i)
      ? (value[i] as unknown)
      : undefined;
  }
  return isPlainObject(value) ? getOwn(value, seg.key) : undefined;
}

function walk(value: unknown, segs: readonly PathSegment[], from: number): unknown {
  let v = value;
  for (let i = from; i < segs.length && v !== undefined; i++) v = step(v, segs[i] as PathSegment);
  return v;
}

/** Resolves a field against the arguments and context; `undefined` means missing. */
export type FieldResolver = (args: ArgsView, context: TransformContext | undefined) => unknown;

/** Which namespace a field reads. */
export type FieldRoot = 'args' | 'vars';

/** How a parsed field resolves, plus its lint name (`name`, `params.name`, `vars.x`). */
export interface CompiledField {
  readonly root: FieldRoot;
  /** As the loader's lint wants it: `name`, `params.name`, or the dotted `vars.…` path. */
  readonly lintName: string;
  readonly resolve: FieldResolver;
}

const SESSION_KEYS: ReadonlySet<keyof SessionSystemValues> = new Set([
  'id',
  'language',
  'datetime',
  'date',
  'day_of_week',
  'timezone',
  'source',
  'target',
] as const);

/**
 * Compiles the resolution of a parsed field.
 *
 * - `params` alone is the whole argument object; `params.x…` is argument `x…`.
 * - `vars.a.b…`: `vars.session.<name>` first reads `context.session` (system values win); then
 *   flat keys of `context.vars`, longest first (`"vars.a.b"`, then `"vars.a"` walking `.b`);
 *   then the nested path `a.b` walked from `context.vars` (variables stored without the prefix).
 * - anything else is an argument path.
 */
export function compileField(
  segments: readonly PathSegment[],
): CompiledField | { readonly error: string } {
  const head = segments[0];
  if (head === undefined) return { error: 'empty field' };
  if (head.key === 'vars' && !head.bracket) {
    if (segments.length < 2) return { error: 'name a variable: {vars.<name>}' };
    return {
      root: 'vars',
      lintName: dottedPrefix(segments),
      resolve: compileVars(segments.slice(1)),
    };
  }
  if (head.key === 'params' && segments.length === 1) {
    return { root: 'args', lintName: 'params', resolve: (args) => materialize(args) };
  }
  const rest = head.key === 'params' ? segments.slice(1) : segments;
  const lintName = head.key === 'params' ? `params.${(rest[0] as PathSegment).key}` : head.key;
  const [first, ...more] = rest as [PathSegment, ...PathSegment[]];
  if (more.length === 0) {
    const key = first.key;
    const bit = keyBit(key);
    return { root: 'args', lintName, resolve: (args) => readArg(args, key, bit) };
  }
  const firstKey = first.key;
  const firstBit = keyBit(firstKey);
  return {
    root: 'args',
    lintName,
    resolve: (args) => walk(readArg(args, firstKey, firstBit), more, 0),
  };
}

function dottedPrefix(segments: readonly PathSegment[]): string {
  const parts: string[] = [];
  for (const s of segments) {
    if (s.bracket) break;
    parts.push(s.key);
  }
  return parts.join('.');
}

function compileVars(segs: readonly PathSegment[]): FieldResolver {
  let attrs = 0;
  while (attrs < segs.length && !(segs[attrs] as PathSegment).bracket) attrs++;
  const flat: { key: string; from: number }[] = [];
  for (let n = attrs; n >= 1; n--) {
    flat.push({
      key: `vars.${segs
        .slice(0, n)
        .map((s) => s.key)
        .join('.')}`,
      from: n,
    });
  }
  const first = segs[0] as PathSegment;
  const sessionKey =
    first.key === 'session' &&
    segs.length >= 2 &&
    SESSION_KEYS.has((segs[1] as PathSegment).key as keyof SessionSystemValues)
      ? ((segs[1] as PathSegment).key as keyof SessionSystemValues)
      : undefined;
  if (flat.length === 1 && segs.length === 1 && sessionKey === undefined) {
    // The common `{vars.x}`: one flat key, then the unprefixed key.
    const flatKey = (flat[0] as { key: string }).key;
    const plain = first.key;
    return (_args, context) => {
      const vars = context?.vars;
      if (vars === undefined) return undefined;
      const v = getOwn(vars, flatKey);
      return v !== undefined ? v : getOwn(vars, plain);
    };
  }
  return (_args, context) => {
    if (sessionKey !== undefined && context?.session !== undefined) {
      const v = walk(getOwn(context.session as PlainObject, sessionKey), segs, 2);
      if (v !== undefined) return v;
    }
    const vars = context?.vars;
    if (vars === undefined) return undefined;
    for (const f of flat) {
      if (Object.hasOwn(vars, f.key)) {
        const v = walk(getOwn(vars, f.key), segs, f.from);
        if (v !== undefined) return v;
      }
    }
    return walk(vars, segs, 0);
  };
}
