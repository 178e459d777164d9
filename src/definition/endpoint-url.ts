/**
 * Load-time checks of an endpoint's configured URL: http/https only, no userinfo, no fragment,
 * and `{placeholders}` only in the path — never in the scheme, host or port, where a model's
 * value could move the request to another server.
 */

/** What the URL check finds. */
export interface EndpointUrlCheck {
  /** Placeholder names in the path, in order of appearance. */
  readonly pathParams: readonly string[];
  /** Human-readable problems; empty when the URL is usable. */
  readonly problems: readonly string[];
}

const SPLIT = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)([^?#]*)(\?[^#]*)?(#.*)?$/;
const PLACEHOLDER = /\{([^{}]*)\}/g;
const PARAM_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** Checks a configured endpoint URL. */
export function checkEndpointUrl(url: string): EndpointUrlCheck {
  const problems: string[] = [];
  if (url.trim() === '')
    return { pathParams: [], problems: ['must not be empty: expected an absolute http(s) URL'] };
  const parts = SPLIT.exec(url);
  if (!parts) {
    return { pathParams: [], problems: [`is not an absolute http(s) URL: ${JSON.stringify(url)}`] };
  }
  const [, scheme = '', authority = '', path = '', query = '', fragment] = parts;
  if (!/^https?$/i.test(scheme)) problems.push(`scheme must be http or https, got "${scheme}"`);
  if (/[{}]/.test(scheme) || /[{}]/.test(authority)) {
    problems.push('placeholders are allowed only in the path, not in the scheme, host or port');
  }
  if (authority.includes('@'))
    problems.push('must not contain credentials (user:password@); use a service');
  if (authority === '') problems.push('has no host');
  if (fragment !== undefined) problems.push('must not contain a fragment (#…)');
  if (/[{}]/.test(query))
    problems.push('placeholders are allowed only in the path, not in the query string');
  if (/[\u0000-\u0020\u007f]/.test(url))
    problems.push('must not contain spaces or control characters');

  const pathParams: string[] = [];
  for (const match of path.matchAll(PLACEHOLDER)) {
    const name = match[1] ?? '';
    if (!PARAM_NAME.test(name)) problems.push(`placeholder {${name}} is not a parameter name`);
    else pathParams.push(name);
  }
  if (path.replace(PLACEHOLDER, '').match(/[{}]/))
    problems.push('has an unbalanced "{" or "}" in its path');
  if (problems.length === 0) {
    try {
      new URL(url.replace(PLACEHOLDER, 'x'));
    } catch {
      problems.push(`is not a valid URL: ${JSON.stringify(url)}`);
    }
  }
  return { pathParams, problems };
}
