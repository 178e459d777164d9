/**
 * What a host configures for the endpoint handler: services (auth, headers, the origins their
 * credentials may go to) and the network policy. Owned by the handlers layer; the session's
 * options carry them through.
 */

/** Auth of a service (docs/handlers.md). Secrets never leave the endpoint handler. */
export type ServiceAuth =
  | { readonly type: 'basic'; readonly username: string; readonly password: string }
  | { readonly type: 'bearer'; readonly token: string }
  | { readonly type: 'custom_headers'; readonly headers: Readonly<Record<string, string>> }
  | {
      readonly type: 'oauth2';
      readonly client_id: string;
      readonly client_secret: string;
      readonly auth_url: string;
      readonly scope?: string;
    };

/**
 * Header names that carry a credential wherever they are configured. A service's plain `headers`
 * holding one are credentials like `auth`'s: their values are scrubbed from everything a session
 * produces and the service must declare `origins`. Before, `headers: { authorization: … }` went
 * to any URL a definition named and an echo of it reached the model.
 */
export const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'x-api-key',
]);

/** The names (as written) of a service's plain `headers` that carry credentials. */
export function credentialHeaderNames(headers: unknown): string[] {
  if (headers === null || typeof headers !== 'object') return [];
  return Object.keys(headers).filter((name) => CREDENTIAL_HEADERS.has(name.toLowerCase()));
}

/** A service a definition can name with `"service": "…"`. */
export interface ServiceConfig {
  readonly auth?: ServiceAuth;
  /**
   * Extra headers on every request to this service, not secret, except those named in
   * {@link CREDENTIAL_HEADERS}: their values are credentials (scrubbed, and `origins` required).
   */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * Origins (`https://api.clinic.test`, `http://127.0.0.1:8080`) the service's credentials and
   * headers may be sent to. A definition naming the service with a URL elsewhere is refused at
   * `createSession` and at call time (`origin_not_allowed`). Required when the service has `auth`;
   * `["*"]` sends its credentials to any origin (a warning at `createSession`).
   */
  readonly origins?: readonly string[];
  /**
   * Most connections open at once to each of `origins` (which it needs), across every session
   * sharing the process's connection pools; calls beyond it wait for a free connection, within
   * their deadline. Default: the pools' `connectionsPerOrigin` (100). docs/handlers.md.
   */
  readonly maxConnections?: number;
}

/** Network policy for definitions from less trusted authors. */
export interface NetworkPolicy {
  /** Host names (exact, or `*.example.com`) requests may go to. Absent: every host. */
  readonly allowedHosts?: readonly string[];
  /** Refuse loopback, private, link-local and other non-public addresses. Default false. */
  readonly denyPrivateNetworks?: boolean;
}
