/**
 * OAuth 2 client-credentials tokens (RFC 6749 §4.4) for services with `auth.type: oauth2`.
 * The client authenticates with HTTP Basic (RFC 6749 §2.3.1: servers MUST support it, the body
 * form is NOT RECOMMENDED). Tokens are cached per service until `expires_in` minus a margin, one
 * fetch at a time per service; a 401 from the API invalidates the cached token.
 */
import type { Dispatcher } from 'undici';
import { requestUrl } from './build-request.js';
import { startDeadline, untilAborted, type Abortable } from './deadline.js';
import { ToolError } from '../../errors.js';
import { exchange } from './exchange.js';

/** Lifetime assumed when the token response has no `expires_in`. */
export const DEFAULT_TOKEN_LIFETIME_MS = 300_000;
/** Refresh this long before expiry at most (10% of the lifetime when shorter). */
export const TOKEN_MARGIN_MS = 30_000;
/** Deadline of one token request (shared by every call waiting for it; each still keeps its own). */
export const TOKEN_TIMEOUT_MS = 20_000;

// A token fetch is shared by concurrent calls, so no single caller's cancellation may end it.
const NEVER = new AbortController().signal;

/** Client credentials of one service. */
export interface OAuth2Client {
  readonly client_id: string;
  readonly client_secret: string;
  readonly auth_url: string;
  readonly scope?: string;
}

interface CachedToken {
  readonly token: string;
  readonly until: number;
}

/** Options of {@link OAuth2TokenCache}. */
export interface OAuth2TokenCacheOptions {
  readonly dispatcher: () => Dispatcher;
  readonly now: () => number;
  /** Called with every token issued, so the handler can scrub it from anything it returns. */
  readonly onToken: (token: string) => void;
}

/** RFC 6749 §2.3.1: id and secret are form-urlencoded before being joined and base64-encoded. */
export function clientBasicCredentials(client: OAuth2Client): string {
  const enc = (s: string): string => encodeURIComponent(s).replace(/%20/g, '+');
  return Buffer.from(`${enc(client.client_id)}:${enc(client.client_secret)}`).toString('base64');
}

/** Fetches and caches client-credentials tokens per service name. */
export class OAuth2TokenCache {
  readonly #tokens = new Map<string, CachedToken>();
  readonly #inflight = new Map<string, Promise<string | ToolError>>();
  constructor(private readonly options: OAuth2TokenCacheOptions) {}

  /** Forgets the cached token of a service (after the API answered 401). */
  invalidate(service: string): void {
    this.#tokens.delete(service);
  }

  /**
   * A valid token for the service, fetching one if needed; a tool error when that fails, and
   * `timeout` when `signal` aborts first (the shared fetch goes on for the other callers).
   */
  async token(
    service: string,
    client: OAuth2Client,
    signal: Abortable,
  ): Promise<string | ToolError> {
    const cached = this.#tokens.get(service);
    if (cached !== undefined && cached.until > this.options.now()) return cached.token;
    let pending = this.#inflight.get(service);
    if (pending === undefined) {
      const deadline = startDeadline(TOKEN_TIMEOUT_MS, NEVER, this.options.now());
      pending = this.#fetch(service, client, deadline).finally(() => {
        deadline.dispose();
        this.#inflight.delete(service);
      });
      this.#inflight.set(service, pending);
    }
    const token = await untilAborted(pending, signal);
    return (
      token ??
      new ToolError('timeout', `could not get an access token for service ${service} in time`)
    );
  }

  async #fetch(
    service: string,
    client: OAuth2Client,
    signal: Abortable,
  ): Promise<string | ToolError> {
    const body = new URLSearchParams({ grant_type: 'client_credentials' });
    if (client.scope !== undefined) body.set('scope', client.scope);
    let url: URL;
    try {
      url = new URL(client.auth_url);
    } catch {
      return new ToolError('not_available', `service ${service} has an invalid auth_url`);
    }
    const started = this.options.now();
    const result = await exchange(
      this.options.dispatcher(),
      {
        url: requestUrl(url),
        method: 'POST',
        headers: {
          authorization: `Basic ${clientBasicCredentials(client)}`,
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: body.toString(),
        signal,
      },
      { maxBodyBytes: 64 * 1024, maxErrorBodyBytes: 1024, maxHeaderBytes: 16 * 1024 },
    );
    const failed = `could not get an access token for service ${service}`;
    if (!result.ok) {
      const { failure } = result;
      if (failure.kind === 'aborted')
        return new ToolError('timeout', `${failed}: no answer in time`);
      if (failure.kind === 'policy')
        return new ToolError('policy_denied', `${failed}: ${failure.message}`);
      if (failure.kind === 'network')
        return new ToolError('network', `${failed}: ${failure.message}`);
      return new ToolError('bad_response', `${failed}: unusable token response`);
    }
    const { status } = result.response;
    // The token server's body is never quoted: it may echo credentials.
    if (status < 200 || status >= 300)
      return new ToolError('http_status', `${failed} (status ${status})`, { status });
    let parsed: unknown;
    try {
      // RFC 6749 §5.1 token responses are JSON whatever content-type a server sends.
      parsed = JSON.parse(result.response.body.toString('utf8'));
    } catch {
      return new ToolError('bad_response', `${failed}: the token response is not JSON`);
    }
    const record =
      typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
    const token = Object.hasOwn(record, 'access_token') ? record['access_token'] : undefined;
    if (typeof token !== 'string' || token === '')
      return new ToolError('bad_response', `${failed}: no access_token in the response`);
    this.options.onToken(token);
    const expiresIn = Object.hasOwn(record, 'expires_in')
      ? Number(record['expires_in'])
      : Number.NaN;
    const lifetime =
      Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn * 1000 : DEFAULT_TOKEN_LIFETIME_MS;
    const margin = Math.min(TOKEN_MARGIN_MS, lifetime / 10);
    this.#tokens.set(service, { token, until: started + lifetime - margin });
    return token;
  }
}
