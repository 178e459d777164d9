/**
 * The `url.full` of an HTTP span without the values a request carries: userinfo dropped, every
 * query value replaced by `REDACTED`, and every path segment that is not a literal segment of the
 * tool's URL template (`/v1/patients/{id}` → `/v1/patients/REDACTED`) replaced too: a path or a
 * query may carry a token from session variables or an argument value. `TracingOptions
 * .recordUrlValues` keeps them (secrets are still scrubbed by the caller).
 */

/** What a span records of a URL, and the values it left out (to scrub echoes of them). */
export interface SafeUrl {
  readonly full: string;
  readonly scheme: string;
  readonly host: string;
  readonly port: number | undefined;
  /** The query and path values replaced by `REDACTED`, decoded. */
  readonly redacted: readonly string[];
}

export const REDACTED = 'REDACTED';

/** The path part of a URL template (`https://h/v1/{id}?q={q}` → `/v1/{id}`); undefined if unknown. */
function templatePath(template: string | undefined): string | undefined {
  if (template === undefined) return undefined;
  const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(template);
  if (origin === null) return undefined;
  const rest = template.slice(origin[0].length);
  const end = rest.search(/[?#]/);
  return end === -1 ? rest : rest.slice(0, end);
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The URL as a span may show it; undefined when it does not parse. */
export function safeUrl(
  href: string,
  template: string | undefined,
  keepValues: boolean,
): SafeUrl | undefined {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return undefined;
  }
  const scheme = url.protocol.replace(/:$/, '');
  const port = url.port === '' ? undefined : Number(url.port);
  const base = { scheme, host: url.hostname, port };
  if (keepValues)
    return {
      ...base,
      full: `${url.protocol}//${url.host}${url.pathname}${url.search}`,
      redacted: [],
    };
  const redacted: string[] = [];
  const keys: string[] = [];
  for (const [key, value] of url.searchParams) {
    keys.push(`${encodeURIComponent(key)}=${REDACTED}`);
    if (value !== '') redacted.push(value);
  }
  const literal = templatePath(template)?.split('/');
  const segments = url.pathname.split('/').map((segment, i) => {
    if (segment === '') return segment;
    const expected = literal?.[i];
    if (
      expected !== undefined &&
      !expected.includes('{') &&
      (expected === segment || decoded(segment) === decoded(expected))
    )
      return segment;
    redacted.push(decoded(segment));
    return REDACTED;
  });
  const query = keys.length === 0 ? '' : `?${keys.join('&')}`;
  return { ...base, full: `${url.protocol}//${url.host}${segments.join('/')}${query}`, redacted };
}
