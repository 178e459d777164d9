/**
 * Who may talk to the studio. The page can run tools (and so send requests with the services'
 * credentials), so a request counts only when it names the studio itself: its Host is one of
 * the studio's own addresses (a DNS-rebinding page has its own name there) and its Origin, when
 * the browser sends one, is the studio's. A state-changing request must also be JSON, which a
 * cross-site form cannot send.
 */
import type { IncomingMessage } from 'node:http';
import { hostname, networkInterfaces } from 'node:os';
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
