/**
 * Plain objects for the short-lived records of a turn (its events, traces, timings, request
 * records), made so that V8 can never allocate them in the old generation.
 *
 * V8 tracks every object and array literal through an allocation site, and when, at a scavenge,
 * nearly all the objects a site made recently are still alive, it "pretenures" the site: from then
 * on its objects are made directly in the old generation. Under load a turn's records are alive
 * at a scavenge often enough for that (a record held by an old object counts as alive even after
 * that object died, so one pretenured record list drags the records it holds along). At 1,000
 * sessions nearly every record of a turn was made old: dead a few milliseconds later, each one
 * then waited for a full collection, and everything it pointed to was copied and promoted by the
 * scavenges in between (docs/benchmarks.md, "Issue 17, fourteenth round").
 *
 * An object made by `new` on a constructor function has no allocation site and is always made
 * young. The constructors made here have `Object.prototype` as their `prototype`, so what they
 * make is a plain object in every way a host can tell (prototype, `constructor`, keys in the order
 * they are assigned, JSON, `util.inspect`, structured clone).
 */

type Writable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * A constructor of plain records from `init`, which assigns the record's keys in their documented
 * order (optional keys only when present). `init` must be a `function` expression, not an arrow.
 */
export function plainRecord<T extends object, A extends unknown[]>(
  init: (this: Writable<T>, ...args: A) => void,
): new (...args: A) => T {
  init.prototype = Object.prototype;
  return init as unknown as new (...args: A) => T;
}

/** An empty list with no allocation site (an empty `[]` literal has one). */
export function emptyList<T>(): T[] {
  return Array.of<T>();
}
