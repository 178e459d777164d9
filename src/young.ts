/**
 * Records a turn keeps only while it runs or until its result is dropped (events, timings, traces,
 * request records), made so that V8 allocates them in the young generation.
 *
 * V8 decides per allocation site (an object or array literal, `new Array`) whether to allocate in
 * the old generation ("pretenuring"), from how many of the site's objects survived the last
 * scavenge. A turn's records live across its model and endpoint calls, so after warm-up their
 * literal sites were pretenured: every record was born old, and a record that died 20 ms later
 * waited for a full collection (its marking runs on other threads), instead of costing nothing in
 * the next scavenge (docs/benchmarks.md, issue 17, twelfth round). A spread copy and `slice` have
 * no allocation site, so what they make always starts young; the literal they copy dies at
 * once, so its own site is never pretenured either. Short lists of such records are `slice`
 * copies for the same reason (src/small-arrays.ts).
 *
 * `young` copies the turn's events (`turn-stream.ts`, which sees every kind of event). The other
 * records (timings, traces, request records) are copied by a spread written where they are made:
 * a spread's inline cache is per site, and one helper seeing every shape goes megamorphic (about
 * 150 ns a copy over eight shapes).
 */

/** A shallow copy of `record` (own enumerable keys, same order), allocated young. */
export function young<T extends object>(record: T): T {
  return { ...record };
}
