/**
 * Addresses an imported endpoint should not call without a second look: private, loopback and
 * link-local IPs in any spelling (classified as the network policy classifies them), cloud
 * metadata names and names that only resolve inside a local network. Import cannot resolve
 * names (it is offline), so a public-looking name is never flagged.
 */
import { classifyHost, parseIPv4, parseIPv6 } from '../handlers/endpoint/ip-address.js';

/** A private address in a URL: `host[:port]` as the URL names it, and what kind it is. */
export interface PrivateAddress {
  readonly address: string;
  readonly kind: string;
}

const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata', 'instance-data']);
const LOCAL_SUFFIXES = ['.internal', '.local', '.localdomain', '.home.arpa', '.lan', '.intranet'];

/** The private address `url` points at, or undefined (public, a plain name, or not a URL). */
export function privateAddress(url: string): PrivateAddress | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const host = parsed.hostname;
  const bare = host.startsWith('[') ? host.slice(1, -1) : host;
  const kind = hostKind(bare.replace(/\.$/, ''));
  return kind === undefined ? undefined : { address: parsed.host, kind };
}

function hostKind(host: string): string | undefined {
  const ip = classifyHost(host);
  if (ip.kind === 'ip') return ip.private ? ipKind(ip.address) : undefined;
  if (host === 'localhost' || host.endsWith('.localhost')) return 'a loopback name';
  if (METADATA_NAMES.has(host)) return 'a cloud metadata service';
  if (LOCAL_SUFFIXES.some((s) => host.endsWith(s)))
    return 'a name that resolves inside a local network';
  if (!host.includes('.')) return 'a single-label name, resolved inside the local network';
  return undefined;
}

function ipKind(address: string): string {
  const v4 = parseIPv4(address);
  if (v4 !== undefined) {
    const first = Math.floor(v4 / 2 ** 24);
    const second = Math.floor(v4 / 2 ** 16) % 256;
    if (first === 127) return 'a loopback address';
    if (first === 169 && second === 254)
      return 'a link-local address, where cloud metadata services answer';
    if (first === 10 || (first === 172 && second >= 16 && second < 32))
      return 'a private network address';
    if (first === 192 && second === 168) return 'a private network address';
    return 'an address that is not publicly routable';
  }
  const v6 = parseIPv6(address) ?? [];
  if (v6.slice(0, 7).every((g) => g === 0) && v6[7] === 1) return 'a loopback address';
  if (((v6[0] ?? 0) & 0xffc0) === 0xfe80) return 'a link-local address';
  if (((v6[0] ?? 0) & 0xfe00) === 0xfc00) return 'a unique local (private) address';
  return 'an address that is not publicly routable';
}
