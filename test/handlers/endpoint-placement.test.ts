import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createEndpointHandler,
  type EndpointHandler,
} from '../../src/handlers/endpoint/endpoint-handler.js';
import type { HandlerOutcome } from '../../src/handlers/types.js';
import { makeContext, makeTool, type ToolOverrides } from './helpers.js';
import { startTestServer, type TestServer } from './test-server.js';

let server: TestServer;
let handler: EndpointHandler;

beforeAll(async () => {
  server = await startTestServer();
  handler = createEndpointHandler();
});
afterAll(async () => {
  await handler.close();
  await server.close();
});
beforeEach(() => {
  server.reset();
  server.route('*', (req, res, body) => {
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ url: req.url, body, ct: req.headers['content-type'] ?? null }));
  });
});

async function call(
  endpoint: ToolOverrides['endpoint'],
  args: Record<string, unknown>,
): Promise<HandlerOutcome> {
  const tool = makeTool({ endpoint });
  return handler.execute(args, makeContext(tool));
}

function errorCode(outcome: HandlerOutcome): string | undefined {
  return outcome.type === 'error' ? outcome.error.code : undefined;
}

describe('endpoint request placement', () => {
  it('fills a path placeholder and puts leftover arguments in the query', async () => {
    const out = await call(
      { url: `${server.origin}/v1/pets/{kind}`, argumentLocation: 'path' },
      { kind: 'cat', limit: 2 },
    );
    expect(out.type).toBe('success');
    expect(server.requests[0]?.url).toBe('/v1/pets/cat?limit=2');
  });

  it('encodes "../../admin" as one segment that stays under the configured path', async () => {
    await call(
      { url: `${server.origin}/v1/pets/{id}`, argumentLocation: 'path' },
      { id: '../../admin' },
    );
    expect(server.requests[0]?.url).toBe('/v1/pets/..%2F..%2Fadmin');
  });

  it.each(['..', '.', ''])('refuses the path value %j with zero connections', async (id) => {
    const out = await call(
      { url: `${server.origin}/v1/pets/{id}`, argumentLocation: 'path' },
      { id },
    );
    expect(errorCode(out)).toBe('invalid_arguments');
    expect(server.connections).toBe(0);
    expect(out.requests).toEqual([]);
  });

  it('refuses a missing or object path value', async () => {
    expect(
      errorCode(await call({ url: `${server.origin}/v1/{id}`, argumentLocation: 'path' }, {})),
    ).toBe('invalid_arguments');
    expect(
      errorCode(
        await call({ url: `${server.origin}/v1/{id}`, argumentLocation: 'path' }, { id: { a: 1 } }),
      ),
    ).toBe('invalid_arguments');
    expect(server.connections).toBe(0);
  });

  it.each([
    'a?b=1',
    'a#frag',
    'a&b',
    'a;b',
    'a=b',
    '//evil.example/x',
    '@evil.com',
    '\\evil',
    '%2e%2e',
    'x/../../y',
  ])('keeps %j inside one percent-encoded segment with the origin unchanged', async (id) => {
    const out = await call(
      { url: `${server.origin}/v1/pets/{id}`, argumentLocation: 'path' },
      { id },
    );
    expect(out.type).toBe('success');
    const got = server.requests[0]?.url ?? '';
    expect(got).toBe(`/v1/pets/${encodeURIComponent(id)}`);
    expect(out.requests[0]?.url.startsWith(`${server.origin}/v1/pets/`)).toBe(true);
  });

  it.each(['a\u0000b', 'a\r\nX-Injected: 1', 'a\u007fb', 'tab\there'])(
    'refuses control characters %j in path and query',
    async (bad) => {
      expect(
        errorCode(
          await call({ url: `${server.origin}/v1/{id}`, argumentLocation: 'path' }, { id: bad }),
        ),
      ).toBe('invalid_arguments');
      expect(errorCode(await call({ url: `${server.origin}/v1/q` }, { q: bad }))).toBe(
        'invalid_arguments',
      );
      expect(errorCode(await call({ url: `${server.origin}/v1/q` }, { q: ['ok', bad] }))).toBe(
        'invalid_arguments',
      );
      expect(server.connections).toBe(0);
    },
  );

  it('query: arrays repeat the key, objects are JSON, null is left out, configured query kept', async () => {
    await call(
      { url: `${server.origin}/search?v=2` },
      { tag: ['a', 'b'], filter: { x: 1 }, n: 3, yes: true, none: null },
    );
    const url = new URL(server.requests[0]?.url ?? '', 'http://x');
    expect(url.searchParams.getAll('v')).toEqual(['2']);
    expect(url.searchParams.getAll('tag')).toEqual(['a', 'b']);
    expect(url.searchParams.get('filter')).toBe('{"x":1}');
    expect(url.searchParams.get('n')).toBe('3');
    expect(url.searchParams.get('yes')).toBe('true');
    expect(url.searchParams.has('none')).toBe(false);
  });

  it('body: JSON with content-type application/json', async () => {
    const out = await call(
      { url: `${server.origin}/items`, method: 'post', argumentLocation: 'body' },
      { a: 1, b: ['x'] },
    );
    expect(out.type === 'success' && out.output).toEqual({
      url: '/items',
      body: '{"a":1,"b":["x"]}',
      ct: 'application/json',
    });
    expect(out.requests[0]).toMatchObject({
      method: 'POST',
      body: '{"a":1,"b":["x"]}',
      attempt: 1,
      status: 200,
    });
  });

  it('body: a model key "__proto__" is plain data and pollutes nothing', async () => {
    const args = JSON.parse('{"__proto__": {"isAdmin": true}, "a": 1}') as Record<string, unknown>;
    await call({ url: `${server.origin}/items`, method: 'post', argumentLocation: 'body' }, args);
    expect(JSON.parse(server.requests[0]?.body ?? '{}')).toEqual(
      JSON.parse('{"__proto__": {"isAdmin": true}, "a": 1}'),
    );
    expect(({} as Record<string, unknown>)['isAdmin']).toBeUndefined();
  });

  it('form: urlencoded with objects as JSON strings (control characters allowed, encoded)', async () => {
    const out = await call(
      { url: `${server.origin}/form`, method: 'post', argumentLocation: 'form' },
      { a: 'x y', o: { k: 1 }, note: 'l1\nl2' },
    );
    expect(out.type).toBe('success');
    expect(server.requests[0]?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    const params = new URLSearchParams(server.requests[0]?.body ?? '');
    expect(params.get('a')).toBe('x y');
    expect(params.get('o')).toBe('{"k":1}');
    expect(params.get('note')).toBe('l1\nl2');
  });

  it('reports every request through onRequest before its response', async () => {
    const seen: string[] = [];
    const tool = makeTool({ endpoint: { url: `${server.origin}/v1/x` } });
    const out = await handler.execute(
      { q: 1 },
      makeContext(tool, {
        onRequest: (r) => seen.push(`${r.method} ${r.url} ${r.status ?? 'pending'}`),
      }),
    );
    expect(seen).toEqual([`GET ${server.origin}/v1/x?q=1 pending`]);
    expect(out.requests).toHaveLength(1);
  });
});
