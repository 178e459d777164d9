/**
 * A model's base URL must be an http(s) URL. The `openai` client otherwise fails at the first
 * call with a bare "Invalid URL" that names neither the value nor where it came from.
 */
import { warnOnce } from '../option-checks.js';

/** The example the messages give (a local Ollama server). */
const EXAMPLE = 'http://127.0.0.1:11434/v1';

/** Why `value` cannot be a base URL, naming it as `source` (undefined: it can be one). */
export function baseUrlProblem(value: string, source: string): string | undefined {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url !== undefined && (url.protocol === 'http:' || url.protocol === 'https:'))
    return undefined;
  return `${source} must be an http(s) URL such as ${EXAMPLE}, got ${JSON.stringify(printable(value))}`;
}

/** The value without what may carry a key: user name and password, query, fragment. */
function printable(value: string): string {
  const cut = value.split(/[?#]/, 1)[0] ?? '';
  const shown = cut.replace(/^([a-z][a-z0-9+.-]*:\/\/)?[^/@]*@/i, '$1');
  return shown.length > 100 ? `${shown.slice(0, 100)}…` : shown;
}

/**
 * Names other tools read a base URL from (LangChain and the openai package before v1 read
 * `OPENAI_API_BASE`). The `openai` client, and so switchboard, reads only `OPENAI_BASE_URL`.
 */
const MISNAMED_BASE_URL_VARIABLES = [
  'OPENAI_API_BASE',
  'OPENAI_API_BASE_URL',
  'OPENAI_BASEURL',
  'OPENAI_BASE',
  'OPENAI_API_URL',
  'OPENAI_URL',
  'OPENAI_ENDPOINT',
] as const;

/**
 * The variable a base URL was probably meant in, when `OPENAI_BASE_URL` is unset and one of
 * those names is set: the calls would otherwise go to api.openai.com without a word.
 */
export function misnamedBaseUrlVariable(
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  if ((env['OPENAI_BASE_URL'] ?? '').trim() !== '') return undefined;
  return MISNAMED_BASE_URL_VARIABLES.find((name) => (env[name] ?? '').trim() !== '');
}

/** What to say about {@link misnamedBaseUrlVariable}'s answer. */
export function misnamedBaseUrlMessage(name: string): string {
  return `${name} is set, but the base URL is read from OPENAI_BASE_URL (the openai package's name), so requests go to https://api.openai.com/v1: rename it to OPENAI_BASE_URL`;
}

/**
 * `openaiModel` without `baseURL`: a local server named in another tool's variable would otherwise
 * be skipped for api.openai.com without a word. A process warning, once.
 */
export function warnIfMisnamedBaseUrl(env: Readonly<Record<string, string | undefined>>): void {
  const misnamed = misnamedBaseUrlVariable(env);
  if (misnamed !== undefined)
    warnOnce({
      code: 'misnamed_env',
      severity: 'warning',
      path: misnamed,
      message: misnamedBaseUrlMessage(misnamed),
    });
}
