/**
 * A model's base URL must be an http(s) URL. The `openai` client otherwise fails at the first
 * call with a bare "Invalid URL" that names neither the value nor where it came from.
 */

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
