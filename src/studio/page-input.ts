/**
 * What the page names that the studio checks before acting on it (studio-session.ts): a language
 * tag against the allowed ones, and a fixture's file name in the fixtures folder. A bad one is a
 * 400 StudioProblem saying what is wrong.
 */
import { join, resolve } from 'node:path';
import { StudioProblem } from './studio-problem.js';

/** The tag in canonical form, if it is a BCP-47 tag among `allowed` (compared in any case). */
export function checkedLanguage(tag: string, allowed: readonly string[] | undefined): string {
  let canonical: string;
  try {
    canonical = Intl.getCanonicalLocales(tag)[0] ?? tag;
  } catch {
    throw new StudioProblem(
      400,
      'bad_language',
      `not a BCP-47 language tag: ${JSON.stringify(tag)}`,
    );
  }
  if (allowed !== undefined && !allowed.some((l) => l.toLowerCase() === canonical.toLowerCase()))
    throw new StudioProblem(
      400,
      'bad_language',
      `${canonical} is not an allowed language (allowed: ${allowed.join(', ')})`,
    );
  return canonical;
}

/** The fixture file `name` stands for in `fixturesDir` (`.yaml` added unless it has a format's). */
export function fixtureFile(name: string, fixturesDir: string): string {
  if (!/^[\w.-]+$/.test(name) || name.startsWith('.'))
    throw new StudioProblem(
      400,
      'bad_file_name',
      `${JSON.stringify(name)} is not a plain file name (letters, digits, _ . -)`,
    );
  return join(resolve(fixturesDir), /\.(ya?ml|json)$/.test(name) ? name : `${name}.yaml`);
}
