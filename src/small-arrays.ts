/**
 * Appending to the short lists a turn builds (its traces, a call's request records, a turn's
 * model calls): most hold one or two items, and the first `push` onto an empty array reserves
 * room for 17 (about 190 bytes, where a one-item list is about 60). Use the returned list. The
 * short lists are `slice` copies, which have no allocation site for V8 to pretenure (the literal
 * copied dies at once; src/young.ts). `Array.of` would do the same at nine times the cost.
 */
export function append<T>(list: T[], item: T): T[] {
  if (list.length === 0) return [item].slice();
  if (list.length === 1) return [list[0] as T, item].slice();
  list.push(item);
  return list;
}

/** A new empty list for {@link append}, with no allocation site to pretenure (src/young.ts). */
export function emptyList<T>(): T[] {
  return [].slice();
}
