/**
 * Secrets follow their service's origin: a service may declare the origins (`https://host[:port]`)
 * its credentials may be sent to. A definition naming the service with a URL elsewhere is refused
 * when the session is created (`createSession`/`restoreSession`, a `DefinitionError` naming the
 * tool) and, for any definition that reaches the handler anyway, at call time
 * (`origin_not_allowed`, nothing sent, no token fetched). `createSession` requires `origins` of a
 * service with auth, and so does `createEndpointHandler` (a handler made without a session);
 * `["*"]` is the explicit opt-out (any origin). A service without `origins` (so without auth) may
 * be used with any URL.
 */
import type { DefinitionIssue } from '../../errors.js';
import { credentialHeaderNames, type ServiceConfig } from './service-config.js';
import { MAX_CONNECTIONS_PER_ORIGIN } from './connection-pools.js';

/** The origin of a configured origin or URL as `URL#origin` reports it, or undefined. */
export function originOf(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  return url.origin;
}

/** True when `text` is an http(s) origin: no userinfo, path (but `/`), query or fragment. */
function isOrigin(text: string): boolean {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  return (
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    url.username === '' &&
    url.password === '' &&
    url.pathname === '/' &&
    url.search === '' &&
    url.hash === '' &&
    !text.includes('?') &&
    !text.includes('#')
  );
}

/** The `origins` entry that allows every origin; only valid alone. */
export const ANY_ORIGIN = '*';

/** Problems of a service's `origins` (each must be an http(s) origin), with their paths. */
export function originProblems(
  config: Readonly<Record<string, unknown>>,
): Array<{ path: string; message: string }> {
  const origins: unknown = config['origins'];
  if (origins === undefined) return [];
  if (!Array.isArray(origins) || origins.length === 0)
    return [{ path: 'origins', message: 'must be a list of origins like https://api.example.com' }];
  const out: Array<{ path: string; message: string }> = [];
  if (origins.includes(ANY_ORIGIN) && origins.length > 1)
    out.push({
      path: 'origins',
      message: '"*" allows every origin: give it alone, or list origins',
    });
  origins.forEach((entry: unknown, i) => {
    if (entry === ANY_ORIGIN) return;
    if (typeof entry !== 'string' || !isOrigin(entry))
      out.push({
        path: `origins[${i}]`,
        message: `${JSON.stringify(entry)} is not an http(s) origin like https://api.example.com`,
      });
  });
  return out;
}

/**
 * Each service that has `auth` but no `origins`, as an error issue at `services.<name>.origins`:
 * its credentials would go to any URL a definition names. `createEndpointHandler` refuses these;
 * `createSession` reports the same case with the origins its tools use (check-services.ts).
 */
export function missingOriginIssues(
  services: Readonly<Record<string, ServiceConfig>>,
): DefinitionIssue[] {
  const issues: DefinitionIssue[] = [];
  for (const [name, config] of Object.entries(services)) {
    // Read defensively: the handler's options come straight from host code.
    const c = config as { auth?: unknown; headers?: unknown; origins?: unknown } | null;
    if (c === null || c.origins !== undefined) continue;
    const what = credentialsOf(c);
    if (what === undefined) continue;
    issues.push({
      code: 'origins_required',
      severity: 'error',
      path: `services.${name}.origins`,
      message: `is required for a service with ${what} (its credentials go only to the origins listed): add origins: ["https://api.example.com"] with the service's own origins, or origins: ["*"] to send them to any URL a definition names`,
    });
  }
  return issues;
}

/**
 * What makes a service's configuration a credential, as a message names it (`auth`, `header
 * x-api-key`), or undefined for a service with none.
 */
export function credentialsOf(config: {
  readonly auth?: unknown;
  readonly headers?: unknown;
}): string | undefined {
  if (config.auth !== undefined) return 'auth';
  const names = credentialHeaderNames(config.headers);
  return names.length === 0 ? undefined : `a credential header (${names.join(', ')})`;
}

/** Allowed origins of each service that declares them (normalised), by service name. */
export class ServiceOrigins {
  readonly #allowed = new Map<string, ReadonlySet<string>>();

  constructor(services: Readonly<Record<string, ServiceConfig>>) {
    for (const [name, config] of Object.entries(services)) {
      // Read defensively: createSession builds this while it checks the host's config.
      const origins: unknown = (config as { origins?: unknown } | null)?.origins;
      if (!Array.isArray(origins) || origins.includes(ANY_ORIGIN)) continue;
      const set = new Set<string>();
      for (const entry of origins as unknown[]) {
        const origin = typeof entry === 'string' ? originOf(entry) : undefined;
        if (origin !== undefined) set.add(origin);
      }
      this.#allowed.set(name, set);
    }
  }

  /** True when the service's credentials may go to `origin` (always, without `origins` or with `["*"]`). */
  allows(service: string, origin: string): boolean {
    const allowed = this.#allowed.get(service);
    return allowed === undefined || allowed.has(origin);
  }

  /** The declared origins of a service, for messages. */
  declared(service: string): readonly string[] {
    return [...(this.#allowed.get(service) ?? [])];
  }
}

/** Problems of a service's `maxConnections` (a whole number in range, with `origins`). */
export function connectionLimitProblems(
  config: ServiceConfig,
): Array<{ path: string; message: string }> {
  const max: unknown = config.maxConnections;
  if (max === undefined) return [];
  if (
    typeof max !== 'number' ||
    !Number.isInteger(max) ||
    max < 1 ||
    max > MAX_CONNECTIONS_PER_ORIGIN
  )
    return [
      {
        path: 'maxConnections',
        message: `must be a whole number from 1 to ${MAX_CONNECTIONS_PER_ORIGIN}, got ${JSON.stringify(max) ?? String(max)}`,
      },
    ];
  if (config.origins === undefined || config.origins.length === 0)
    return [
      {
        path: 'maxConnections',
        message:
          'applies per origin, so it needs the service\'s origins (e.g. origins: ["https://api.example.com"])',
      },
    ];
  return [];
}

/**
 * The connection cap of each origin the services set one for (the lowest, when services share an
 * origin), or undefined when none does.
 */
export function connectionLimits(
  services: Readonly<Record<string, ServiceConfig>> | undefined,
): ReadonlyMap<string, number> | undefined {
  if (services === undefined) return undefined;
  let limits: Map<string, number> | undefined;
  for (const config of Object.values(services)) {
    const max = config.maxConnections;
    if (max === undefined || config.origins === undefined) continue;
    for (const entry of config.origins) {
      const origin = originOf(entry);
      if (origin === undefined) continue;
      limits ??= new Map();
      limits.set(origin, Math.min(max, limits.get(origin) ?? max));
    }
  }
  return limits;
}
