/**
 * Services (docs/handlers.md): what a definition's `"service": "…"` adds to its requests — auth headers
 * (basic, bearer, custom headers, oauth2 client credentials) and plain extra headers. Every
 * configured secret, and every token issued for a service, joins the session's `SecretSet` so the
 * handler (and the REPL) can scrub it from anything they show.
 */
import type { Dispatcher } from 'undici';
import type { Abortable } from './deadline.js';
import { ToolError } from '../../errors.js';
import type { ServiceConfig } from './service-config.js';
import { OAuth2TokenCache } from './oauth2-token.js';
import type { SecretSet } from './secret-set.js';

/** Auth and headers for one request. */
export interface ServiceHeaders {
  readonly headers: Readonly<Record<string, string>>;
  /** Lower-cased names of headers whose values are secret (redacted in records). */
  readonly secretHeaders: ReadonlySet<string>;
}

/** Options of {@link ServiceAuth}. */
export interface ServiceAuthOptions {
  readonly services: Readonly<Record<string, ServiceConfig>>;
  readonly dispatcher: () => Dispatcher;
  readonly now: () => number;
  /** Where the configured secrets and every issued token are added, for scrubbing. */
  readonly secrets: SecretSet;
}

/** The error of a call naming a service the handler was not given. */
export function serviceNotConfigured(name: string): ToolError {
  return new ToolError('not_available', `service "${name}" is not configured`);
}

/** The services of one handler, by name (a Map: names come from definitions). */
export class ServiceAuth {
  readonly #services: ReadonlyMap<string, ServiceConfig>;
  readonly #tokens: OAuth2TokenCache;

  constructor(options: ServiceAuthOptions) {
    this.#services = new Map(Object.entries(options.services));
    const secrets = options.secrets;
    secrets.addServices(options.services);
    this.#tokens = new OAuth2TokenCache({
      dispatcher: options.dispatcher,
      now: options.now,
      onToken: (token) => secrets.add(token),
    });
  }

  /** True when a service of that name is configured. */
  has(name: string): boolean {
    return this.#services.has(name);
  }

  /** Forgets a cached oauth2 token; true when the service uses oauth2 (a retry may help). */
  invalidate(name: string): boolean {
    const auth = this.#services.get(name)?.auth;
    if (auth?.type !== 'oauth2') return false;
    this.#tokens.invalidate(name);
    return true;
  }

  /** Headers to add for a service, fetching an oauth2 token when needed. */
  async headers(name: string, signal: Abortable): Promise<ServiceHeaders | ToolError> {
    const config = this.#services.get(name);
    if (config === undefined) return serviceNotConfigured(name);
    const headers: Record<string, string> = {};
    const secretHeaders = new Set<string>();
    for (const [key, value] of Object.entries(config.headers ?? {}))
      headers[key.toLowerCase()] = value;
    const auth = config.auth;
    if (auth !== undefined) {
      switch (auth.type) {
        case 'basic':
          headers['authorization'] =
            `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}`;
          secretHeaders.add('authorization');
          break;
        case 'bearer':
          headers['authorization'] = `Bearer ${auth.token}`;
          secretHeaders.add('authorization');
          break;
        case 'custom_headers':
          for (const [key, value] of Object.entries(auth.headers)) {
            headers[key.toLowerCase()] = value;
            secretHeaders.add(key.toLowerCase());
          }
          break;
        case 'oauth2': {
          const token = await this.#tokens.token(name, auth, signal);
          if (token instanceof ToolError) return token;
          headers['authorization'] = `Bearer ${token}`;
          secretHeaders.add('authorization');
          break;
        }
        default: {
          const _exhaustive: never = auth;
          void _exhaustive;
        }
      }
    }
    return { headers, secretHeaders };
  }
}
