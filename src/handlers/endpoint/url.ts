/**
 * The configured endpoint URL split into the parts a request is built from. The URL was checked
 * at load by the definition loader (`checkEndpointUrl`: http/https, no userinfo, placeholders only
 * in the path); the same check runs here once per tool, so a hand-built definition cannot bypass it.
 */
import { checkEndpointUrl } from '../../definition/endpoint-url.js';

const PLACEHOLDER = /\{([^{}]*)\}/g;

/** The configured URL split for building requests. */
export interface UrlTemplate {
  /** `https://host:port` exactly as `URL#origin` reports it. */
  readonly origin: string;
  /** Path text between placeholders (length = placeholders + 1), as written. */
  readonly pieces: readonly string[];
  /** Placeholder names in order (may repeat). */
  readonly names: readonly string[];
  /** Normalised path up to the first placeholder: every built request must start with it. */
  readonly pathPrefix: string;
  /** Query string of the configured URL without `?` (may be empty). */
  readonly query: string;
  /**
   * Present when the configured URL is already written the way the URL parser writes it, so a
   * request URL made of its pieces, encoded segments and an encoded query needs no parse (see
   * `buildRequest`). A hand-made template without it has every request URL parsed.
   */
  readonly canonical?: CanonicalParts;
}

/** The parts of a canonical template's origin, and its placeholder names as a set. */
export interface CanonicalParts {
  readonly protocol: string;
  readonly hostname: string;
  readonly port: string;
  readonly names: ReadonlySet<string>;
}

/** Splits a configured URL into a template; throws (with the problems) on a URL the loader refuses. */
export function parseUrlTemplate(url: string): UrlTemplate {
  const check = checkEndpointUrl(url);
  if (check.problems.length > 0) throw new Error(`bad endpoint URL: ${check.problems.join('; ')}`);
  const authorityAt = url.indexOf('://') + 3;
  const pathAt = url.slice(authorityAt).search(/[/?]/);
  const start = pathAt < 0 ? url.length : authorityAt + pathAt;
  const queryAt = url.indexOf('?', start);
  const pathText = queryAt < 0 ? url.slice(start) : url.slice(start, queryAt);
  const query = queryAt < 0 ? '' : url.slice(queryAt + 1);
  const pieces: string[] = [];
  const names: string[] = [];
  let last = 0;
  for (const m of pathText.matchAll(PLACEHOLDER)) {
    pieces.push(pathText.slice(last, m.index));
    names.push(m[1] ?? '');
    last = m.index + m[0].length;
  }
  pieces.push(pathText.slice(last));
  const first = pieces[0] ?? '';
  const base = new URL(url.slice(0, start) + (first === '' ? '/' : first));
  const template = { origin: base.origin, pieces, names, pathPrefix: base.pathname, query };
  // With a plain segment in every placeholder, would the parser leave the URL exactly as written?
  const probe = `${base.origin}${pieces.join('x')}${query === '' ? '' : `?${query}`}`;
  if (parsedHref(probe) !== probe) return template;
  const { protocol, hostname, port } = base;
  return { ...template, canonical: { protocol, hostname, port, names: new Set(names) } };
}

function parsedHref(text: string): string | undefined {
  try {
    return new URL(text).href;
  } catch {
    return undefined;
  }
}
