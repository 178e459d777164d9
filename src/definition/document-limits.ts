/**
 * Limits a tools document must meet before anything else reads it: nesting depth (every later
 * stage may recurse: zod, structuredClone, ajv's compiler), size with YAML aliases (or shared
 * references) expanded, and no cycles. One iterative walk per definition, memoised by object
 * identity, so an alias used 60 times is measured once and counted 60 times.
 */

/** Default cap on a tools file and on its definitions with aliases expanded, bytes: 5 MiB. */
export const DEFAULT_MAX_FILE_BYTES = 5 * 1024 * 1024;
/** Cap on nesting inside one definition (the definition itself is level 1): 64. */
export const MAX_DEFINITION_DEPTH = 64;

/** Size (bytes of its minified JSON, roughly) and height (levels of objects and lists). */
export interface ValueSize {
  readonly bytes: number;
  readonly height: number;
}

/** Memo shared by the measures of one document. */
export type SizeMemo = Map<object, ValueSize>;

interface Frame {
  readonly node: object;
  readonly children: readonly unknown[];
  readonly keyBytes: number;
  i: number;
  bytes: number;
  height: number;
}

/**
 * Measures `value` with every shared reference counted once per use; `cycle` when it contains
 * itself. Iterative: a 100 000-deep value is measured without deep recursion.
 */
export function measureValue(value: unknown, memo: SizeMemo = new Map()): ValueSize | 'cycle' {
  if (!isContainer(value)) return { bytes: leafBytes(value), height: 0 };
  const active = new Set<object>([value]);
  const stack: Frame[] = [frame(value)];
  for (;;) {
    const top = stack[stack.length - 1] as Frame;
    if (top.i < top.children.length) {
      const child = top.children[top.i++];
      if (!isContainer(child)) {
        top.bytes += leafBytes(child);
        continue;
      }
      const known = memo.get(child);
      if (known !== undefined) {
        add(top, known);
        continue;
      }
      if (active.has(child)) return 'cycle';
      active.add(child);
      stack.push(frame(child));
      continue;
    }
    stack.pop();
    active.delete(top.node);
    const size: ValueSize = { bytes: top.bytes + top.keyBytes, height: top.height + 1 };
    memo.set(top.node, size);
    const parent = stack[stack.length - 1];
    if (parent === undefined) return size;
    add(parent, size);
  }
}

/**
 * The path to the first object or list nested deeper than `limit` levels in a value measured
 * with `memo` (its height is over `limit`): follows the tallest child down.
 */
export function pathTooDeep(value: unknown, limit: number, memo: SizeMemo): (string | number)[] {
  const path: (string | number)[] = [];
  let node = value;
  for (let level = 1; level <= limit && isContainer(node); level++) {
    const need = (memo.get(node)?.height ?? 0) - 1;
    const entries: [string | number, unknown][] = Array.isArray(node)
      ? node.map((child, i) => [i, child])
      : Object.entries(node);
    const next = entries.find(
      ([, child]) => isContainer(child) && memo.get(child)?.height === need,
    );
    if (next === undefined) break;
    path.push(next[0]);
    node = next[1];
  }
  return path;
}

function frame(node: object): Frame {
  if (Array.isArray(node)) {
    return { node, children: node, keyBytes: 1 + node.length, i: 0, bytes: 0, height: 0 };
  }
  const keys = Object.keys(node);
  let keyBytes = 1 + keys.length;
  for (const key of keys) keyBytes += key.length + 3;
  const children = keys.map((key) => Object.getOwnPropertyDescriptor(node, key)?.value as unknown);
  return { node, children, keyBytes, i: 0, bytes: 0, height: 0 };
}

function add(frame: Frame, size: ValueSize): void {
  frame.bytes += size.bytes;
  if (size.height > frame.height) frame.height = size.height;
}

function isContainer(value: unknown): value is object {
  return value !== null && typeof value === 'object';
}

function leafBytes(value: unknown): number {
  if (typeof value === 'string') return value.length + 2;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value).length;
  if (typeof value === 'boolean') return value ? 4 : 5;
  return 4;
}
