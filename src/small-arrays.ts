/**
 * Appending to the short lists a turn builds (its traces, a call's request records, a turn's
 * model calls): most hold one or two items, and the first `push` onto an empty array reserves
 * room for 17 (about 190 bytes, where a one-item list is about 60). Use the returned list. The
 * short lists come from `Array.of`, which has no allocation site for V8 to pretenure (young.ts).
 */
export function append<T>(list: T[], item: T): T[] {
  if (list.length === 0) return Array.of(item);
  if (list.length === 1) return Array.of(list[0] as T, item);
  list.push(item);
  return list;
}
