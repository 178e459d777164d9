/**
 * The closest known spelling of a mistyped name, for "did you mean …?" hints in load errors and
 * command-line usage errors.
 */

/** Names longer than this are not compared. */
const MAX_COMPARED = 100;

/** Options of {@link closestName}. */
export interface ClosestNameOptions {
  /** The name as written. */
  readonly name: string;
  /** The names it could have meant. */
  readonly candidates: Iterable<string>;
}

/**
 * The candidate nearest to `name` (case-insensitive edit distance, a swap of two neighbours
 * counting once), when it is near enough to be a typo: at most a third of the longer name's
 * length (so a one- or two-character name is never guessed). A candidate that starts with
 * `name` (a truncation such as `--arg` for `--args`) also counts. Undefined when nothing is
 * close.
 */
export function closestName(options: ClosestNameOptions): string | undefined {
  // The distance is quadratic in the names' lengths; a long name is no typo worth guessing.
  if (options.name.length > MAX_COMPARED) return undefined;
  const written = options.name.toLowerCase();
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of options.candidates) {
    if (candidate.length > MAX_COMPARED) continue;
    const known = candidate.toLowerCase();
    if (known === written) return candidate;
    const distance = editDistance(written, known);
    const limit = Math.floor(Math.max(written.length, known.length) / 3);
    const truncated = written.length >= 3 && known.startsWith(written);
    if ((distance <= limit || truncated) && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Optimal string alignment distance: insertions, deletions, substitutions, adjacent swaps. */
function editDistance(a: string, b: string): number {
  // Names are short (option names, keywords); the full table is cheap.
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row: number[] = [i];
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        row.push(j);
        continue;
      }
      const above = rows[i - 1]!;
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(above[j]! + 1, row[j - 1]! + 1, above[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        value = Math.min(value, rows[i - 2]![j - 2]! + 1);
      row.push(value);
    }
    rows.push(row);
  }
  return rows[a.length]![b.length]!;
}

/** `` (did you mean `x`?)`` for the closest candidate, or the empty string. */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const closest = closestName({ name, candidates });
  return closest === undefined ? '' : ` (did you mean \`${closest}\`?)`;
}
