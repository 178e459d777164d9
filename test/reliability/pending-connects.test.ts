/**
 * Issue 14, item 8: a connect that never completes stayed open after the call's deadline and
 * after `session.close()` until undici's own 10 s connect timeout (622 sockets left after a
 * 600-session run). The connector double here hands undici a socket that never connects and
 * never calls back; the deadline and `close()` must destroy it.
 */
import { Socket } from 'node:net';
import type { buildConnector } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createEndpointHandler,
  type EndpointHandler,
} from '../../src/handlers/endpoint/endpoint-handler.js';
import {
  ConnectAbortedError,
  PendingConnects,
} from '../../src/handlers/endpoint/pending-connects.js';
import type { NetworkPolicy } from '../../src/session/types.js';
import { makeContext, makeTool } from '../handlers/helpers.js';

/** A connector whose connects never complete: a socket that is never connected, no callback. */
function silentConnector(): { connector: buildConnector.connector; sockets: Socket[] } {
  const sockets: Socket[] = [];
  const connector = ((): Socket => {
    const socket = new Socket();
    sockets.push(socket);
    return socket;
  }) as unknown as buildConnector.connector;
  return { connector, sockets };
}

const handlers: EndpointHandler[] = [];
afterEach(async () => {
  await Promise.all(handlers.splice(0).map((h) => h.close()));
});

const POLICIES: Array<[string, NetworkPolicy]> = [
  ['no policy', {}],
  ['a policy (the connect starts after an asynchronous check)', { allowedHosts: ['silent.test'] }],
];

describe('pending connects end with the calls that wanted them', () => {
  it.each(POLICIES)('the deadline destroys them (%s)', async (_label, networkPolicy) => {
    const { connector, sockets } = silentConnector();
    const handler = createEndpointHandler({
      connector,
      networkPolicy,
      lookup: async () => ['127.0.0.1'],
    });
    handlers.push(handler);
    const tool = makeTool({
      endpoint: { url: 'http://silent.test:8080/x', method: 'get', timeoutSecs: 0.2 },
    });
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, () => handler.execute({}, makeContext(tool))),
    );
    for (const out of outcomes) {
      expect(out.type).toBe('error');
      if (out.type === 'error') expect(out.error.code).toBe('timeout');
    }
    expect(sockets.length).toBeGreaterThan(0);
    await new Promise((r) => setImmediate(r));
    expect(sockets.filter((s) => !s.destroyed)).toEqual([]);
  });

  it('close() destroys them while the calls still wait', async () => {
    const { connector, sockets } = silentConnector();
    const handler = createEndpointHandler({ connector });
    handlers.push(handler);
    const tool = makeTool({
      endpoint: { url: 'http://silent.test:8080/x', method: 'get', timeoutSecs: 30 },
    });
    const pending = Promise.all(
      Array.from({ length: 5 }, () => handler.execute({}, makeContext(tool))),
    );
    await new Promise((r) => setTimeout(r, 50));
    expect(sockets.length).toBeGreaterThan(0);
    expect(sockets.filter((s) => !s.destroyed).length).toBeGreaterThan(0);
    await handler.close();
    const outcomes = await pending;
    for (const out of outcomes)
      expect(out.type === 'error' ? out.error.code : out.type).toBe('cancelled');
    await new Promise((r) => setImmediate(r));
    expect(sockets.filter((s) => !s.destroyed)).toEqual([]);
  });

  it('a call still waiting keeps the connect; the last call ending destroys it', async () => {
    const { connector, sockets } = silentConnector();
    const handler = createEndpointHandler({ connector });
    handlers.push(handler);
    const short = makeTool({
      endpoint: { url: 'http://silent.test:8080/a', method: 'get', timeoutSecs: 0.1 },
    });
    const long = makeTool({
      endpoint: { url: 'http://silent.test:8080/b', method: 'get', timeoutSecs: 0.4 },
    });
    const slow = handler.execute({}, makeContext(long));
    await handler.execute({}, makeContext(short));
    await new Promise((r) => setImmediate(r));
    expect(sockets.some((s) => !s.destroyed)).toBe(true);
    await slow;
    await new Promise((r) => setImmediate(r));
    expect(sockets.filter((s) => !s.destroyed)).toEqual([]);
  });
});

describe('PendingConnects bookkeeping', () => {
  const url = (origin: string): Pick<URL, 'origin' | 'protocol' | 'hostname' | 'port'> => {
    const u = new URL(origin);
    return { origin: u.origin, protocol: u.protocol, hostname: u.hostname, port: u.port };
  };
  /** A pending connect to `host`:80 through `connects`; `failed` once undici is told it failed. */
  function pendingConnect(connects: PendingConnects, host: string): { failed: () => boolean } {
    let failed = false;
    const connect = connects.track((() => undefined) as unknown as buildConnector.connector);
    connect(
      { protocol: 'http:', hostname: host, port: '80' } as buildConnector.Options,
      (...args) => {
        failed = args[0] instanceof ConnectAbortedError;
      },
    );
    return { failed: () => failed };
  }

  it('aborts an origin’s pending connects when its last call in flight leaves', () => {
    const connects = new PendingConnects();
    const a = pendingConnect(connects, 'a.test');
    const first = connects.enter(url('http://A.test'));
    const second = connects.enter(url('http://A.test'));
    connects.leave(first);
    expect(a.failed()).toBe(false);
    connects.leave(second);
    expect(a.failed()).toBe(true);
    expect(connects.size).toBe(0);
  });

  it('forgets only idle origins when it knows too many', () => {
    const connects = new PendingConnects();
    const busy = connects.enter(url('http://busy.test'));
    for (let i = 0; i < 600; i++) connects.leave(connects.enter(url(`http://h${i}.test`)));
    const c = pendingConnect(connects, 'busy.test');
    // The busy origin's record survived the forgetting: a second call joins its count.
    const again = connects.enter(url('http://busy.test'));
    expect(again).toBe(busy);
    connects.leave(busy);
    expect(c.failed()).toBe(false);
    connects.leave(again);
    expect(c.failed()).toBe(true);
  });
});
