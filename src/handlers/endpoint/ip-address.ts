/**
 * Classifies IP addresses for the private-network policy. Parses IPv4 in every notation the
 * WHATWG URL standard and `inet_aton` accept (decimal `2130706433`, octal `0177.0.0.1`, hex
 * `0x7f.1`, short `127.1`) and IPv6 including zone ids and embedded IPv4 (mapped `::ffff:a.b.c.d`,
 * compatible `::a.b.c.d`, translated `::ffff:0:a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`),
 * so no spelling slips through.
 */

/** Parses an IPv4 address in any inet_aton notation to a 32-bit number, or undefined. */
export function parseIPv4(text: string): number | undefined {
  const parts = text.endsWith('.') ? text.slice(0, -1).split('.') : text.split('.');
  if (parts.length === 0 || parts.length > 4) return undefined;
  const nums: number[] = [];
  for (const part of parts) {
    let n: number;
    if (/^0[xX][0-9a-fA-F]*$/.test(part)) n = part.length === 2 ? 0 : parseInt(part.slice(2), 16);
    else if (/^0[0-7]+$/.test(part)) n = parseInt(part.slice(1), 8);
    else if (/^(0|[1-9][0-9]*)$/.test(part)) n = Number(part);
    else return undefined;
    if (!Number.isFinite(n)) return undefined;
    nums.push(n);
  }
  const last = nums.pop() ?? 0;
  if (nums.some((n) => n > 255)) return undefined;
  if (last >= 256 ** (4 - nums.length)) return undefined;
  let value = last;
  nums.forEach((n, i) => {
    value += n * 256 ** (3 - i);
  });
  return value;
}

/** Parses an IPv6 address (brackets and zone id allowed) into eight 16-bit groups, or undefined. */
export function parseIPv6(text: string): number[] | undefined {
  let s = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  if (!s.includes(':')) return undefined;
  let tail: number[] = [];
  const lastColon = s.lastIndexOf(':');
  const maybeV4 = s.slice(lastColon + 1);
  if (maybeV4.includes('.')) {
    if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(maybeV4)) return undefined;
    const v4 = parseIPv4(maybeV4);
    if (v4 === undefined) return undefined;
    tail = [Math.floor(v4 / 65536), v4 % 65536];
    s = `${s.slice(0, lastColon + 1)}0:0`; // placeholder groups, replaced by the IPv4 value below
  }
  const halves = s.split('::');
  if (halves.length > 2) return undefined;
  const parse = (h: string): number[] | undefined => {
    if (h === '') return [];
    const groups: number[] = [];
    for (const g of h.split(':')) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return undefined;
      groups.push(parseInt(g, 16));
    }
    return groups;
  };
  const head = parse(halves[0] ?? '');
  const rest = halves.length === 2 ? parse(halves[1] ?? '') : [];
  if (head === undefined || rest === undefined) return undefined;
  let groups: number[];
  if (halves.length === 2) {
    const fill = 8 - head.length - rest.length;
    if (fill < 1) return undefined;
    groups = [...head, ...new Array<number>(fill).fill(0), ...rest];
  } else groups = head;
  if (groups.length !== 8) return undefined;
  if (tail.length === 2) {
    groups[6] = tail[0] ?? 0;
    groups[7] = tail[1] ?? 0;
  }
  return groups;
}

function inV4(value: number, base: string, bits: number): boolean {
  const b = parseIPv4(base) ?? 0;
  const size = 2 ** (32 - bits);
  return Math.floor(value / size) === Math.floor(b / size);
}

// Not publicly routable (RFC 6890 special-purpose registry and friends).
const PRIVATE_V4: ReadonlyArray<readonly [string, number]> = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];

function isPrivateV4(value: number): boolean {
  return PRIVATE_V4.some(([base, bits]) => inV4(value, base, bits));
}

function embeddedV4(g: readonly number[]): number {
  return (g[6] ?? 0) * 65536 + (g[7] ?? 0);
}

/**
 * True for every IPv6 address that is not globally reachable, decided per range of the IANA IPv6
 * Special-Purpose Address Registry (docs/handlers.md lists each decision). Only 2000::/3 is global
 * unicast; outside it, only the NAT64 well-known prefix (by its embedded IPv4) can be public.
 */
function isPrivateV6(g: readonly number[]): boolean {
  const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, h = 0, i = 0] = g;
  const firstFourZero = a === 0 && b === 0 && c === 0 && d === 0;
  // ::/128, ::1/128, IPv4-compatible ::/96, IPv4-mapped ::ffff:0:0/96, IPv4-translated
  // ::ffff:0:0:0/96 (RFC 2765 SIIT): never dialled, whatever IPv4 they embed.
  if (firstFourZero && (e === 0 || e === 0xffff)) return true;
  if (a === 0x64 && b === 0xff9b) {
    // 64:ff9b::/96 well-known NAT64: as its embedded IPv4. 64:ff9b:1::/48 (local-use) and the
    // rest of 64:ff9b::/32: not global.
    return c !== 0 || d !== 0 || e !== 0 || f !== 0 || isPrivateV4(embeddedV4(g));
  }
  // Reserved by the IETF, discard-only 100::/64, dummy 100:0:0:1::/64, SRv6 SIDs 5f00::/16, ULA
  // fc00::/7, link-local fe80::/10, site-local fec0::/10, multicast ff00::/8: all outside 2000::/3.
  if ((a & 0xe000) !== 0x2000) return true;
  if (a === 0x2002) return isPrivateV4(b * 65536 + c); // 6to4: as its embedded IPv4
  if (a === 0x2001 && b < 0x200) {
    // 2001::/23 IETF protocol assignments: not global, but for the registry's reachable entries.
    if (b === 1 && c === 0 && d === 0 && e === 0 && f === 0 && h === 0 && i >= 1 && i <= 3)
      return false; // 2001:1::1, ::2, ::3 anycast (PCP, TURN, DNS-SD SRP)
    if (b === 3) return false; // 2001:3::/32 AMT
    if (b === 4 && c === 0x112) return false; // 2001:4:112::/48 AS112-v6
    if ((b & 0xfff0) === 0x20 || (b & 0xfff0) === 0x30) return false; // ORCHIDv2, drone remote ID
    return true; // Teredo 2001::/32, benchmarking 2001:2::/48, ORCHID 2001:10::/28, the rest
  }
  if (a === 0x2001 && b === 0xdb8) return true; // documentation 2001:db8::/32
  if (a === 0x3fff && (b & 0xf000) === 0) return true; // documentation 3fff::/20
  return false;
}

/** What a host string is: an IP literal (any notation) or a name. */
export type HostKind =
  | { readonly kind: 'ip'; readonly private: boolean; readonly address: string }
  | { readonly kind: 'name' };

/** Formats a 32-bit number as dotted IPv4. */
function v4Text(value: number): string {
  return [24, 16, 8, 0].map((s) => Math.floor(value / 2 ** s) % 256).join('.');
}

/**
 * Classifies a host (a URL hostname, or an address a resolver returned). Anything that parses as
 * an IP in any notation is an IP; `private` is true for every non-public range.
 */
export function classifyHost(host: string): HostKind {
  const h = host.toLowerCase();
  const v4 = parseIPv4(h);
  if (v4 !== undefined) return { kind: 'ip', private: isPrivateV4(v4), address: v4Text(v4) };
  const v6 = parseIPv6(h);
  if (v6 !== undefined) {
    const bare = h.startsWith('[') ? h.slice(1, -1) : h;
    return { kind: 'ip', private: h.includes('%') || isPrivateV6(v6), address: bare };
  }
  return { kind: 'name' };
}
