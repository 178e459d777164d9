/**
 * Appending to the short lists a turn builds (its traces, a call's request records, a turn's
 * model calls): most hold one or two items, and the first `push` onto an empty array reserves
 * room for 17 (about 190 bytes, where a one-item array is about 60). Use the returned list. The
 * new lists are made by `Array.of`, not literals: a literal's allocation site can be pretenured,
 * and these lists die with their turn (plain-records.ts).
 */
export function append<T>(list: T[], item: T): T[] {
  if (list.length === 0) return Array.of(item);
  if (list.length === 1) return Array.of(list[0] as T, item);
  list.push(item);
  return list;
}
