/**
 * An attacker's afternoon (docs/reliability.md): a host that puts a credential in a service's
 * plain `headers` (`authorization`, `x-api-key`, `cookie`, `proxy-authorization`) instead of
 * `auth`. Before, it needed no `origins` (a definition naming the service sent it to any URL)
 * and an API echoing it put it in the history and before the model. Those headers are
 * credentials now: `origins` required, their values scrubbed like `auth`'s.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { DefinitionError } from '../../src/errors.js';
import { createEndpointHandler } from '../../src/handlers/endpoint/endpoint-handler.js';
import { createSession } from '../../src/session/create-session.js';
import type { SessionEvent } from '../../src/session/types.js';
import { ScriptedModel } from '../../src/testing.js';
import { startTestServer, type TestServer } from '../handlers/test-server.js';
import { fn } from '../reliability/helpers.js';

const KEY = 'k3y-Pl4nted-9a8b7c';
const TOKEN = 't0ken-Pl4nted-1d2e3f';
let api: TestServer;
beforeAll(async () => {
  api = await startTestServer();
});
afterAll(() => api.close());
beforeEach(() => {
  api.reset();
  // An API that echoes every request header (a debug endpoint, a careless error page).
  api.route('*', (req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(req.headers)),
  );
});

const tool = () => ({
  type: 'endpoint',
  tool: fn('lookup'),
  endpoint: { url: `${api.origin}/lookup`, method: 'get' },
  service: 'crm',
});

describe('credentials in a service’s plain headers', () => {
  it.each([
    ['x-api-key', { 'x-api-key': KEY }],
    ['Authorization', { Authorization: `Bearer ${TOKEN}` }],
    ['cookie', { cookie: `sid=${KEY}` }],
  ])('%s without origins fails createSession, naming the header', async (name, headers) => {
    const tools = await loadTools([tool()]);
    const model = new ScriptedModel([{ text: 'ok' }]);
    let thrown: unknown;
    try {
      createSession({ tools, model, services: { crm: { headers } } });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(DefinitionError);
    expect((thrown as DefinitionError).issues).toEqual([
      expect.objectContaining({ code: 'origins_required', path: 'services.crm.origins' }),
    ]);
    expect((thrown as Error).message).toContain(`a credential header (${name})`);
    // A handler made without a session refuses it too.
    expect(() => createEndpointHandler({ services: { crm: { headers } } })).toThrow(
      /services\.crm\.origins: is required for a service with a credential header/,
    );
  });

  it('a header that carries no credential still needs no origins', async () => {
    const tools = await loadTools([tool()]);
    const model = new ScriptedModel([{ text: 'ok' }]);
    const s = createSession({ tools, model, services: { crm: { headers: { 'x-site': 'a' } } } });
    await s.close();
  });

  it('an echo of them reaches neither the model, the history, the events nor the result', async () => {
    const tools = await loadTools([tool()]);
    const model = new ScriptedModel(
      [{ tool_calls: [{ name: 'lookup', args: {} }] }, { text: 'done' }],
      { record: true },
    );
    const events: SessionEvent[] = [];
    const s = createSession({
      tools,
      model,
      networkPolicy: {},
      services: {
        crm: {
          headers: { 'x-api-key': KEY, Authorization: `Bearer ${TOKEN}` },
          origins: [api.origin],
        },
      },
      onEvent: (e) => events.push(e),
    });
    const result = await s.run('go');
    const everything = JSON.stringify([events, result, s.toJSON(), model.calls]);
    await s.close();
    // The search is not vacuous: both were sent, and echoed.
    expect(api.requests[0]?.headers['x-api-key']).toBe(KEY);
    expect(api.requests[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(everything).toContain('[redacted]');
    expect(everything).not.toContain(KEY);
    expect(everything).not.toContain(TOKEN);
  });
});
