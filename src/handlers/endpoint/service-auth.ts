/**
 * Services (SPEC §3): what a definition's `"service": "…"` adds to its requests — auth headers
 * (basic, bearer, custom headers, oauth2 client credentials) and plain extra headers. Also keeps
 * every secret in the forms it could leak in (raw, base64, URL-encoded) so the handler can redact
 * them from anything it returns.
 */
import type { Dispatcher } from 'undici';
import type { Abortable } from './deadline.js';
import { ToolError } from '../../errors.js';
import type { ServiceConfig } from '../../session/types.js';
import { clientBasicCredentials, OAuth2TokenCache } from './oauth2-token.js';

/** Auth and headers for one request. */
export interface ServiceHeaders {
  readonly headers: Readonly<Record<string, string>>;
  /** Lower-cased names of headers whose values are secret (redacted in records). */
  readonly secretHeaders: ReadonlySet<string>;
}

/** Secrets shorter than this are not scrubbed from outputs (they would mangle ordinary text). */
const MIN_SCRUB_LENGTH = 4;

/** Options of {@link ServiceAuth}. */
export interface ServiceAuthOptions {
  readonly services: Readonly<Record<string, ServiceConfig>>;
  readonly dispatcher: () => Dispatcher;
  readonly now: () => number;
}

/** Every form a secret may be echoed in. */
export function secretForms(secret: string): string[] {
  const base64 = Buffer.from(secret).toString('base64');
  return [
    secret,
    base64,
    // Unpadded and URL-safe variants: a service may echo either, and a text cut after the
    // secret can drop the padding.
    base64.replace(/=+$/, ''),
    Buffer.from(secret).toString('base64url'),
    encodeURIComponent(secret),
    encodeURIComponent(secret).replace(/%20/g, '+'),
    encodeURIComponent(base64),
  ];
}

/**
 * Every configured secret of the given services, in each form it may be echoed in (raw, base64,
 * URL-encoded). Issued OAuth2 tokens are not known here; the handler scrubs those itself.
 */
export function configuredSecrets(services: Readonly<Record<string, ServiceConfig>>): Set<string> {
  const out = new Set<string>();
  const add = (secret: string): void => {
    for (const form of secretForms(secret)) if (form.length >= MIN_SCRUB_LENGTH) out.add(form);
  };
  for (const config of Object.values(services)) {
    const auth = config.auth;
    if (auth === undefined) continue;
    switch (auth.type) {
      case 'basic':
        add(auth.password);
        add(`${auth.username}:${auth.password}`);
        break;
      case 'bearer':
        add(auth.token);
        break;
      case 'custom_headers':
        for (const value of Object.values(auth.headers)) add(value);
        break;
      case 'oauth2':
        add(auth.client_secret);
        add(`${auth.client_id}:${auth.client_secret}`);
        break;
      default: {
        const exhaustive: never = auth;
        void exhaustive;
      }
    }
  }
  return out;
}

/** The services of one handler, by name (a Map: names come from definitions). */
export class ServiceAuth {
  readonly #services: ReadonlyMap<string, ServiceConfig>;
  readonly #tokens: OAuth2TokenCache;
  readonly #secrets = new Set<string>();

  constructor(options: ServiceAuthOptions) {
    this.#services = new Map(Object.entries(options.services));
    this.#tokens = new OAuth2TokenCache({
      dispatcher: options.dispatcher,
      now: options.now,
      onToken: (token) => this.#addSecret(token),
    });
    for (const config of this.#services.values()) {
      const auth = config.auth;
      if (auth === undefined) continue;
      switch (auth.type) {
        case 'basic':
          this.#addSecret(auth.password);
          this.#addSecret(`${auth.username}:${auth.password}`);
          break;
        case 'bearer':
          this.#addSecret(auth.token);
          break;
        case 'custom_headers':
          for (const value of Object.values(auth.headers)) this.#addSecret(value);
          break;
        case 'oauth2':
          this.#addSecret(auth.client_secret);
          this.#addSecret(clientBasicCredentials(auth));
          break;
        default: {
          const _exhaustive: never = auth;
          void _exhaustive;
        }
      }
    }
  }

  #addSecret(secret: string): void {
    for (const form of secretForms(secret))
      if (form.length >= MIN_SCRUB_LENGTH) this.#secrets.add(form);
  }

  /** True when a service of that name is configured. */
  has(name: string): boolean {
    return this.#services.has(name);
  }

  /** Every known secret form (raw, base64, URL-encoded), issued tokens included. */
  secrets(): ReadonlySet<string> {
    return this.#secrets;
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
    if (config === undefined)
      return new ToolError('not_available', `service "${name}" is not configured`);
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
