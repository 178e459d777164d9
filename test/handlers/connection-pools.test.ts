/**
 * Shared connection pools: sessions share one Agent per network policy, closing a session never
 * closes it, `closeAll()` does, policy pins stay per policy, and an idle pool never holds the
 * process open.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import {
  connectionPools,
  createConnectionPools,
  poolFor,
} from '../../src/handlers/endpoint/connection-pools.js';
import { createEndpointHandler } from '../../src/handlers/endpoint/endpoint-handler.js';
import { createSession } from '../../src/session/create-session.js';
import { ScriptedModel } from '../../src/testing.js';
import { startTestServer, type TestServer } from './test-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.reset();
  server.route('/ping', (_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'),
  );
});

const pingTools = async (origin: string) =>
  loadTools([
    {
      type: 'endpoint',
      tool: {
        type: 'function',
        function: { name: 'ping', parameters: { type: 'object', properties: {} } },
      },
      endpoint: { url: `${origin}/ping`, method: 'get', timeout: 5 },
    },
  ]);

const pingSession = async (options: { pools?: ReturnType<typeof createConnectionPools> } = {}) =>
  createSession({
    tools: await pingTools(server.origin),
    model: new ScriptedModel([{ tool_calls: [{ name: 'ping' }] }, { text: 'pong' }]),
    ...options,
  });

describe('shared connection pools', () => {
  it('sessions share one keep-alive connection by default; closing one leaves the pool open', async () => {
    const pools = createConnectionPools();
    for (let i = 0; i < 20; i++) {
      const session = await pingSession({ pools });
      const result = await session.run('ping');
      expect(result.traces[0]?.output).toEqual({ ok: true });
      await session.close();
    }
    // Twenty sessions, each closed after its turn: one Agent, whose connections do not grow with
    // the sessions (undici may open a second while the first is being released).
    expect(server.connections).toBeLessThanOrEqual(2);
    expect(pools.size).toBe(1);
    await pools.closeAll();
    expect(pools.size).toBe(0);
  });

  it('the process-wide pools are the default', async () => {
    await connectionPools.closeAll();
    const session = await pingSession();
    await session.run('ping');
    expect(connectionPools.size).toBe(1);
    await session.close();
    expect(connectionPools.size).toBe(1);
    await connectionPools.closeAll();
  });

  it('closeAll closes the sockets; later calls open a fresh pool', async () => {
    const pools = createConnectionPools();
    const a = await pingSession({ pools });
    await a.run('ping');
    await pools.closeAll();
    const b = await pingSession({ pools });
    expect((await b.run('ping')).traces[0]?.output).toEqual({ ok: true });
    expect(server.connections).toBe(2);
    await pools.closeAll();
  });

  it('one Agent per network policy; host order and case do not matter', () => {
    const pools = createConnectionPools();
    const a = poolFor(pools, { policy: { allowedHosts: ['a.test', 'B.test'] }, maxHeaderBytes: 1 });
    const b = poolFor(pools, { policy: { allowedHosts: ['b.test', 'a.test'] }, maxHeaderBytes: 1 });
    const open = poolFor(pools, { policy: {}, maxHeaderBytes: 1 });
    const deny = poolFor(pools, { policy: { denyPrivateNetworks: true }, maxHeaderBytes: 1 });
    const bigger = poolFor(pools, { policy: {}, maxHeaderBytes: 2 });
    expect(a).toBe(b);
    expect(new Set([a, open, deny, bigger]).size).toBe(4);
    return pools.destroyAll();
  });

  it('pools not made by createConnectionPools are refused when the handler is created', () => {
    // The pool a call takes is not on the public ConnectionPools, so a look-alike cannot serve.
    const lookAlike = { size: 0, closeAll: async () => {}, destroyAll: async () => {} };
    expect(() => createEndpointHandler({ pools: lookAlike })).toThrow(
      'createEndpointHandler(options.pools): expected connection pools from createConnectionPools(), got an object',
    );
    expect(() => poolFor(lookAlike, { policy: {}, maxHeaderBytes: 1 })).toThrow(TypeError);
    expect(Object.keys(createConnectionPools())).not.toContain('poolFor');
  });

  it('the shared Agent of a policy enforces it at dial time and dials its pinned addresses', async () => {
    const pools = createConnectionPools();
    const deny = poolFor(pools, { policy: { denyPrivateNetworks: true }, maxHeaderBytes: 16384 });
    await expect(
      deny.dispatcher.request({ origin: server.origin, path: '/ping', method: 'GET' }),
    ).rejects.toThrow(/private network/);
    expect(server.connections).toBe(0);
    // A name approved by a policy check is dialled at its pinned address, never re-resolved.
    const policy = { allowedHosts: ['pinned.test'] };
    const allowed = poolFor(pools, { policy, maxHeaderBytes: 16384 });
    allowed.pins.set('pinned.test', ['127.0.0.1']);
    const res = await allowed.dispatcher.request({
      origin: `http://pinned.test:${server.port}`,
      path: '/ping',
      method: 'GET',
    });
    expect(await res.body.json()).toEqual({ ok: true });
    expect(server.connections).toBe(1);
    // Pins belong to one policy's pool.
    expect(poolFor(pools, { policy: {}, maxHeaderBytes: 16384 }).pins.get('pinned.test')).toBe(
      undefined,
    );
    await pools.closeAll();
  });

  it('closing a handler ends its own calls in flight, not the pool', async () => {
    const pools = createConnectionPools();
    // Never answers: only close() (`cancelled`) or the 10 s deadline (`timeout`) can end the call.
    server.route('/slow', () => undefined);
    const tools = await loadTools([
      {
        type: 'endpoint',
        tool: {
          type: 'function',
          function: { name: 'slow', parameters: { type: 'object', properties: {} } },
        },
        endpoint: { url: `${server.origin}/slow`, method: 'post', timeout: 10 },
      },
    ]);
    const [tool] = tools.tools.values();
    if (tool === undefined) throw new Error('no tool');
    const handler = createEndpointHandler({ pools });
    const call = handler.execute(
      {},
      {
        tool,
        callId: 'c1',
        session: { id: 's', language: 'en-US', vars: {} },
        signal: new AbortController().signal,
      },
    );
    await new Promise((r) => setTimeout(r, 50));
    await handler.close();
    const out = await call;
    expect(out.type === 'error' ? out.error.code : out.type).toBe('cancelled');
    expect(pools.size).toBe(1);
    await pools.closeAll();
  });

  it('an idle shared pool does not keep the process alive', async () => {
    // The server asks for a 120 s keep-alive, and keeps idle sockets that long itself: a socket
    // that held the process open would keep the child alive past the 60 s kill below. So the
    // child's own exit (code 0) is the proof, however slow the machine.
    const keepAlive = createServer((_req, res) =>
      res
        .writeHead(200, {
          'content-type': 'application/json',
          connection: 'keep-alive',
          'keep-alive': 'timeout=120',
        })
        .end('{"ok":true}'),
    );
    keepAlive.keepAliveTimeout = 120_000;
    await new Promise<void>((resolve) => keepAlive.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(keepAlive.address() as AddressInfo).port}`;
    // A child process makes one call through the default pools and never closes them.
    const script = `
      const { createEndpointHandler } = await import(${JSON.stringify(new URL('../../dist/entries/handlers.js', import.meta.url).href)});
      const { loadTools } = await import(${JSON.stringify(new URL('../../dist/index.js', import.meta.url).href)});
      const tools = await loadTools([{ type: 'endpoint', tool: { type: 'function', function: { name: 'ping', parameters: { type: 'object', properties: {} } } },
        endpoint: { url: '${origin}/ping', method: 'get', timeout: 5 } }]);
      const h = createEndpointHandler();
      const out = await h.execute({}, { tool: tools.tools.get('ping'), callId: 'c', session: { id: 's', language: 'en-US', vars: {} }, signal: new AbortController().signal });
      console.log(out.type);
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      cwd: new URL('../..', import.meta.url),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      child.on('exit', (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    keepAlive.closeAllConnections();
    await new Promise((resolve) => keepAlive.close(resolve));
    expect(stderr).toBe('');
    expect(stdout.trim()).toBe('success');
    expect(code).toBe(0);
  }, 90_000);
});
