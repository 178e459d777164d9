/**
 * RELIABILITY.md "Remote services": the cases test/handlers/endpoint-faults.test.ts leaves out —
 * retries for PUT and DELETE, Retry-After on 429, the whole deadline with real waits, chunked
 * bodies over the cap, many small headers over 16 KiB, absurdly nested JSON, more documented
 * results for odd bodies — and the main faults once more through a whole session, where the
 * model must get a tool error and the session must go on.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import {
  createEndpointHandler,
  type EndpointHandler,
} from '../../src/handlers/endpoint/endpoint-handler.js';
import type { HandlerOutcome } from '../../src/handlers/types.js';
import { createSession } from '../../src/session/create-session.js';
import type { ServiceConfig } from '../../src/session/types.js';
import { ScriptedModel } from '../../src/testing.js';
import { useFaultEnv } from '../handlers/fault-env.js';
import { makeContext, makeTool } from '../handlers/helpers.js';
import { json, type Route, type TestServer } from '../handlers/test-server.js';
import { fn, lastToolMessage } from './helpers.js';

const env = useFaultEnv();
const waits = env.waits;
let server: TestServer;
let handler: EndpointHandler;
beforeAll(() => {
  server = env.server;
  handler = env.handler;
});

type Method = 'get' | 'post' | 'put' | 'delete';
const code = (out: HandlerOutcome): string => (out.type === 'error' ? out.error.code : 'success');
function call(
  path: string,
  method: Method = 'get',
  timeoutSecs = 2,
  via: EndpointHandler = handler,
): Promise<HandlerOutcome> {
  return via.execute(
    {},
    makeContext(makeTool({ endpoint: { url: `${server.origin}${path}`, method, timeoutSecs } })),
  );
}

describe('retries: idempotent methods only', () => {
  it.each([502, 503, 504, 429])(
    '%i is retried twice for PUT and DELETE, never for POST',
    async (status) => {
      server.route('*', json(status, { error: 'busy' }));
      for (const method of ['put', 'delete'] as const) {
        server.requests.length = 0;
        expect(code(await call('/x', method))).toBe('http_status');
        expect(server.requests.map((r) => r.method)).toEqual([
          method.toUpperCase(),
          method.toUpperCase(),
          method.toUpperCase(),
        ]);
      }
      server.requests.length = 0;
      waits.length = 0;
      expect(code(await call('/x', 'post'))).toBe('http_status');
      expect(server.requests).toHaveLength(1);
      expect(waits).toEqual([]);
    },
  );

  it.each([400, 401, 403, 404, 409, 422, 500, 501])(
    '%i is never retried, whatever the method',
    async (status) => {
      server.route('*', json(status, { error: 'no' }));
      for (const method of ['get', 'put', 'delete', 'post'] as const) {
        server.requests.length = 0;
        expect(code(await call('/x', method))).toBe('http_status');
        expect(server.requests).toHaveLength(1);
      }
    },
  );

  it('429 with Retry-After inside the deadline is honoured, then succeeds', async () => {
    let n = 0;
    server.route('*', (req, res) => {
      n++;
      if (n === 1) res.writeHead(429, { 'retry-after': '1' }).end();
      else json(200, { ok: true })(req, res, '');
    });
    const out = await call('/x', 'get', 5);
    expect(out).toMatchObject({ type: 'success', output: { ok: true } });
    expect(waits).toEqual([1000]);
  });

  it('with real waits, Retry-After and slow answers together still end by the deadline', async () => {
    const real = createEndpointHandler();
    try {
      server.route('*', (_req, res) =>
        setTimeout(() => res.writeHead(503, { 'retry-after': '1' }).end('busy'), 200),
      );
      const started = Date.now();
      const out = await call('/x', 'get', 2, real);
      const took = Date.now() - started;
      expect(['http_status', 'timeout']).toContain(code(out));
      // 200 ms answer + 1 s wait + 200 ms answer fits; a second 1 s wait would not: stop there.
      expect(server.requests).toHaveLength(2);
      expect(took).toBeLessThan(2000 + 250);
    } finally {
      await real.close();
    }
  });
});

describe('what comes back', () => {
  it('a chunked body over the cap (no content-length) → response_too_large, connection discarded', async () => {
    let closed = false;
    server.route('*', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.on('close', () => (closed = true));
      let sent = 0;
      const t = setInterval(() => {
        if (sent++ > 40 || res.destroyed) {
          clearInterval(t);
          res.end();
          return;
        }
        res.write(Buffer.alloc(64 * 1024, 0x41));
      }, 1);
    });
    const out = await call('/x');
    expect(code(out)).toBe('response_too_large');
    await new Promise((r) => setTimeout(r, 100));
    expect(closed).toBe(true);
  });

  it('many small headers adding up to over 16 KiB → response_too_large', async () => {
    server.route('*', (_req, res) => {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      for (let i = 0; i < 400; i++) headers[`x-h${i}`] = 'v'.repeat(50);
      res.writeHead(200, headers).end('{}');
    });
    const out = await call('/x');
    expect(code(out)).toBe('response_too_large');
    expect(out.type === 'error' && out.error.message).toContain('headers');
  });

  it('JSON nested deeper than 64 levels → bad_response (nothing downstream can overflow)', async () => {
    const deep = (n: number): string => '['.repeat(n) + ']'.repeat(n);
    server.route('/deep', (_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(deep(200_000)),
    );
    server.route('/ok', (_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(deep(64)),
    );
    const out = await call('/deep');
    expect(code(out)).toBe('bad_response');
    expect(out.type === 'error' && out.error.message).toContain('nested');
    expect(code(await call('/ok'))).toBe('success');
  });

  it.each<[string, Route, unknown]>([
    ['empty 200 without a content type', (_q, r) => r.writeHead(200).end(), { status: 200 }],
    ['204 to a GET', (_q, r) => r.writeHead(204).end(), { status: 204 }],
    [
      '202 with an empty JSON body',
      (_q, r) => r.writeHead(202, { 'content-type': 'application/json' }).end(),
      { status: 202 },
    ],
    [
      'text/plain where JSON was expected',
      (_q, r) => r.writeHead(200, { 'content-type': 'text/plain' }).end('OK done'),
      'OK done',
    ],
    [
      'HTML',
      (_q, r) => r.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<p>hi</p>'),
      '<p>hi</p>',
    ],
    ['no content type, JSON-looking text', (_q, r) => r.writeHead(200).end('{"a":1}'), '{"a":1}'],
  ])('%s → a documented value', async (_label, route, expected) => {
    server.route('*', route);
    expect(await call('/x')).toMatchObject({ type: 'success', output: expected });
  });

  it.each<[string, string]>([
    ['HTML labelled JSON', '<!doctype html><p>Error</p>'],
    ['whitespace labelled JSON', '   '],
    ['truncated JSON', '{"a":'],
  ])('%s → bad_response with an excerpt', async (_label, body) => {
    server.route('*', (_q, r) =>
      r.writeHead(200, { 'content-type': 'application/json' }).end(body),
    );
    const out = await call('/x');
    expect(code(out)).toBe('bad_response');
  });
});

describe('faults through a whole session: a tool error for the model, the session goes on', () => {
  it('timeout, reset, 500, oversize, redirect, bad JSON, deep JSON — then a normal answer', async () => {
    server.route('/silent', () => undefined);
    server.route('/reset', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"partial":');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    server.route('/fail', json(500, { error: 'database on fire' }));
    server.route('/big', (_req, res) =>
      res.writeHead(200, { 'content-type': 'text/plain' }).end(Buffer.alloc(1100 * 1024, 0x41)),
    );
    server.route('/moved', (_req, res) => res.writeHead(302, { location: '/ok' }).end());
    server.route('/lying', (_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('<html>'),
    );
    server.route('/deep', (_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('['.repeat(100_000)),
    );
    server.route('/ok', json(200, { fine: true }));
    const names = ['silent', 'reset', 'fail', 'big', 'moved', 'lying', 'deep', 'ok'];
    const tools = await loadTools(
      names.map((name) => ({
        type: 'endpoint',
        tool: fn(`call_${name}`),
        endpoint: { url: `${server.origin}/${name}`, method: 'post', timeout: 1 },
      })),
    );
    const model = new ScriptedModel(
      [
        { tool_calls: names.map((name) => ({ name: `call_${name}` })) },
        { text: 'sorry about that' },
      ],
      { record: true },
    );
    const session = createSession({ tools, model });
    const started = Date.now();
    // How late this machine fires a 1 s timer right now: the 1 s deadline is that late too.
    const reference = new Promise<number>((resolve) =>
      setTimeout(() => resolve(Date.now() - started - 1000), 1000),
    );
    const result = await session.run('go');
    const elapsed = Date.now() - started;
    expect(elapsed).toBeLessThan(1900 + Math.max(0, await reference));
    expect(result.traces.map((t) => t.errorCode ?? 'ok')).toEqual([
      'timeout',
      'network',
      'http_status',
      'response_too_large',
      'http_redirect',
      'bad_response',
      'bad_response',
      'ok',
    ]);
    // POSTs: each sent exactly once, even the reset one.
    expect(server.requests.map((r) => r.url).sort()).toEqual(names.map((n) => `/${n}`).sort());
    expect(lastToolMessage(model, 1)).toBe('{"fine":true}');
    expect(result.content).toBe('sorry about that');
    // Nothing partial came back as a success.
    expect(JSON.stringify(result.traces)).not.toContain('"partial"');
    await session.close();
  });

  it('a service with a header the host misconfigured fails createSession, naming it', async () => {
    const services: Record<string, ServiceConfig> = {
      s: { headers: { 'x-tenant': 'acme\r\nx-admin: 1' } },
    };
    const tools = await loadTools([
      {
        type: 'endpoint',
        service: 's',
        tool: fn('c'),
        endpoint: { url: `${server.origin}/ok`, method: 'get' },
      },
    ]);
    expect(() => createSession({ tools, model: new ScriptedModel([]), services })).toThrow(
      'services.s.headers.x-tenant: contains characters that cannot be sent in an HTTP header',
    );
    expect(server.connections).toBe(0);
  });
});
