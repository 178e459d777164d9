/**
 * Issue 14, item 12: `[::ffff:0:127.0.0.1]` (IPv4-translated, `::ffff:0:0:0/96`) was classed
 * public. Every range of the IANA IPv6 Special-Purpose Address Registry is checked here against
 * the decision documented in docs/handlers.md (private = refused under `denyPrivateNetworks`), and
 * refused URLs make zero dials.
 */
import { buildConnector } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { createEndpointHandler } from '../../src/handlers/endpoint/endpoint-handler.js';
import { classifyHost } from '../../src/handlers/endpoint/ip-address.js';
import { makeContext, makeTool } from '../handlers/helpers.js';

/** [address, private?, registry entry] — the first and, where it matters, the last address of a range. */
const RANGES: Array<[string, boolean, string]> = [
  ['::', true, '::/128 unspecified'],
  ['::1', true, '::1/128 loopback'],
  ['::ffff:8.8.8.8', true, '::ffff:0:0/96 IPv4-mapped (never dialled as such)'],
  ['::ffff:0:127.0.0.1', true, '::ffff:0:0:0/96 IPv4-translated, loopback'],
  ['::ffff:0:8.8.8.8', true, '::ffff:0:0:0/96 IPv4-translated, public IPv4'],
  ['0:0:0:0:ffff:0:a9fe:a9fe', true, '::ffff:0:0:0/96 IPv4-translated, expanded'],
  ['64:ff9b::8.8.8.8', false, '64:ff9b::/96 NAT64, public IPv4'],
  ['64:ff9b::10.0.0.1', true, '64:ff9b::/96 NAT64, private IPv4'],
  ['64:ff9b:1::8.8.8.8', true, '64:ff9b:1::/48 local-use translation'],
  ['100::1', true, '100::/64 discard-only'],
  ['100:0:0:1::1', true, '100:0:0:1::/64 dummy prefix'],
  ['2001::1', true, '2001::/32 Teredo'],
  ['2001:1::1', false, '2001:1::1/128 PCP anycast (globally reachable)'],
  ['2001:1::2', false, '2001:1::2/128 TURN anycast (globally reachable)'],
  ['2001:1::3', false, '2001:1::3/128 DNS-SD SRP anycast (globally reachable)'],
  ['2001:1::4', true, '2001::/23 IETF protocol assignments, unassigned'],
  ['2001:2::1', true, '2001:2::/48 benchmarking'],
  ['2001:3::1', false, '2001:3::/32 AMT (globally reachable)'],
  ['2001:4:112::1', false, '2001:4:112::/48 AS112-v6 (globally reachable)'],
  ['2001:10::1', true, '2001:10::/28 ORCHID (deprecated)'],
  ['2001:20::1', false, '2001:20::/28 ORCHIDv2 (globally reachable)'],
  ['2001:30::1', false, '2001:30::/28 drone remote ID (globally reachable)'],
  ['2001:1ff::1', true, '2001::/23, last /32'],
  ['2001:200::1', false, 'just past 2001::/23: ordinary global unicast'],
  ['2001:db8::1', true, '2001:db8::/32 documentation'],
  ['2002:0808:0808::1', false, '2002::/16 6to4, public IPv4'],
  ['2002:7f00:1::1', true, '2002::/16 6to4, loopback IPv4'],
  ['2620:4f:8000::1', false, '2620:4f:8000::/48 AS112 direct delegation (globally reachable)'],
  ['3fff::1', true, '3fff::/20 documentation'],
  ['3fff:fff::1', true, '3fff::/20 documentation, last'],
  ['3fff:1000::1', false, 'just past 3fff::/20'],
  ['5f00::1', true, '5f00::/16 SRv6 SIDs'],
  ['fc00::1', true, 'fc00::/7 unique local'],
  ['fdff::1', true, 'fc00::/7 unique local, last'],
  ['fe80::1', true, 'fe80::/10 link-local'],
  ['fec0::1', true, 'fec0::/10 site-local (deprecated)'],
  ['ff02::1', true, 'ff00::/8 multicast'],
  ['4000::1', true, 'outside 2000::/3: reserved by the IETF'],
  ['::1:0:0:1', true, '::/8 reserved by the IETF'],
  ['2606:4700::1111', false, 'ordinary global unicast'],
];

describe('IPv6 special-purpose ranges (IANA registry)', () => {
  it.each(RANGES)('%s is %s (%s)', (address, expected) => {
    const kind = classifyHost(`[${address}]`);
    expect(kind).toMatchObject({ kind: 'ip', private: expected });
  });

  const handlers: Array<{ close(): Promise<void> }> = [];
  afterAll(async () => {
    await Promise.all(handlers.map((h) => h.close()));
  });

  it('[::ffff:0:127.0.0.1] is refused with zero dials under denyPrivateNetworks', async () => {
    const dialled: string[] = [];
    const connector: buildConnector.connector = (opts, cb) => {
      dialled.push(opts.hostname);
      cb(new Error('no dial expected'), null);
    };
    const handler = createEndpointHandler({
      networkPolicy: { denyPrivateNetworks: true },
      connector,
    });
    handlers.push(handler);
    for (const host of ['[::ffff:0:127.0.0.1]', '[::ffff:0:7f00:1]', '[3fff::1]', '[5f00::1]']) {
      const tool = makeTool({ endpoint: { url: `http://${host}/x`, method: 'get' } });
      const out = await handler.execute({}, makeContext(tool));
      expect(out.type).toBe('error');
      if (out.type === 'error') expect(out.error.code).toBe('policy_denied');
    }
    expect(dialled).toEqual([]);
  });
});
