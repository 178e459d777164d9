import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createEndpointHandler,
  type EndpointHandler,
} from '../../src/handlers/endpoint/endpoint-handler.js';
import type { HandlerOutcome, HttpExchangeRecord } from '../../src/handlers/types.js';
import type { ServiceConfig } from '../../src/session/types.js';
import { makeContext, makeTool } from './helpers.js';
import { json, startTestServer, type Route, type TestServer } from './test-server.js';

// Unique fake secrets, one per auth kind (and the token the oauth2 server issues).
const S = {
  basic: 'pw-B4sic-7f3a9e1c',
  bearer: 'tok-B3arer-5d2c8b0a',
  custom: 'key-Cust0m-9a1e4f7d',
  client: 'cs-Cl1ent-3b6d0c2e',
  token1: 'at-Issued1-8e7f6a5b',
  token2: 'at-Issued2-1c2d3e4f',
};
const BASIC_PAIR = `user-basic:${S.basic}`;

/** Every form a secret could leak in. */
function forms(secret: string): string[] {
  const b64 = Buffer.from(secret).toString('base64');
  return [secret, b64, b64.replace(/=+$/, ''), encodeURIComponent(secret), encodeURIComponent(b64)];
}
const SECRET_FORMS = [...Object.values(S), BASIC_PAIR, `client-1:${S.client}`].flatMap(forms);

let api: TestServer;
let auth: TestServer;
let handler: EndpointHandler;
let tokenRequests: Array<{ authorization: string | undefined; body: string }>;
let issue: string[];
const seen: HttpExchangeRecord[] = [];

function services(): Record<string, ServiceConfig> {
  const origins = [api.origin];
  return {
    basic: { auth: { type: 'basic', username: 'user-basic', password: S.basic }, origins },
    bearer: {
      auth: { type: 'bearer', token: S.bearer },
      headers: { 'x-tenant': 'acme' },
      origins,
    },
    custom: { auth: { type: 'custom_headers', headers: { 'X-Custom-Auth': S.custom } }, origins },
    oauth: {
      origins,
      auth: {
        type: 'oauth2',
        client_id: 'client-1',
        client_secret: S.client,
        auth_url: `${auth.origin}/token`,
        scope: 'read',
      },
    },
  };
}

beforeAll(async () => {
  api = await startTestServer();
  auth = await startTestServer();
});
afterEach(async () => {
  await handler.close();
});
afterAll(async () => {
  await api.close();
  await auth.close();
});
beforeEach(() => {
  // A fresh handler per test: oauth2 tokens are cached per handler.
  handler = createEndpointHandler({ services: services(), sleep: async () => undefined });
  api.reset();
  auth.reset();
  seen.length = 0;
  tokenRequests = [];
  issue = [S.token1, S.token2];
  auth.route('/token', (req, res, body) => {
    tokenRequests.push({ authorization: req.headers.authorization, body });
    const token = issue[Math.min(tokenRequests.length, issue.length) - 1];
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ access_token: token, token_type: 'bearer', expires_in: 3600 }));
  });
});

async function call(
  service: string,
  path: string,
  method: 'get' | 'post' = 'get',
  timeoutSecs = 1,
): Promise<HandlerOutcome> {
  const tool = makeTool({
    endpoint: { url: `${api.origin}${path}`, method, timeoutSecs },
    service,
  });
  return handler.execute({ q: 'x' }, makeContext(tool, { onRequest: (r) => seen.push(r) }));
}

/** Everything a session could show: output, error JSON and message, records, effects. */
function visible(out: HandlerOutcome): string {
  const parts: unknown[] = [
    out,
    seen,
    out.type === 'error' ? [out.error.message, out.error.toJSON(), out.error.details] : out.output,
  ];
  return JSON.stringify(parts);
}

function expectNoSecrets(out: HandlerOutcome): void {
  const text = visible(out);
  const hits = SECRET_FORMS.filter((f) => text.includes(f));
  expect(hits).toEqual([]);
}

/** A hostile API that echoes every request header back, in the body of the given status. */
const echo =
  (status: number, type = 'application/json'): Route =>
  (req, res) => {
    res
      .writeHead(status, { 'content-type': type })
      .end(JSON.stringify({ headers: req.headers, url: req.url }));
  };

const KINDS = ['basic', 'bearer', 'custom', 'oauth'] as const;

describe('service auth', () => {
  it('sends each kind of auth and records it redacted', async () => {
    api.route('*', echo(200));
    const basic = await call('basic', '/a');
    expect(api.requests[0]?.headers.authorization).toBe(
      `Basic ${Buffer.from(BASIC_PAIR).toString('base64')}`,
    );
    expect(basic.requests[0]?.headers['authorization']).toBe('[redacted]');
    await call('bearer', '/a');
    expect(api.requests[1]?.headers.authorization).toBe(`Bearer ${S.bearer}`);
    expect(api.requests[1]?.headers['x-tenant']).toBe('acme');
    const custom = await call('custom', '/a');
    expect(api.requests[2]?.headers['x-custom-auth']).toBe(S.custom);
    expect(custom.requests[0]?.headers['x-custom-auth']).toBe('[redacted]');
    await call('oauth', '/a');
    expect(api.requests[3]?.headers.authorization).toBe(`Bearer ${S.token1}`);
  });

  it('oauth2: client credentials by HTTP Basic, grant_type form, token cached', async () => {
    api.route('*', json(200, { ok: true }));
    await call('oauth', '/a');
    await call('oauth', '/b');
    expect(tokenRequests).toHaveLength(1);
    expect(tokenRequests[0]?.authorization).toBe(
      `Basic ${Buffer.from(`client-1:${S.client}`).toString('base64')}`,
    );
    expect(Object.fromEntries(new URLSearchParams(tokenRequests[0]?.body ?? ''))).toEqual({
      grant_type: 'client_credentials',
      scope: 'read',
    });
  });

  it('oauth2: a 401 refreshes the token once and retries once (even for POST)', async () => {
    api.route('*', (req, res) => {
      if (req.headers.authorization === `Bearer ${S.token2}`) json(200, { ok: true })(req, res, '');
      else res.writeHead(401).end();
    });
    const out = await call('oauth', '/a', 'post');
    expect(out.type).toBe('success');
    expect(tokenRequests).toHaveLength(2);
    expect(out.requests.map((r) => r.status)).toEqual([401, 200]);
    expectNoSecrets(out);
  });

  it('oauth2: a 401 that persists is an http_status error after one refresh', async () => {
    api.route('*', (_req, res) =>
      res.writeHead(401, { 'content-type': 'text/plain' }).end('denied'),
    );
    const out = await call('oauth', '/a');
    expect(out.type === 'error' && out.error.code).toBe('http_status');
    expect(api.requests).toHaveLength(2);
    expect(tokenRequests).toHaveLength(2);
  });

  it('oauth2: an expired token is fetched again', async () => {
    let clock = 1_000_000;
    const local = createEndpointHandler({ services: services(), now: () => clock });
    try {
      api.route('*', json(200, { ok: true }));
      const tool = makeTool({ endpoint: { url: `${api.origin}/a` }, service: 'oauth' });
      await local.execute({}, makeContext(tool));
      clock += 3_500_000; // inside the 3600 s lifetime minus the 30 s margin
      await local.execute({}, makeContext(tool));
      expect(tokenRequests).toHaveLength(1);
      clock += 80_000; // past expiry minus margin
      await local.execute({}, makeContext(tool));
      expect(tokenRequests).toHaveLength(2);
    } finally {
      await local.close();
    }
  });

  it('oauth2: an expires_in of 0 means the default lifetime, not a token to fetch every call', async () => {
    auth.route('/token', (req, res, body) => {
      tokenRequests.push({ authorization: req.headers.authorization, body });
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ access_token: S.token1, expires_in: 0 }));
    });
    let clock = 1_000_000;
    const local = createEndpointHandler({ services: services(), now: () => clock });
    try {
      api.route('*', json(200, { ok: true }));
      const tool = makeTool({ endpoint: { url: `${api.origin}/a` }, service: 'oauth' });
      await local.execute({}, makeContext(tool));
      clock += 60_000; // well inside the default 300 s lifetime minus its 30 s margin
      await local.execute({}, makeContext(tool));
      expect(tokenRequests).toHaveLength(1);
    } finally {
      await local.close();
    }
  });

  it('oauth2: a failing token endpoint is a tool error that never quotes its body', async () => {
    auth.route('/token', (req, res) =>
      res
        .writeHead(400, { 'content-type': 'application/json' })
        .end(JSON.stringify({ echo: req.headers.authorization })),
    );
    const out = await call('oauth', '/a');
    expect(out.type === 'error' && out.error.code).toBe('http_status');
    expect(api.requests).toHaveLength(0);
    expectNoSecrets(out);
  });

  it('oauth2: concurrent calls share one token fetch; cancelling one does not fail the others', async () => {
    auth.route('/token', (req, res, body) => {
      tokenRequests.push({ authorization: req.headers.authorization, body });
      setTimeout(
        () =>
          res
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ access_token: S.token1, expires_in: 60 })),
        300,
      );
    });
    api.route('*', json(200, { ok: true }));
    const tool = makeTool({
      endpoint: { url: `${api.origin}/a`, timeoutSecs: 2 },
      service: 'oauth',
    });
    const controller = new AbortController();
    const cancelled = handler.execute({}, makeContext(tool, { signal: controller.signal }));
    const others = [handler.execute({}, makeContext(tool)), handler.execute({}, makeContext(tool))];
    setTimeout(() => controller.abort(), 50);
    const first = await cancelled;
    expect(first.type === 'error' && first.error.code).toBe('cancelled');
    for (const out of await Promise.all(others)) expect(out.type).toBe('success');
    expect(tokenRequests).toHaveLength(1);
  });

  it('an unknown service is not_available, with zero connections', async () => {
    const out = await call('nope', '/a');
    expect(out.type === 'error' && out.error.code).toBe('not_available');
    expect(api.connections).toBe(0);
  });
});

describe('secrets never leak', () => {
  const faults: Array<[string, Route, 'get' | 'post']> = [
    ['happy path echoing headers', echo(200), 'get'],
    ['happy path echoing headers as text', echo(200, 'text/plain'), 'get'],
    ['500 echoing headers', echo(500), 'get'],
    ['503 echoing headers (retried)', echo(503), 'get'],
    ['400 echoing headers', echo(400, 'text/html'), 'post'],
    [
      'redirect',
      (_req, res) => res.writeHead(302, { location: `http://evil.example/?t=${S.bearer}` }).end(),
      'get',
    ],
    ['never answers', () => undefined, 'get'],
    [
      'reset mid-response',
      (_req, res) => {
        res.writeHead(200, { 'content-length': '100' });
        res.write('{"a":');
        setTimeout(() => res.socket?.destroy(), 10);
      },
      'get',
    ],
    [
      'bad JSON echoing headers',
      (req, res) =>
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(`<${JSON.stringify(req.headers)}`),
      'get',
    ],
    [
      'oversize body',
      (_req, res) =>
        res.writeHead(200, { 'content-type': 'text/plain' }).end(Buffer.alloc(1100 * 1024, 0x41)),
      'get',
    ],
    ['401', (_req, res) => res.writeHead(401).end(), 'post'],
  ];
  for (const [name, route, method] of faults) {
    it.each(KINDS)(`${name}: no secret of %s in any output`, async (kind) => {
      api.route('*', route);
      const out = await call(kind, '/x', method);
      expectNoSecrets(out);
    });
  }

  it('the planted secrets really were sent (the search is not vacuous)', async () => {
    api.route('*', echo(200));
    for (const kind of KINDS) await call(kind, '/x');
    const sent = JSON.stringify(api.requests);
    expect(sent).toContain(S.bearer);
    expect(sent).toContain(S.custom);
    expect(sent).toContain(S.token1);
    expect(sent).toContain(Buffer.from(BASIC_PAIR).toString('base64'));
    expect(JSON.stringify(auth.requests)).toContain(
      Buffer.from(`client-1:${S.client}`).toString('base64'),
    );
  });
});
