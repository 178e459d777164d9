/** Which Host values name the studio. */
import { hostname, networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import { studioHosts } from '../../src/studio/request-guard.js';

describe('studioHosts', () => {
  it('on loopback: its loopback names only', () => {
    expect([...studioHosts({ host: '127.0.0.1', port: 4780 })].sort()).toEqual([
      '127.0.0.1:4780',
      '[::1]:4780',
      'localhost:4780',
    ]);
  });

  it('on every address (--host 0.0.0.0): also the machine’s own addresses and name', () => {
    const hosts = studioHosts({ host: '0.0.0.0', port: 8000 });
    expect(hosts.has(`${hostname().toLowerCase()}:8000`)).toBe(true);
    const v4 = Object.values(networkInterfaces())
      .flatMap((l) => l ?? [])
      .find((a) => a.family === 'IPv4');
    if (v4 !== undefined) expect(hosts.has(`${v4.address}:8000`)).toBe(true);
    expect(hosts.has('attacker.example:8000')).toBe(false);
  });

  it('on every IPv6 address (--host ::): also the machine’s own name', () => {
    const hosts = studioHosts({ host: '::', port: 8000 });
    expect(hosts.has(`${hostname().toLowerCase()}:8000`)).toBe(true);
    expect(hosts.has('[::]:8000')).toBe(true);
    expect(hosts.has('attacker.example:8000')).toBe(false);
  });

  it('on a named address: that address too, brackets for IPv6', () => {
    expect(studioHosts({ host: '192.168.1.5', port: 1 }).has('192.168.1.5:1')).toBe(true);
    expect(studioHosts({ host: 'fe80::1', port: 1 }).has('[fe80::1]:1')).toBe(true);
  });
});
