/**
 * "Did you mean …?" for a name the host got slightly wrong (`hang_up` for `hangup`, `clinc` for
 * `clinic`): the closest candidate by edit distance, ignoring case, `_` and `-`.
 */

/** Names longer than this are not compared (the distance is quadratic in their lengths). */
const MAX_COMPARED = 100;

function normalised(name: string): string {
  return name.toLowerCase().replace(/[-_\s]/g, '');
}

/** Levenshtein distance of two short strings. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row.push(
        Math.min((previous[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost),
      );
    }
    previous = row;
  }
  return previous[b.length] ?? 0;
}

/**
 * The candidate closest to `name` when it is close enough to be a slip (at most a third of the
 * name's characters differ, and at least one), else undefined.
 */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  if (name.length > MAX_COMPARED) return undefined;
  const wanted = normalised(name);
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    if (candidate.length > MAX_COMPARED) continue;
    const d = distance(wanted, normalised(candidate));
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  const allowed = Math.max(1, Math.floor(wanted.length / 3));
  return bestDistance <= allowed ? best : undefined;
}

/** ` (did you mean \`x\`?)` or the empty string. */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const closest = closestName(name, candidates);
  return closest === undefined ? '' : ` (did you mean \`${closest}\`?)`;
}
