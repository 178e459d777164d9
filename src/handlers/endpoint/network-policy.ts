/**
 * The network policy for definitions from less trusted authors: `allowedHosts` and
 * `denyPrivateNetworks`. A host name is resolved once, every address must be public, and the
 * connection goes to an address that was checked (see pinned-connector.ts), so there is no DNS
 * rebinding window between the check and the dial.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import type { NetworkPolicy } from './service-config.js';
import { classifyHost } from './ip-address.js';

/** Resolves a host name to its addresses (IPv4 or IPv6 text). Injectable for tests. */
export type HostResolver = (hostname: string) => Promise<readonly string[]>;

/** The default resolver: the system resolver, every address. */
export const systemResolver: HostResolver = async (hostname) => {
  const found = await dnsLookup(hostname, { all: true, verbatim: true });
  return found.map((a) => a.address);
};

/** Thrown (inside the connector) and returned (before it) when the policy refuses a host. */
export class PolicyDeniedError extends Error {
  override readonly name = 'PolicyDeniedError';
}

/** The result of checking one host. */
export type PolicyVerdict =
  | {
      readonly ok: true;
      /** Checked addresses to dial; empty when the policy needs no resolution. */ readonly addresses: readonly string[];
    }
  | { readonly ok: false; readonly reason: string };

/** True when `host` matches an `allowedHosts` entry: exact, or `*.suffix` for any subdomain. */
export function hostAllowed(host: string, allowed: readonly string[]): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return allowed.some((entry) => {
    const e = entry.toLowerCase().replace(/\.$/, '');
    if (e.startsWith('*.')) return h.endsWith(e.slice(1)) && h.length > e.length - 1;
    return h === e;
  });
}

/** Strips the brackets of an IPv6 URL hostname. */
export function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

/**
 * Checks a host against the policy. With `denyPrivateNetworks`, IP literals (any notation) are
 * classified directly and names are resolved: every address must be public.
 */
export async function checkHost(
  hostname: string,
  policy: NetworkPolicy,
  resolve: HostResolver,
): Promise<PolicyVerdict> {
  const host = bareHost(hostname);
  if (policy.allowedHosts !== undefined && !hostAllowed(host, policy.allowedHosts)) {
    return { ok: false, reason: `host ${host} is not in the allowed hosts` };
  }
  if (policy.denyPrivateNetworks !== true) return { ok: true, addresses: [] };
  const literal = classifyHost(host);
  if (literal.kind === 'ip') {
    return literal.private
      ? { ok: false, reason: `address ${host} is in a private network` }
      : { ok: true, addresses: [literal.address] };
  }
  let addresses: readonly string[];
  try {
    addresses = await resolve(host);
  } catch {
    return { ok: false, reason: `host ${host} could not be resolved` };
  }
  if (addresses.length === 0) return { ok: false, reason: `host ${host} has no addresses` };
  for (const address of addresses) {
    const kind = classifyHost(address);
    if (kind.kind !== 'ip') return { ok: false, reason: `host ${host} resolved to a non-address` };
    if (kind.private)
      return { ok: false, reason: `host ${host} resolves to a private network address` };
  }
  return { ok: true, addresses: addresses.map((a) => bareHost(a)) };
}
