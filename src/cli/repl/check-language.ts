/** The REPL's language check, shared by `--language`/`--languages` and `/lang`. */

/** A language the session may switch to: a well-formed BCP-47 tag, canonicalised, allowed. */
export function checkLanguage(
  tag: string,
  languages: readonly string[] | undefined,
): { readonly ok: true; readonly tag: string } | { readonly ok: false; readonly message: string } {
  let canonical: string;
  try {
    canonical = Intl.getCanonicalLocales(tag)[0] ?? tag;
  } catch {
    return { ok: false, message: `not a BCP-47 language tag: ${JSON.stringify(tag)}` };
  }
  if (languages !== undefined) {
    const allowed = languages.map((l) => {
      try {
        return Intl.getCanonicalLocales(l)[0] ?? l;
      } catch {
        return l;
      }
    });
    if (!allowed.includes(canonical))
      return {
        ok: false,
        message: `${canonical} is not an allowed language (allowed: ${languages.join(', ')})`,
      };
  }
  return { ok: true, tag: canonical };
}
