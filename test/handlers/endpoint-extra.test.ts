import { MockAgent } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createEndpointHandler,
  type EndpointHandler,
} from '../../src/handlers/endpoint/endpoint-handler.js';
import type { HandlerOutcome } from '../../src/handlers/types.js';
import { makeContext, makeTool } from './helpers.js';
import { json, startTestServer, type TestServer } from './test-server.js';

function code(out: HandlerOutcome): string {
  return out.type === 'error' ? out.error.code : 'success';
}

describe('endpoint with an injected MockAgent (the harness double)', () => {
  it('answers, fails and times out through any undici dispatcher', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    const pool = agent.get('https://api.mock.test');
    pool
      .intercept({ path: '/v1/pets/cat?n=1', method: 'GET' })
      .reply(200, { name: 'Tom' }, { headers: { 'content-type': 'application/json' } });
    pool
      .intercept({ path: '/v1/pets/dog', method: 'POST', body: '{"n":2}' })
      .replyWithError(new Error('boom'));
    pool.intercept({ path: '/v1/pets/slow', method: 'GET' }).reply(200, {}).delay(3000);
    const handler = createEndpointHandler({ dispatcher: agent });
    try {
      const ok = await handler.execute(
        { kind: 'cat', n: 1 },
        makeContext(
          makeTool({
            endpoint: { url: 'https://api.mock.test/v1/pets/{kind}', argumentLocation: 'path' },
          }),
        ),
      );
      expect(ok).toMatchObject({ type: 'success', output: { name: 'Tom' } });
      const failed = await handler.execute(
        { n: 2 },
        makeContext(
          makeTool({ endpoint: { url: 'https://api.mock.test/v1/pets/dog', method: 'post' } }),
        ),
      );
      expect(code(failed)).toBe('network');
      const slow = await handler.execute(
        {},
        makeContext(
          makeTool({ endpoint: { url: 'https://api.mock.test/v1/pets/slow', timeoutSecs: 1 } }),
        ),
      );
      expect(code(slow)).toBe('timeout');
    } finally {
      await handler.close();
      await agent.close();
    }
  });
});

describe('endpoint edge cases', () => {
  let server: TestServer;
  let handler: EndpointHandler;
  beforeAll(async () => {
    server = await startTestServer();
    handler = createEndpointHandler({
      services: {
        bad: { headers: { 'x-note': 'line1\r\nX-Injected: yes' } },
        plain: { headers: { 'X-Tenant': 'acme' } },
      },
    });
  });
  afterAll(async () => {
    await handler.close();
    await server.close();
  });
  beforeEach(() => server.reset());

  const call = (
    path: string,
    extra: { service?: string; method?: 'get' | 'post' } = {},
  ): Promise<HandlerOutcome> =>
    handler.execute(
      {},
      makeContext(
        makeTool({
          endpoint: { url: `${server.origin}${path}`, method: extra.method ?? 'get' },
          ...(extra.service === undefined ? {} : { service: extra.service }),
        }),
      ),
    );

  it('an unexpected throw is a handler_error outcome, before any I/O or during the call', async () => {
    server.route('/x', json(200, {}));
    // Before any I/O: a path value whose read throws (execute itself is not async).
    const hostile = Object.defineProperty({}, 'id', {
      enumerable: true,
      get() {
        throw new Error('getter blew up');
      },
    });
    const tool = makeTool({
      endpoint: { url: `${server.origin}/x/{id}`, argumentLocation: 'path' },
    });
    let early: Promise<HandlerOutcome> | undefined;
    expect(() => {
      early = handler.execute(hostile, makeContext(tool));
    }).not.toThrow();
    const before = await early;
    expect(code(before!)).toBe('handler_error');
    expect(before!.type === 'error' && before!.error.message).toContain('getter blew up');
    // During the call: a request listener that throws, after the deadline started.
    const during = await handler.execute(
      {},
      makeContext(makeTool({ endpoint: { url: `${server.origin}/x` } }), {
        onRequest: () => {
          throw new Error('listener blew up');
        },
      }),
    );
    expect(code(during)).toBe('handler_error');
    expect(during.type === 'error' && during.error.message).toContain('listener blew up');
    expect(server.connections).toBe(0);
  });

  it('a header value with control characters → invalid_arguments, nothing sent', async () => {
    const out = await call('/x', { service: 'bad' });
    expect(code(out)).toBe('invalid_arguments');
    expect(server.connections).toBe(0);
  });

  it('service headers are sent (lower-cased) and recorded as-is', async () => {
    server.route('/x', json(200, {}));
    const out = await call('/x', { service: 'plain' });
    expect(server.requests[0]?.headers['x-tenant']).toBe('acme');
    expect(out.requests[0]?.headers['x-tenant']).toBe('acme');
  });

  it('a 1xx informational response before the real one is skipped', async () => {
    server.route('/early', (_req, res) => {
      res.writeEarlyHints({ link: '</style.css>; rel=preload' });
      json(200, { ok: true })(_req, res, '');
    });
    expect(await call('/early')).toMatchObject({ type: 'success', output: { ok: true } });
  });

  it('an unknown content-encoding → bad_response', async () => {
    server.route('/enc', (_req, res) =>
      res.writeHead(200, { 'content-encoding': 'zstd-ish' }).end('xx'),
    );
    expect(code(await call('/enc'))).toBe('bad_response');
  });

  it('application/problem+json is parsed as JSON; text/plain stays text', async () => {
    server.route('/problem', (_req, res) =>
      res
        .writeHead(200, { 'content-type': 'application/problem+json; charset=utf-8' })
        .end('{"title":"ok"}'),
    );
    server.route('/text', (_req, res) =>
      res.writeHead(200, { 'content-type': 'text/plain' }).end('{"not":"parsed"}'),
    );
    expect(await call('/problem')).toMatchObject({ output: { title: 'ok' } });
    expect(await call('/text')).toMatchObject({ output: '{"not":"parsed"}' });
  });

  it('a tool with no endpoint, or an unusable URL, is not_available (no throw)', async () => {
    const noEndpoint = await handler.execute({}, makeContext(makeTool({ name: 'x' })));
    expect(code(noEndpoint)).toBe('not_available');
    const badUrl = await handler.execute(
      {},
      makeContext(makeTool({ endpoint: { url: 'ftp://{host}/x' } })),
    );
    expect(code(badUrl)).toBe('not_available');
  });

  it('close() is idempotent and a later call still works (a fresh Agent)', async () => {
    const local = createEndpointHandler();
    server.route('/x', json(200, { n: 1 }));
    await local.close();
    await local.close();
    expect(
      code(
        await local.execute({}, makeContext(makeTool({ endpoint: { url: `${server.origin}/x` } }))),
      ),
    ).toBe('success');
    await local.close();
  });

  it('the 500 excerpt is one line and at most 200 characters', async () => {
    server.route('/boom', (_req, res) =>
      res
        .writeHead(500, { 'content-type': 'text/html' })
        .end(`<h1>Error</h1>\n\n${'detail '.repeat(100)}`),
    );
    const out = await call('/boom');
    if (out.type !== 'error') throw new Error('expected an error');
    const body = String(out.error.details?.['body']);
    expect(body.length).toBeLessThanOrEqual(200);
    expect(body).not.toMatch(/\n/);
    expect(body.startsWith('<h1>Error</h1> detail')).toBe(true);
  });

  it('leaves no timers behind after calls finish and the handler closes', async () => {
    const local = createEndpointHandler();
    server.route('/x', json(200, { n: 1 }));
    server.route('/slow', () => undefined);
    const timers = (): number =>
      process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    const tool = makeTool({ endpoint: { url: `${server.origin}/x`, timeoutSecs: 60 } });
    await Promise.all(Array.from({ length: 30 }, () => local.execute({}, makeContext(tool))));
    const controller = new AbortController();
    const pending = local.execute(
      {},
      makeContext(makeTool({ endpoint: { url: `${server.origin}/slow`, timeoutSecs: 60 } }), {
        signal: controller.signal,
      }),
    );
    setTimeout(() => controller.abort(), 20);
    expect(code(await pending)).toBe('cancelled');
    await local.close();
    expect(timers()).toBeLessThanOrEqual(before + 1);
  });
});
