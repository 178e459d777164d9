/**
 * Picks the entry for a language from per-language data (`{"en-US": …, "es": …, "*": …}`): the
 * exact tag (case-insensitive), then the primary language (`es` for `es-US`), then `"*"`.
 */
export function pickByLanguage<T>(
  entries: Iterable<readonly [string, T]>,
  language: string,
): T | undefined {
  const wanted = language.toLowerCase();
  const primary = wanted.split('-', 1)[0] ?? wanted;
  let primaryMatch: T | undefined;
  let anyMatch: T | undefined;
  for (const [tag, value] of entries) {
    const t = tag.toLowerCase();
    if (t === wanted) return value;
    if (t === primary) primaryMatch ??= value;
    else if (t === '*') anyMatch ??= value;
  }
  return primaryMatch ?? anyMatch;
}
