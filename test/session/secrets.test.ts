/**
 * RELIABILITY.md "Secrets", end to end: a session whose tools use every auth kind, against a
 * hostile service that echoes request headers back (in successes and failures). Nothing a
 * session produces — events, traces, history, what the model is sent, the state — may contain a
 * secret, raw, base64 or URL-encoded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { createSession } from '../../src/session/create-session.js';
import type { ServiceConfig, SessionEvent } from '../../src/session/types.js';
import type { Model } from '../../src/models/types.js';
import { isModelError } from '../../src/models/errors.js';
import { ScriptedModel } from '../../src/testing.js';
import { startTestServer, type TestServer } from '../handlers/test-server.js';
import { fn } from './fixtures.js';

const S = {
  basic: 'pw-SessB4sic-11aa22',
  bearer: 'tok-SessB3arer-33bb44',
  custom: 'key-SessCust0m-55cc66',
  client: 'cs-SessCl1ent-77dd88',
  issued: 'at-SessIssued-99ee00',
};
const forms = (s: string): string[] => {
  const b64 = Buffer.from(s).toString('base64');
  return [s, b64, b64.replace(/=+$/, ''), encodeURIComponent(s)];
};
const SECRET_FORMS = [...Object.values(S), `user:${S.basic}`, `client-9:${S.client}`].flatMap(
  forms,
);

let api: TestServer;
let auth: TestServer;
beforeAll(async () => {
  api = await startTestServer();
  auth = await startTestServer();
  auth.route('/token', (_req, res) => {
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ access_token: S.issued, expires_in: 3600 }));
  });
  let n = 0;
  api.route('*', (req, res) => {
    n += 1;
    // Alternate success and failure, both echoing every header back.
    const status = n % 2 === 0 ? 500 : 200;
    res
      .writeHead(status, { 'content-type': 'application/json' })
      .end(JSON.stringify({ headers: req.headers }));
  });
});
afterAll(async () => {
  await api.close();
  await auth.close();
});

describe('secrets never reach anything a session produces', () => {
  it('every auth kind, happy path and server errors', async () => {
    const kinds = ['basic', 'bearer', 'custom', 'oauth'] as const;
    const tools = await loadTools(
      kinds.map((kind) => ({
        type: 'endpoint',
        service: kind,
        tool: fn(`call_${kind}`, { q: { type: 'string' } }),
        endpoint: { url: `${api.origin}/v1/${kind}`, method: 'post', timeout: 2 },
      })),
    );
    const services: Record<string, ServiceConfig> = {
      basic: {
        auth: { type: 'basic', username: 'user', password: S.basic },
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
          client_id: 'client-9',
          client_secret: S.client,
          auth_url: `${auth.origin}/token`,
        },
        origins: [api.origin],
      },
    };
    const calls = kinds.flatMap((kind) => [
      { name: `call_${kind}`, args: { q: 'a' } },
      { name: `call_${kind}`, args: { q: 'b' } },
    ]);
    const model = new ScriptedModel([{ tool_calls: calls }, { text: 'done' }], { record: true });
    const session = createSession({ tools, model, services });
    const seen: unknown[] = [];
    const turn = session.send('go');
    for await (const event of turn) seen.push(event);
    const result = await turn.result;
    await session.close();

    // The secrets really went out (the search below is not vacuous) …
    const sent = JSON.stringify(api.requests);
    expect(sent).toContain(S.bearer);
    expect(sent).toContain(S.custom);
    expect(sent).toContain(S.issued);
    // … and both successes and failures happened.
    expect(result.traces.some((t) => t.isError)).toBe(true);
    expect(result.traces.some((t) => !t.isError)).toBe(true);

    const everything = JSON.stringify([seen, result, session.toJSON(), model.calls]);
    expect(SECRET_FORMS.filter((f) => everything.includes(f))).toEqual([]);
  });
});

describe('a model error that echoes a credential', () => {
  it('reaches the model-error event and the rejection with the credential scrubbed', async () => {
    const key = 'sk-ModelKey-0123456789abcdef';
    const model: Model = {
      name: 'leaky',
      credentials: () => [key],
      // eslint-disable-next-line require-yield
      async *stream() {
        throw new Error(`401 Unauthorized: incorrect API key ${key}`);
      },
    };
    const session = createSession({ tools: await loadTools([]), model });
    const stream = session.send('hi');
    const events: SessionEvent[] = [];
    for await (const e of stream) events.push(e);
    const error: unknown = await stream.result.catch((err: unknown) => err);
    expect(isModelError(error)).toBe(true);
    const message = (error as Error).message;
    expect(message).toContain('incorrect API key');
    expect(message).not.toContain(key);
    const reported = events.find((e) => e.type === 'model-error');
    expect(reported).toBeDefined();
    expect(JSON.stringify(reported)).not.toContain(key);
  });
});
