/**
 * Issue 49 item 1: the shared pools cap connections per origin (default 100, `connectionsPerOrigin`
 * for a set of pools, a service's `maxConnections` for its origins). Many concurrent calls to one
 * loopback server never open more sockets than the cap (counted as the server accepts them); calls
 * beyond it queue on the warm connections, and a queued call still ends at its deadline and is
 * never sent afterwards.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { DefinitionError } from '../../src/errors.js';
import {
  createConnectionPools,
  DEFAULT_CONNECTIONS_PER_ORIGIN,
} from '../../src/handlers/endpoint/connection-pools.js';
import { createEndpointHandler } from '../../src/handlers/endpoint/endpoint-handler.js';
import { createSession } from '../../src/session/create-session.js';
import { ScriptedModel } from '../../src/testing.js';
import { makeContext, makeTool } from './helpers.js';
import { startTestServer, type TestServer } from './test-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** Requests to /hold wait until `arrived` reach the server (or release() is called), then all answer. */
let held: Array<() => void> = [];
let holdUntil = Infinity;
let answerNow = false;
const releaseAll = (): void => {
  answerNow = true;
  const waiting = held;
  held = [];
  for (const answer of waiting) answer();
};
beforeEach(() => {
  server.reset();
  held = [];
  holdUntil = Infinity;
  answerNow = false;
  server.route('/hold', (_req, res) => {
    held.push(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
    // Once released (all `holdUntil` arrived, or release()), every request answers at once.
    if (answerNow || held.length >= holdUntil) releaseAll();
  });
  server.route('/now', (_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'),
  );
});

const holdTool = (service?: string) =>
  makeTool({
    name: 'hold',
    endpoint: { url: `${server.origin}/hold`, method: 'post', timeoutSecs: 10 },
    ...(service === undefined ? {} : { service }),
  });

describe('connection cap per origin', () => {
  it('300 concurrent calls open at most the pools’ cap of sockets, and all succeed', async () => {
    const pools = createConnectionPools({ connectionsPerOrigin: 8 });
    const handler = createEndpointHandler({ pools });
    const tool = holdTool();
    // The first 8 requests are held until all 8 arrive: without a cap every call would dial.
    holdUntil = 8;
    const outcomes = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        handler.execute({ i }, { ...makeContext(tool), callId: `c${i}` }),
      ),
    );
    expect(outcomes.filter((o) => o.type === 'success')).toHaveLength(300);
    expect(server.requests).toHaveLength(300);
    expect(server.connections).toBe(8);
    await pools.closeAll();
  });

  it('the default cap is 100', async () => {
    expect(DEFAULT_CONNECTIONS_PER_ORIGIN).toBe(100);
    const pools = createConnectionPools();
    const handler = createEndpointHandler({ pools });
    const tool = holdTool();
    holdUntil = 100;
    const outcomes = await Promise.all(
      Array.from({ length: 400 }, (_, i) =>
        handler.execute({ i }, { ...makeContext(tool), callId: `c${i}` }),
      ),
    );
    expect(outcomes.every((o) => o.type === 'success')).toBe(true);
    expect(server.connections).toBe(100);
    await pools.closeAll();
  });

  it("a service's maxConnections caps its origins", async () => {
    const pools = createConnectionPools();
    const services = { api: { origins: [server.origin], maxConnections: 3 } };
    const handler = createEndpointHandler({ pools, services });
    const tool = holdTool('api');
    holdUntil = 3;
    const outcomes = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        handler.execute({ i }, { ...makeContext(tool), callId: `c${i}` }),
      ),
    );
    expect(outcomes.every((o) => o.type === 'success')).toBe(true);
    expect(server.connections).toBe(3);
    await pools.closeAll();
  });

  it('a queued call ends at its deadline and is never sent once the connection frees', async () => {
    const pools = createConnectionPools({ connectionsPerOrigin: 1 });
    const handler = createEndpointHandler({ pools });
    const first = handler.execute({ n: 1 }, makeContext(holdTool()));
    const quick = makeTool({
      name: 'quick',
      endpoint: { url: `${server.origin}/now`, method: 'post', timeoutSecs: 0.05 },
    });
    // Queued behind the held call on the only connection: its 50 ms deadline passes there.
    const queued = await handler.execute({ n: 2 }, makeContext(quick));
    expect(queued.type).toBe('error');
    expect(queued.type === 'error' ? queued.error.code : '').toBe('timeout');
    releaseAll();
    expect((await first).type).toBe('success');
    // The connection is free again: a later call goes through it, and the expired one never did.
    const later = await handler.execute({ n: 3 }, makeContext(quick));
    expect(later.type).toBe('success');
    expect(server.requests.map((r) => JSON.parse(r.body) as { n: number })).toEqual([
      { n: 1 },
      { n: 3 },
    ]);
    expect(server.connections).toBe(1);
    await pools.closeAll();
  });

  it('bad caps are host configuration errors', async () => {
    expect(() => createConnectionPools({ connectionsPerOrigin: 0 })).toThrow(
      new TypeError(
        'createConnectionPools: connectionsPerOrigin: expected an integer from 1 to 10000, got 0',
      ),
    );
    expect(() =>
      createConnectionPools({ connectionsPerOrigin: '4' } as unknown as {
        connectionsPerOrigin: number;
      }),
    ).toThrow(
      new TypeError(
        'createConnectionPools: connectionsPerOrigin: expected an integer from 1 to 10000, got a string',
      ),
    );
    const emit = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      const pools = createConnectionPools({ connectionPerOrigin: 2 } as never);
      expect(emit.mock.calls).toEqual([
        [
          'connectionPerOrigin: is not a known option (did you mean `connectionsPerOrigin`?); it is ignored',
          { code: 'SWITCHBOARD_UNKNOWN_OPTION' },
        ],
      ]);
      await pools.closeAll();
    } finally {
      emit.mockRestore();
    }
    const tools = await loadTools([
      {
        type: 'endpoint',
        tool: {
          type: 'function',
          function: { name: 'ping', parameters: { type: 'object', properties: {} } },
        },
        endpoint: { url: `${server.origin}/now`, method: 'get' },
      },
    ]);
    const model = new ScriptedModel([]);
    expect(() => createSession({ tools, model, services: { api: { maxConnections: 5 } } })).toThrow(
      DefinitionError,
    );
    expect(() => createSession({ tools, model, services: { api: { maxConnections: 5 } } })).toThrow(
      /services\.api\.maxConnections.*needs the service's origins/s,
    );
    expect(() =>
      createSession({
        tools,
        model,
        services: { api: { origins: [server.origin], maxConnections: 1.5 } },
      }),
    ).toThrow(/services\.api\.maxConnections.*whole number from 1 to 10000, got 1\.5/s);
  });
});
