/**
 * The HTTP pieces every platform has in some form: headers and credentials (which become a
 * `service` reference, never a value in the definition), URLs with variables (path variables
 * become placeholders filled by hidden static parameters) and timeouts.
 */
import { checkEndpointUrl } from '../definition/endpoint-url.js';
import type { FieldPath, ToolWarnings } from './conversion-context.js';
import { privateAddress } from './private-address.js';
import type { StaticParameterJson } from './types.js';
import {
  hasVendorVariable,
  replaceVendorVariables,
  toMustache,
  type VariableDialect,
} from './variables.js';

/** A header value as platforms write it. */
export type HeaderValue =
  | { readonly kind: 'literal'; readonly value: string }
  | { readonly kind: 'secret'; readonly ref: string }
  | { readonly kind: 'variable'; readonly name: string };

/** One header with where it was written. */
export interface VendorHeader {
  readonly name: string;
  readonly value: HeaderValue;
  readonly field: FieldPath;
}

const SECRET_NAMES = /^(authorization|proxy-authorization|cookie|x-api-key|api-key|apikey)$/i;
const SECRET_WORDS = /token|secret|key|auth|password|signature/i;
const SECRET_VALUES = /^(bearer|basic|token|digest)\s/i;

/** True for a header whose literal value must be treated as a credential. */
export function isSecretHeader(name: string, value: string): boolean {
  return SECRET_NAMES.test(name) || SECRET_WORDS.test(name) || SECRET_VALUES.test(value);
}

/** A service name from a credential reference or, without one, the URL's host. */
export function serviceName(ref: string | undefined, url: string): string {
  const from = ref ?? hostOf(url) ?? 'service';
  const slug = from
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return slug === '' ? 'service' : slug.slice(0, 64);
}

/** The URL's origin, or undefined when it has none usable (a variable in the host, no URL). */
function originOf(url: string): string | undefined {
  const authority = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(url)?.[1];
  if (authority === undefined || /[{}]/.test(authority)) return undefined;
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

function hostOf(url: string): string | undefined {
  const m = /^[a-z][a-z0-9+.-]*:\/\/([^/?#:]+)/i.exec(url);
  return m?.[1];
}

/**
 * Headers cannot live in a definition (docs/handlers.md: auth and headers belong to a service). Each one
 * becomes a warning telling what to configure on `service`; a credential's value is never
 * repeated. Returns true when the tool needs the service.
 */
export function headersToService(
  w: ToolWarnings,
  headers: readonly VendorHeader[],
  service: string,
  url: string,
): boolean {
  // A service with auth needs `origins` (createSession refuses it without): name the one to give.
  const origins = `origins: [${JSON.stringify(originOf(url) ?? 'https://…')}]`;
  let needed = false;
  for (const h of headers) {
    const v = h.value;
    if (h.name.toLowerCase() === 'content-type') {
      w.warn(h.field, 'switchboard sets content-type from argument_location; header not imported');
      continue;
    }
    needed = true;
    if (v.kind === 'secret') {
      w.warn(
        h.field,
        `credential reference "${v.ref}" for header ${h.name}: configure service "${service}" with the secret and where it may be sent (services: { ${service}: { auth: …, ${origins} } }); the definition names the service only`,
      );
    } else if (v.kind === 'variable') {
      w.warn(
        h.field,
        `header ${h.name} comes from variable "${v.name}" per call; switchboard headers are fixed per service: configure service "${service}" headers`,
      );
    } else if (isSecretHeader(h.name, v.value)) {
      w.warn(
        h.field,
        `header ${h.name} carries a credential; its value is not imported: configure service "${service}" (auth bearer/basic or custom_headers, and ${origins})`,
      );
    } else {
      w.warn(
        h.field,
        `header "${h.name}: ${v.value}" is not part of a definition: configure it in service "${service}" headers`,
      );
    }
  }
  return needed;
}

/** A URL made fit for an endpoint. */
export interface MappedUrl {
  readonly url: string;
  /** Hidden parameters filling placeholders (or query values) from session variables. */
  readonly statics: StaticParameterJson[];
  /** False when the URL cannot be an endpoint URL (a variable in the host); see `reason`. */
  readonly ok: boolean;
  readonly reason?: string;
}

/**
 * Rewrites the platform's variables in a URL: `{{x}}` in the path becomes the placeholder `{x}`
 * filled by a hidden static parameter `x` = `{{vars.x}}`; in the query it becomes a static
 * parameter when the arguments go to the query string (else it is dropped with a warning); in the
 * scheme or host it cannot be expressed (`ok: false`).
 */
export function mapUrl(
  w: ToolWarnings,
  field: FieldPath,
  url: string,
  dialect: VariableDialect,
  argsInQuery: boolean,
): MappedUrl {
  const statics: StaticParameterJson[] = [];
  const hashAt = url.indexOf('#');
  const noHash = hashAt >= 0 ? url.slice(0, hashAt) : url;
  if (hashAt >= 0) w.warn(field, 'the URL fragment is never sent; dropped');
  const queryAt = noHash.indexOf('?');
  const beforeQuery = queryAt >= 0 ? noHash.slice(0, queryAt) : noHash;
  const query = queryAt >= 0 ? noHash.slice(queryAt + 1) : '';
  const originEnd = beforeQuery.indexOf('/', beforeQuery.indexOf('//') + 2);
  const origin = originEnd >= 0 ? beforeQuery.slice(0, originEnd) : beforeQuery;
  let path = originEnd >= 0 ? beforeQuery.slice(originEnd) : '';
  if (hasVendorVariable(origin))
    return { url, statics, ok: false, reason: 'a variable in the URL scheme or host' };
  const problem = (message: string): void => w.warn(field, message);
  const named = new Set<string>();
  path = replaceVendorVariables(path, (variable) => {
    const name = paramName(variable);
    if (!named.has(name)) {
      named.add(name);
      statics.push({
        name,
        type: 'string',
        default: toMustache(`{{${variable}}}`, dialect, problem),
        description: `URL path variable {{${variable}}}`,
      });
    }
    return `{${name}}`;
  });
  const kept: string[] = [];
  const queryNames = new Set<string>();
  for (const pair of query === '' ? [] : query.split('&')) {
    if (!hasVendorVariable(pair)) {
      kept.push(pair);
      continue;
    }
    const eq = pair.indexOf('=');
    const key = decodeURIComponent(eq >= 0 ? pair.slice(0, eq) : pair);
    const value = decodeURIComponent(eq >= 0 ? pair.slice(eq + 1) : '');
    if (argsInQuery && /^[A-Za-z0-9_.-]+$/.test(key) && !hasVendorVariable(key)) {
      // One hidden value per name: a second one would not load, and a path placeholder's name
      // is never sent in the query string.
      if (named.has(key)) {
        w.warn(
          field,
          `query parameter "${key}" takes a variable under a name ${queryNames.has(key) ? 'an earlier query parameter' : 'a path variable'} has: switchboard sends one value per name; dropped`,
        );
        continue;
      }
      named.add(key);
      queryNames.add(key);
      statics.push({ name: key, type: 'string', default: toMustache(value, dialect, problem) });
    } else {
      w.warn(
        field,
        `query parameter "${key}" takes a variable, which a switchboard URL cannot hold (placeholders are path-only) and the arguments are not sent in the query string; dropped`,
      );
    }
  }
  const rebuilt = origin + path + (kept.length > 0 ? `?${kept.join('&')}` : '');
  const problems = checkEndpointUrl(rebuilt).problems;
  if (problems.length > 0) return { url: rebuilt, statics, ok: false, reason: problems.join('; ') };
  const inside = privateAddress(rebuilt);
  if (inside !== undefined)
    w.warn(
      field,
      `tool "${w.tool ?? '?'}" calls ${inside.address}, ${inside.kind}: a vendor file can point at internal services (cloud metadata, databases); check the address is intended. A session with networkPolicy.denyPrivateNetworks refuses it`,
    );
  return { url: rebuilt, statics, ok: true };
}

/** `url` with `pairs` (already encoded `key=value`) added to its query string. */
export function appendQuery(url: string, pairs: readonly string[]): string {
  if (pairs.length === 0) return url;
  return url + (url.includes('?') ? '&' : '?') + pairs.join('&');
}

/** A parameter name for a variable (`customer.number` → `customer_number`). */
export function paramName(variable: string): string {
  const name = variable.replace(/[^A-Za-z0-9_]+/g, '_').replace(/^_+|_+$/g, '');
  return name === '' ? 'value' : name;
}

/** Seconds clamped to switchboard's 1..120, with a warning when the platform's value is outside. */
export function timeoutSecs(w: ToolWarnings, field: FieldPath, secs: number): number {
  if (secs < 1) {
    w.warn(field, `${secs} s is below switchboard's minimum timeout; 1 s is used`);
    return 1;
  }
  if (secs > 120) {
    w.warn(field, `${secs} s is above switchboard's maximum timeout; 120 s is used`);
    return 120;
  }
  return secs;
}
