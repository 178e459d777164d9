import { buildConnector } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createEndpointHandler,
  type EndpointHandler,
} from '../../src/handlers/endpoint/endpoint-handler.js';
import { classifyHost, parseIPv4, parseIPv6 } from '../../src/handlers/endpoint/ip-address.js';
import { hostAllowed } from '../../src/handlers/endpoint/network-policy.js';
import type { NetworkPolicy } from '../../src/session/types.js';
import { makeContext, makeTool } from './helpers.js';
import { json, startTestServer, type TestServer } from './test-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

/** Counts dials and records the address asked for, but only ever connects to the loopback server. */
function connectorDouble(): { connector: buildConnector.connector; dialled: string[] } {
  const real = buildConnector({});
  const dialled: string[] = [];
  const connector: buildConnector.connector = (opts, cb) => {
    dialled.push(opts.hostname);
    real({ ...opts, hostname: '127.0.0.1', port: String(server.port), protocol: 'http:' }, cb);
  };
  return { connector, dialled };
}

/** A resolver double: answers from a table, counts calls, can change its answer between calls. */
function resolverDouble(table: Record<string, string[][]>): {
  lookup: (h: string) => Promise<string[]>;
  calls: string[];
} {
  const calls: string[] = [];
  const lookup = async (host: string): Promise<string[]> => {
    calls.push(host);
    const answers = Object.hasOwn(table, host) ? table[host] : undefined;
    if (answers === undefined) throw new Error(`ENOTFOUND ${host}`);
    const n = calls.filter((c) => c === host).length;
    return answers[Math.min(n, answers.length) - 1] ?? [];
  };
  return { lookup, calls };
}

interface Setup {
  handler: EndpointHandler;
  dialled: string[];
  calls: string[];
}

const handlers: EndpointHandler[] = [];
function setup(policy: NetworkPolicy, table: Record<string, string[][]> = {}): Setup {
  const { connector, dialled } = connectorDouble();
  const { lookup, calls } = resolverDouble(table);
  const handler = createEndpointHandler({ networkPolicy: policy, connector, lookup });
  handlers.push(handler);
  return { handler, dialled, calls };
}
afterAll(async () => {
  await Promise.all(handlers.map((h) => h.close()));
});
beforeEach(() => {
  server.reset();
  server.route('*', json(200, { ok: true }));
});

async function call(s: Setup, url: string): Promise<string> {
  const out = await s.handler.execute({}, makeContext(makeTool({ endpoint: { url } })));
  return out.type === 'error' ? out.error.code : 'success';
}

const PRIVATE_LITERALS = [
  'http://2130706433/x', // decimal 127.0.0.1
  'http://0177.0.0.1/x', // octal
  'http://0x7f.1/x', // hex + short
  'http://127.1/x', // short
  'http://0x7f000001/x',
  'http://017700000001/x',
  'http://[::1]/x',
  'http://[::ffff:127.0.0.1]/x', // IPv4-mapped
  'http://[::ffff:7f00:1]/x',
  'http://[::ffff:10.0.0.1]/x',
  'http://[64:ff9b::a9fe:a9fe]/x', // NAT64 of 169.254.169.254
  'http://[2002:c0a8:0101::1]/x', // 6to4 of 192.168.1.1
  'http://[fe80::1]/x',
  'http://[fd00::1]/x',
  'http://[::]/x',
  'http://0.0.0.0/x',
  'http://0/x',
  'http://10.1.2.3/x',
  'http://172.16.0.1/x',
  'http://192.168.0.10/x',
  'http://169.254.169.254/x', // cloud metadata
  'http://100.64.0.1/x',
  'http://224.0.0.1/x',
  'http://255.255.255.255/x',
];

describe('private-network policy', () => {
  it.each(PRIVATE_LITERALS)(
    'refuses the literal %s with zero dials and zero lookups',
    async (url) => {
      const s = setup({ denyPrivateNetworks: true });
      expect(await call(s, url)).toBe('policy_denied');
      expect(s.dialled).toEqual([]);
      expect(s.calls).toEqual([]);
    },
  );

  it('allows a public literal and dials exactly it', async () => {
    const s = setup({ denyPrivateNetworks: true });
    expect(await call(s, `http://93.184.216.34:${server.port}/x`)).toBe('success');
    expect(s.dialled).toEqual(['93.184.216.34']);
  });

  it('refuses a name resolving to several addresses when any is private', async () => {
    const s = setup(
      { denyPrivateNetworks: true },
      { 'mixed.test': [['93.184.216.34', '10.0.0.5']] },
    );
    expect(await call(s, 'http://mixed.test/x')).toBe('policy_denied');
    expect(s.dialled).toEqual([]);
  });

  it('refuses a name resolving to an IPv4-mapped private address', async () => {
    const s = setup({ denyPrivateNetworks: true }, { 'mapped.test': [['::ffff:169.254.169.254']] });
    expect(await call(s, 'http://mapped.test/x')).toBe('policy_denied');
    expect(s.dialled).toEqual([]);
  });

  it('refuses a name that does not resolve, or resolves to nothing', async () => {
    const s = setup({ denyPrivateNetworks: true }, { 'empty.test': [[]] });
    expect(await call(s, 'http://nowhere.test/x')).toBe('policy_denied');
    expect(await call(s, 'http://empty.test/x')).toBe('policy_denied');
    expect(s.dialled).toEqual([]);
  });

  it('dials the checked address, not a later DNS answer (no rebinding window)', async () => {
    // First answer public, every later answer private: only the checked address is ever dialled.
    const s = setup(
      { denyPrivateNetworks: true },
      { 'rebind.test': [['93.184.216.34'], ['127.0.0.1']] },
    );
    expect(await call(s, `http://rebind.test:${server.port}/x`)).toBe('success');
    expect(await call(s, `http://rebind.test:${server.port}/y`)).toBe('policy_denied');
    expect(s.dialled).toEqual(['93.184.216.34']);
    expect(
      s.dialled.every(
        (a) => classifyHost(a).kind === 'ip' && !(classifyHost(a) as { private: boolean }).private,
      ),
    ).toBe(true);
  });

  it('allowedHosts: exact names and *.suffix subdomains only', async () => {
    const s = setup({ allowedHosts: ['api.example.test', '*.good.test'] });
    expect(await call(s, `http://api.example.test:${server.port}/x`)).toBe('success');
    expect(await call(s, `http://a.b.good.test:${server.port}/x`)).toBe('success');
    expect(await call(s, `http://good.test:${server.port}/x`)).toBe('policy_denied');
    expect(await call(s, `http://evilgood.test:${server.port}/x`)).toBe('policy_denied');
    expect(await call(s, `http://api.example.test.evil:${server.port}/x`)).toBe('policy_denied');
    expect(s.dialled).toEqual(['api.example.test', 'a.b.good.test']);
  });

  it('without a policy nothing is resolved by the handler', async () => {
    const s = setup({});
    expect(await call(s, `http://127.0.0.1:${server.port}/x`)).toBe('success');
    expect(s.calls).toEqual([]);
  });
});

describe('IP address parsing', () => {
  it.each([
    ['127.0.0.1', 0x7f000001],
    ['2130706433', 0x7f000001],
    ['0177.0.0.1', 0x7f000001],
    ['0x7f.1', 0x7f000001],
    ['127.1', 0x7f000001],
    ['127.0.1', 0x7f000001],
    ['0x7F.0.0.0x1', 0x7f000001],
    ['10.0.0.1.', 0x0a000001],
  ])('parses IPv4 %s', (text, value) => {
    expect(parseIPv4(text)).toBe(value);
  });

  it.each(['256.0.0.1', '1.2.3.4.5', 'example.com', '1..2', '09.1.1.1', '4294967296'])(
    'rejects %s as IPv4',
    (text) => {
      expect(parseIPv4(text)).toBeUndefined();
    },
  );

  it('parses IPv6 forms', () => {
    expect(parseIPv6('::1')).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseIPv6('[::ffff:127.0.0.1]')).toEqual([0, 0, 0, 0, 0, 0xffff, 0x7f00, 1]);
    expect(parseIPv6('fe80::1%eth0')).toEqual([0xfe80, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseIPv6('1:2:3:4:5:6:7:8:9')).toBeUndefined();
    expect(parseIPv6('1::2::3')).toBeUndefined();
  });

  it('classifies public addresses as public', () => {
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '[2001:4860:4860::8888]']) {
      expect(classifyHost(a)).toMatchObject({ kind: 'ip', private: false });
    }
    expect(classifyHost('example.com')).toEqual({ kind: 'name' });
    expect(classifyHost('fe80::1%25eth0')).toMatchObject({ kind: 'ip', private: true });
    // 198.18.0.0/15 (benchmarking) spans 198.18.x.x and 198.19.x.x.
    expect(classifyHost('198.19.255.1')).toMatchObject({ kind: 'ip', private: true });
    expect(classifyHost('198.20.0.1')).toMatchObject({ kind: 'ip', private: false });
    // A zone id scopes even a global address to one link: never dialled as public.
    expect(classifyHost('2606:4700::1111%eth0')).toMatchObject({ kind: 'ip', private: true });
  });

  it('hostAllowed ignores case and a trailing dot', () => {
    expect(hostAllowed('API.Example.TEST.', ['api.example.test'])).toBe(true);
    expect(hostAllowed('x.example.test', ['*.EXAMPLE.test'])).toBe(true);
    expect(hostAllowed('example.test', ['*.example.test'])).toBe(false);
  });
});
