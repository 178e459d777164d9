/**
 * Who may talk to the studio. The page can run tools (and so send requests with the services'
 * credentials), so a request counts only when it names the studio itself: its Host is one of
 * the studio's own addresses (a DNS-rebinding page has its own name there) and its Origin, when
 * the browser sends one, is the studio's. A state-changing request must also be JSON, which a
 * cross-site form cannot send. Off loopback the studio also needs its token (guardToken).
 */
import type { IncomingMessage } from 'node:http';
import { hostname, networkInterfaces } from 'node:os';
import { bearerMatches, tokenMatches } from '../http-guard.js';
import { StudioProblem } from './studio-problem.js';

/** Hosts that only this machine reaches. */
export const LOOPBACK_HOSTS: readonly string[] = ['127.0.0.1', 'localhost', '::1'];

/**
 * Every `Host` header value that names the studio listening on `host:port`. A wildcard host
 * (`0.0.0.0`, `::`) is reached by the machine's own addresses and name, so those count.
 */
export function studioHosts(options: {
  readonly host: string;
  readonly port: number;
}): Set<string> {
  const names = new Set([...LOOPBACK_HOSTS, options.host.toLowerCase()]);
  if (options.host === '0.0.0.0' || options.host === '::') {
    names.add(hostname().toLowerCase());
    for (const list of Object.values(networkInterfaces()))
      for (const a of list ?? []) names.add(a.address.toLowerCase());
  }
  return new Set([...names].map((h) => `${h.includes(':') ? `[${h}]` : h}:${options.port}`));
}

/** The cookie that carries a studio's token, per port (cookies do not tell ports apart). */
export function tokenCookie(port: number): string {
  return `switchboard_studio_${port}`;
}

/** The value of cookie `name` in a `Cookie` header. */
function cookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/**
 * With a token (required off loopback): a request must carry it, as the cookie the page's first
 * visit (`/?token=…`, the URL printed at start) set, or as `Authorization: Bearer`. Throws 401.
 */
export function guardToken(req: IncomingMessage, token: string | undefined, port: number): void {
  if (token === undefined) return;
  if (tokenMatches(cookie(req.headers.cookie, tokenCookie(port)), token)) return;
  if (bearerMatches(req.headers.authorization, token)) return;
  throw new StudioProblem(
    401,
    'unauthorized',
    'this studio needs its token: open the URL it printed at start (…/?token=…)',
  );
}

/** Throws a 403 (or 415) {@link StudioProblem} for a request that does not come from the studio's page. */
export function guardRequest(req: IncomingMessage, hosts: ReadonlySet<string>): void {
  const host = req.headers.host?.toLowerCase();
  if (host === undefined || !hosts.has(host))
    throw new StudioProblem(
      403,
      'foreign_host',
      `Host ${JSON.stringify(req.headers.host ?? '')} is not this studio (open it at http://${[...hosts][0]}/)`,
    );
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== 'null') {
    let originHost: string;
    try {
      const url = new URL(origin);
      originHost = url.protocol === 'http:' ? url.host.toLowerCase() : '';
    } catch {
      originHost = '';
    }
    if (!hosts.has(originHost))
      throw new StudioProblem(
        403,
        'foreign_origin',
        `Origin ${JSON.stringify(origin)} is not this studio`,
      );
  } else if (origin === 'null')
    throw new StudioProblem(403, 'foreign_origin', 'an opaque (null) Origin is not this studio');
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    const type = (req.headers['content-type'] ?? '').split(';', 1)[0]?.trim().toLowerCase();
    if (type !== 'application/json')
      throw new StudioProblem(415, 'not_json', 'send the request body as application/json');
  }
}
