/**
 * What every HTTP server of switchboard refuses before it reads a request (`serve`, MCP over
 * HTTP): a server bound to loopback without a token answers only a loopback `Host` (a
 * DNS-rebinding page has its own name there), a browser `Origin` only when allowed, and with a bearer token only a request
 * that carries it. A server bound elsewhere must have a token: anyone who can reach it could
 * otherwise run the tools with the host's credentials.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/** True for `localhost`, 127.0.0.0/8 and ::1 (with or without brackets). */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase();
  return LOOPBACK_NAMES.has(h) || /^127(\.\d{1,3}){3}$/.test(h) || h.endsWith('.localhost');
}

/** True for a socket address on loopback (`::ffff:127.0.0.1` included). */
export function isLoopbackAddress(address: string): boolean {
  return isLoopbackHost(address.replace(/^::ffff:/i, ''));
}

/** The host name of a `Host` header (`[::1]:80` → `[::1]`, `localhost:80` → `localhost`). */
export function hostName(header: string): string {
  const bracket = /^\[[^\]]*\]/.exec(header);
  if (bracket !== null) return bracket[0];
  const colon = header.lastIndexOf(':');
  return colon < 0 ? header : header.slice(0, colon);
}

/**
 * An allowed browser origin: one of `allowed`, else (a loopback server told none) any http(s)
 * origin on a loopback name.
 */
export function originAllowed(
  origin: string,
  allowed: ReadonlySet<string>,
  loopback: boolean,
): boolean {
  if (allowed.has(origin)) return true;
  if (!loopback || allowed.size > 0) return false;
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && isLoopbackHost(url.hostname);
  } catch {
    return false;
  }
}

/**
 * Why a loopback server refuses the request's `Host`, or undefined. Only a server without a token
 * checks it: a DNS-rebinding page cannot know the token, while a reverse proxy on the same machine
 * that passes the public `Host` on (Caddy's and Traefik's default) must reach a server that has one.
 */
export function hostRefusal(
  host: string | undefined,
  loopback: boolean,
  token: string | undefined,
): string | undefined {
  if (!loopback || token !== undefined || isLoopbackHost(hostName(host ?? ''))) return undefined;
  return `Host ${JSON.stringify(host ?? '')} is not a loopback name (DNS rebinding protection); a reverse proxy in front must send a loopback Host, or the server needs a bearer token`;
}

/** The `Authorization` header carries `Bearer <token>` (compared in constant time). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer\s+(.+)$/i.exec(header ?? '');
  return m !== null && tokenMatches(m[1]!.trim(), token);
}

/**
 * Why a request's `Authorization` header is refused: missing, not the Bearer scheme, or a token
 * that does not match (a client with a stale token must not be told to send one it sent).
 */
export function bearerRefusal(header: string | undefined): string {
  if (header === undefined || header.trim() === '')
    return 'a bearer token is required (Authorization: Bearer <token>)';
  if (!/^Bearer\s+\S/i.test(header))
    return 'the Authorization header must be "Bearer <token>" (another scheme or no token was sent)';
  return "the bearer token does not match this server's token";
}

/**
 * Two secrets compared in constant time. Their SHA-256 digests are compared, not the strings: a
 * comparison that stops at a length mismatch tells a client, by its timing, the token's length.
 */
export function tokenMatches(got: string | undefined, token: string): boolean {
  if (got === undefined) return false;
  return timingSafeEqual(digest(got), digest(token));
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** The guard's settings: see {@link requestRefusal}. */
export interface RequestGuard {
  /** Bearer token every request must carry; undefined: none (loopback only). */
  readonly token: string | undefined;
  /** Browser origins allowed beyond the loopback default. */
  readonly origins: ReadonlySet<string>;
}

/** Why a request is refused, before anything reads it. */
export interface Refusal {
  readonly status: 401 | 403;
  readonly code: 'forbidden_host' | 'forbidden_origin' | 'token_required' | 'unauthorized';
  readonly message: string;
}

/**
 * Checks one request against the guard. `localAddress` is the address the request came in on:
 * a request reaching a server without a token on another address than loopback is refused (the
 * host bound the server itself, past the checked `listen`).
 */
export function requestRefusal(
  guard: RequestGuard,
  headers: IncomingHttpHeaders,
  localAddress: string | undefined,
): Refusal | undefined {
  const loopback = localAddress === undefined || isLoopbackAddress(localAddress);
  const badHost = hostRefusal(headers.host, loopback, guard.token);
  if (badHost !== undefined) return { status: 403, code: 'forbidden_host', message: badHost };
  const origin = headers.origin;
  if (origin !== undefined && !originAllowed(origin, guard.origins, loopback))
    return {
      status: 403,
      code: 'forbidden_origin',
      message: `Origin ${JSON.stringify(origin)} is not allowed`,
    };
  if (guard.token === undefined)
    return loopback
      ? undefined
      : {
          status: 403,
          code: 'token_required',
          message: 'this server has no bearer token and answers on loopback only',
        };
  if (!bearerMatches(headers.authorization, guard.token))
    return {
      status: 401,
      code: 'unauthorized',
      message: bearerRefusal(headers.authorization),
    };
  return undefined;
}

/** Throws when a server without a token would listen on an address other than loopback. */
export function checkBind(what: string, host: string, token: string | undefined): void {
  if (token !== undefined && token.trim() === '') throw new TypeError('token must not be empty');
  if (!isLoopbackHost(host) && token === undefined)
    throw new TypeError(
      `${what} on ${host} (not loopback) needs a bearer token: anyone who can reach it could call the tools`,
    );
}
