// Secure by default: a server on loopback without a token answers only loopback names (a
// DNS-rebinding page has its own name in Host) and browser origins it allows; with a token, only requests carrying it;
// and it listens elsewhere only with a token. Refused before the body is read or a model runs.
import { afterEach, describe, expect, it } from 'vitest';
import {
  createAgentServer,
  type AgentServer,
  type AgentServerOptions,
} from '../../src/entries/serve.js';
import { hostRefusal, requestRefusal } from '../../src/http-guard.js';
import { loadTools } from '../../src/index.js';
import { fn } from '../session/fixtures.js';
import { ScriptModel, rawClient, startServer } from './helpers.js';

const tools = await loadTools([{ type: 'log', tool: fn('note', { text: { type: 'string' } }) }]);
let running: AgentServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function start(options: Partial<AgentServerOptions> = {}) {
  const model = new ScriptModel();
  const started = await startServer({ tools, model, ...options });
  running = started.agent;
  return { model, port: started.port };
}

/** One raw request with exactly these headers; the status line and the body of the answer. */
async function request(port: number, headers: Record<string, string>) {
  const { socket, closed } = await rawClient(port);
  const body = '{"prompt":"hi"}';
  const lines = Object.entries({
    'content-type': 'application/json',
    'content-length': String(body.length),
    connection: 'close',
    ...headers,
  }).map(([k, v]) => `${k}: ${v}\r\n`);
  socket.write(`POST /run_agent HTTP/1.1\r\n${lines.join('')}\r\n${body}`);
  const raw = await closed;
  const [head = '', text = ''] = raw.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), head: head.toLowerCase(), text };
}

describe('serve refuses before reading', () => {
  it('a Host that is not a loopback name, on a loopback server (DNS rebinding)', async () => {
    const { model, port } = await start();
    const refused = await request(port, { host: `evil.example:${port}` });
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.text)).toMatchObject({ error: { code: 'forbidden_host' } });
    // Names that only end like a loopback name are someone else's.
    for (const host of [
      `evillocalhost:${port}`,
      `localhost.evil.example:${port}`,
      `127.0.0.1.evil.example:${port}`,
    ])
      expect((await request(port, { host })).status).toBe(403);
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `app.localhost:${port}`])
      expect((await request(port, { host })).status).toBe(200);
    expect(model.started).toBe(3);
  });

  // Before: a server with a token behind a reverse proxy on the same machine that passes the
  // public Host on (Caddy's and Traefik's default) refused every request, token or not, with a
  // message that did not say what to change.
  it("with a token, a proxy's public Host is let through to the token check; without one, the refusal names the Host and the fix", async () => {
    const { model, port } = await start({ token: 's3cret-token' });
    const host = 'bot.example.com';
    expect((await request(port, { host, authorization: 'Bearer s3cret-token' })).status).toBe(200);
    const anonymous = await request(port, { host });
    expect(anonymous.status).toBe(401);
    expect(JSON.parse(anonymous.text)).toMatchObject({ error: { code: 'unauthorized' } });
    expect(model.started).toBe(1);
    await running?.close();
    const open = await start();
    const refused = await request(open.port, { host: `${host}:443` });
    expect(JSON.parse(refused.text)).toEqual({
      error: {
        code: 'forbidden_host',
        message:
          'Host "bot.example.com:443" is not a loopback name (DNS rebinding protection); a reverse proxy in front must send a loopback Host, or the server needs a bearer token',
      },
    });
  });

  it('the Host rule is one function for serve and MCP over HTTP', () => {
    expect(hostRefusal('evil.example', true, undefined)).toMatch(/^Host "evil.example" is not/);
    expect(hostRefusal(undefined, true, undefined)).toMatch(/^Host "" is not/);
    expect(hostRefusal('evil.example', true, 't')).toBeUndefined();
    expect(hostRefusal('evil.example', false, undefined)).toBeUndefined();
    expect(hostRefusal('[::1]:8787', true, undefined)).toBeUndefined();
  });

  it('a browser Origin it does not allow; loopback origins by default, or the ones given', async () => {
    const { port } = await start();
    const host = `127.0.0.1:${port}`;
    const foreign = await request(port, { host, origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.text)).toMatchObject({ error: { code: 'forbidden_origin' } });
    expect((await request(port, { host, origin: 'http://localhost:3000' })).status).toBe(200);
    await running?.close();
    const other = await start({ allowedOrigins: ['https://app.example.com'] });
    const h = `127.0.0.1:${other.port}`;
    expect((await request(other.port, { host: h, origin: 'https://app.example.com' })).status).toBe(
      200,
    );
    expect((await request(other.port, { host: h, origin: 'http://localhost:3000' })).status).toBe(
      403,
    );
  });

  it('with a token: a request without it, or with another, is 401 with a Bearer challenge', async () => {
    const { model, port } = await start({ token: 's3cret-token' });
    const host = `127.0.0.1:${port}`;
    // Each refusal says what is wrong: a client with a stale token is not told to send one.
    const why = new Map([
      [undefined, 'a bearer token is required (Authorization: Bearer <token>)'],
      ['Bearer wrong-token!', "the bearer token does not match this server's token"],
      [
        'Basic s3cret-token',
        'the Authorization header must be "Bearer <token>" (another scheme or no token was sent)',
      ],
    ]);
    for (const [authorization, message] of why) {
      const r = await request(port, { host, ...(authorization ? { authorization } : {}) });
      expect(r.status).toBe(401);
      expect(r.head).toContain('www-authenticate: bearer');
      expect(JSON.parse(r.text)).toEqual({ error: { code: 'unauthorized', message } });
      expect(r.text).not.toContain('s3cret');
    }
    expect(model.started).toBe(0);
    expect((await request(port, { host, authorization: 'Bearer s3cret-token' })).status).toBe(200);
  });

  it('listens on an address that is not loopback only with a token (nothing is bound)', async () => {
    const agent = createAgentServer({ tools, model: new ScriptModel() });
    await expect(agent.listen({ host: '0.0.0.0' })).rejects.toThrow(
      new TypeError(
        'serving agents on 0.0.0.0 (not loopback) needs a bearer token: anyone who can reach it could call the tools',
      ),
    );
    expect(agent.server.listening).toBe(false);
    expect(() => createAgentServer({ tools, model: new ScriptModel(), token: ' ' })).toThrow(
      'token must be a non-empty string',
    );
  });

  it('a request reaching a server without a token on another address than loopback (bound by the host itself)', () => {
    const guard = { token: undefined, origins: new Set<string>() };
    expect(requestRefusal(guard, { host: 'bot.example' }, '10.0.0.5')).toMatchObject({
      status: 403,
      code: 'token_required',
    });
    expect(requestRefusal(guard, { host: 'localhost' }, '::ffff:127.0.0.1')).toBeUndefined();
    expect(
      requestRefusal(
        { ...guard, token: 't' },
        { host: 'bot.example', authorization: 'Bearer t' },
        '10.0.0.5',
      ),
    ).toBeUndefined();
  });
});
