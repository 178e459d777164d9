/** The REPL's language check, shared by `--language`/`--languages` and `/lang`. */
import { UsageError } from '../io.js';

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

/**
 * `--language` and `--languages` as the REPL and the studio take them: the allowed list (comma
 * separated, each a language tag) and the starting language (default the list's first, else
 * en-US). Throws a UsageError naming the option that is wrong.
 */
export function languageOptions(values: {
  readonly language?: string | undefined;
  readonly languages?: string | undefined;
}): { language: string; languages: string[] | undefined } {
  const languages = values.languages
    ?.split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  for (const tag of languages ?? []) {
    const bad = checkLanguage(tag, undefined);
    if (!bad.ok) throw new UsageError(`--languages: ${bad.message}`);
  }
  const language = checkLanguage(values.language ?? languages?.[0] ?? 'en-US', languages);
  if (!language.ok) throw new UsageError(`--language: ${language.message}`);
  return { language: language.tag, languages };
}
