/**
 * switchboard as an MCP server, checked with a client nobody here wrote: the official SDK's
 * `Client` over Streamable HTTP, in process on loopback. Each kind of tool, errors as `isError`
 * results, cancellation, list-changed, per-session state, auth and origin refusals.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { createMcpServer, type McpToolServer } from '../../src/mcp/server.js';
import type { McpHttpListener } from '../../src/mcp/server-http.js';
import { MAX_MCP_HISTORY } from '../../src/mcp/server-session.js';
import {
  startLoopbackApi,
  textOf,
  toolDefinitions,
  type LoopbackApi,
  INITIALIZE_BODY,
} from './server-helpers.js';

let api: LoopbackApi;
const open: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  api = await startLoopbackApi();
});
afterAll(() => api.close());
afterEach(async () => {
  for (const c of open.splice(0).reverse()) await c.close();
});

async function serve(
  options: { actions?: boolean; token?: string; allowedOrigins?: string[] } = {},
): Promise<{ server: McpToolServer; listener: McpHttpListener }> {
  const tools = await loadTools(toolDefinitions(api.base));
  const server = createMcpServer({
    tools,
    networkPolicy: { denyPrivateNetworks: false },
    ...(options.actions === false
      ? {}
      : { actions: { transfer: (args) => ({ transferred: args['to'] }) } }),
  });
  const listener = await server.listen({
    ...(options.token === undefined ? {} : { token: options.token }),
    ...(options.allowedOrigins === undefined ? {} : { allowedOrigins: options.allowedOrigins }),
  });
  open.push(server);
  return { server, listener };
}

async function client(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const c = new Client({ name: 'conformance', version: '1.0.0' });
  await c.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  open.push(c);
  return c;
}

describe('MCP server over Streamable HTTP (SDK Client)', () => {
  it('lists each tool with its model-visible schema and side-effect annotations', async () => {
    const { listener } = await serve();
    const c = await client(listener.url);
    const { tools } = await c.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect([...byName.keys()].sort()).toEqual([
      'book',
      'get_weather',
      'note',
      'order_status',
      'refresh',
      'set_language',
      'slow_lookup',
      'transfer',
    ]);
    const weather = byName.get('get_weather')!;
    expect(weather.description).toBe('Current weather for a city.');
    // The static parameter stays hidden from the client.
    expect(Object.keys(weather.inputSchema.properties ?? {})).toEqual(['city']);
    expect(weather.annotations).toEqual({ readOnlyHint: true });
    expect(byName.get('book')!.annotations).toMatchObject({
      destructiveHint: true,
      idempotentHint: false,
    });
    expect(byName.get('refresh')!.annotations).toMatchObject({
      idempotentHint: true,
      destructiveHint: false,
    });
    expect(byName.get('transfer')!.annotations).toMatchObject({ destructiveHint: true });
    // Tools that touch only the session say so; MCP's default (shown by the Inspector) is open.
    expect(byName.get('set_language')!.annotations).toEqual({
      readOnlyHint: true,
      openWorldHint: false,
    });
    expect(byName.get('note')!.annotations).toMatchObject({ openWorldHint: false });
    expect(byName.get('transfer')!.annotations).not.toHaveProperty('openWorldHint');
  });

  it('leaves action tools without a handler out', async () => {
    const { listener, server } = await serve({ actions: false });
    expect(server.unservedActions).toEqual(['transfer']);
    const c = await client(listener.url);
    const names = (await c.listTools()).tools.map((t) => t.name);
    expect(names).not.toContain('transfer');
    const r = await c.callTool({ name: 'transfer', arguments: { to: 'desk' } });
    expect(r.isError).toBe(true);
    expect(JSON.parse(textOf(r)).error.code).toBe('unknown_tool');
  });

  it('runs an endpoint call through the pipeline: static parameters, query, JSON back', async () => {
    const { listener } = await serve();
    const c = await client(listener.url);
    const before = api.seen.length;
    const r = await c.callTool({ name: 'get_weather', arguments: { city: 'Oslo' } });
    expect(r.isError).toBeFalsy();
    expect(JSON.parse(textOf(r))).toEqual({ summary: 'sunny', temp: 21 });
    const sent = api.seen.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.url).toBe('/weather?city=Oslo&units=metric');
  });

  it('sends an Idempotency-Key with an unsafe POST', async () => {
    const { listener } = await serve();
    const c = await client(listener.url);
    const before = api.seen.length;
    const r = await c.callTool({ name: 'book', arguments: { seats: 2 } });
    expect(JSON.parse(textOf(r))).toEqual({ booked: true });
    const sent = api.seen[before]!;
    expect(sent.method).toBe('POST');
    expect(JSON.parse(sent.body)).toEqual({ seats: 2 });
    expect(sent.headers['idempotency-key']).toMatch(/^[0-9a-f]{32}$/);
  });

  it('answers failures as isError results carrying the code, never protocol errors', async () => {
    const { listener } = await serve();
    const c = await client(listener.url);
    const invalid = await c.callTool({ name: 'book', arguments: { seats: 0 } });
    expect(invalid.isError).toBe(true);
    expect(JSON.parse(textOf(invalid)).error.code).toBe('invalid_arguments');
    const status = await c.callTool({ name: 'order_status', arguments: {} });
    expect(status.isError).toBe(true);
    expect(JSON.parse(textOf(status)).error).toMatchObject({ code: 'http_status', status: 404 });
    const unknown = await c.callTool({ name: 'nope', arguments: {} });
    expect(JSON.parse(textOf(unknown)).error.code).toBe('unknown_tool');
  });

  it('runs action and log tools', async () => {
    const { listener } = await serve();
    const c = await client(listener.url);
    const action = await c.callTool({ name: 'transfer', arguments: { to: 'billing' } });
    expect(JSON.parse(textOf(action))).toEqual({ transferred: 'billing' });
    const log = await c.callTool({ name: 'note', arguments: { reason: 'billing question' } });
    expect(log.isError).toBeFalsy();
  });

  it('keeps context state per MCP session and returns the spoken message as text', async () => {
    const { listener } = await serve();
    const a = await client(listener.url);
    const b = await client(listener.url);
    const r = await a.callTool({
      name: 'set_language',
      arguments: { language: 'es-US', message: 'Claro, en español.' },
    });
    expect(textOf(r, 0)).toContain('Language is now es-US');
    expect(textOf(r, 1)).toBe('Claro, en español.');
    // The session's language is what the next call's template sees; the other client's is its own.
    const again = await a.callTool({ name: 'set_language', arguments: { language: 'es-US' } });
    expect(textOf(again)).toContain('es-US');
    const other = await b.callTool({ name: 'get_weather', arguments: { city: 'Rome' } });
    expect(other.isError).toBeFalsy();
    const before = api.seen.length;
    await b.callTool({ name: 'get_weather', arguments: { city: 'Rome' } });
    await a.callTool({ name: 'get_weather', arguments: { city: 'Rome' } });
    expect(api.seen.slice(before).map((s) => s.url)).toHaveLength(2);
  });

  it('cancellation (notifications/cancelled) stops the running call', async () => {
    const { listener } = await serve();
    const c = await client(listener.url);
    const controller = new AbortController();
    const call = c.callTool({ name: 'slow_lookup', arguments: {} }, undefined, {
      signal: controller.signal,
    });
    await api.slowArrived();
    controller.abort('user cancelled');
    await expect(call).rejects.toThrow();
    // The server aborted its request to the API: the held connection closed.
    await api.slowAborted();
    // The session goes on: the next call runs.
    const next = await c.callTool({ name: 'note', arguments: { reason: 'after cancel' } });
    expect(next.isError).toBeFalsy();
  });

  it('notifies list_changed when the tool set changes, and the refresh shows it', async () => {
    const { listener, server } = await serve();
    const c = await client(listener.url);
    expect((await c.listTools()).tools).toHaveLength(8);
    const changed = new Promise<void>((resolve) =>
      c.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
    );
    server.setTools(await loadTools(toolDefinitions(api.base).slice(0, 2)));
    await changed;
    expect((await c.listTools()).tools.map((t) => t.name)).toEqual(['get_weather', 'book']);
    const gone = await c.callTool({ name: 'note', arguments: { reason: 'x' } });
    expect(JSON.parse(textOf(gone)).error.code).toBe('unknown_tool');
  });
});

describe('MCP server: configuration warnings', () => {
  it('warns once at start, not again for each MCP session or history trim', async () => {
    const warnings: string[] = [];
    const crm = {
      type: 'endpoint',
      tool: {
        type: 'function',
        function: { name: 'crm_lookup', description: 'Look up a caller.', parameters: {} },
      },
      endpoint: { url: `${api.base}/crm`, method: 'get', argument_location: 'query' },
      service: 'crm',
    };
    const server = createMcpServer({
      tools: await loadTools([...toolDefinitions(api.base), crm]),
      networkPolicy: { denyPrivateNetworks: false },
      onWarning: (w) => warnings.push(`${w.path}: ${w.code}`),
    });
    open.push(server);
    expect(warnings).toEqual(['services.crm: service_not_configured']);
    const listener = await server.listen();
    for (const c of [await client(listener.url), await client(listener.url)])
      for (let i = 0; i <= MAX_MCP_HISTORY / 3; i++)
        expect(
          (await c.callTool({ name: 'note', arguments: { reason: `r${i}` } })).isError,
        ).toBeFalsy();
    expect(warnings).toEqual(['services.crm: service_not_configured']);
  });
});

describe('MCP over HTTP: who may call', () => {
  const initialize = (url: string, headers: Record<string, string>): Promise<Response> =>
    fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      body: INITIALIZE_BODY,
    });

  it('refuses a client without the bearer token, and serves one with it', async () => {
    const { listener } = await serve({ token: 's3cret-token' });
    const none = await initialize(listener.url, {});
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    expect(((await none.json()) as { error: { message: string } }).error.message).toBe(
      'a bearer token is required (Authorization: Bearer <token>)',
    );
    // A stale token is told so, not asked for a token it sent.
    const wrong = await initialize(listener.url, { authorization: 'Bearer wrong' });
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { error: { message: string } }).error.message).toBe(
      "the bearer token does not match this server's token",
    );
    const c = await client(listener.url, { authorization: 'Bearer s3cret-token' });
    expect((await c.listTools()).tools.length).toBeGreaterThan(0);
  });

  it('asks every method for the token: a GET stream or a DELETE of a session without it is 401', async () => {
    const { listener } = await serve({ token: 's3cret-token' });
    const started = await initialize(listener.url, { authorization: 'Bearer s3cret-token' });
    const sid = started.headers.get('mcp-session-id')!;
    expect(sid).toBeTruthy();
    for (const method of ['GET', 'DELETE']) {
      const r = await fetch(listener.url, {
        method,
        headers: { 'mcp-session-id': sid, accept: 'text/event-stream' },
      });
      expect([method, r.status]).toEqual([method, 401]);
      await r.body?.cancel();
    }
    // The session was not ended by the refused DELETE.
    const c = await client(listener.url, { authorization: 'Bearer s3cret-token' });
    expect((await c.listTools()).tools.length).toBeGreaterThan(0);
    const stillThere = await fetch(listener.url, {
      method: 'DELETE',
      headers: { 'mcp-session-id': sid, authorization: 'Bearer s3cret-token' },
    });
    expect(stillThere.status).toBe(200);
  });

  it('tells a client looking for OAuth after the 401 (the Inspector) which token to send', async () => {
    const { listener } = await serve({ token: 's3cret-token' });
    const redirect = 'http://localhost:6274/oauth/callback';
    const c = new Client({ name: 'inspector-like', version: '1.0.0' });
    const connecting = c.connect(
      new StreamableHTTPClientTransport(new URL(listener.url), {
        authProvider: {
          redirectUrl: redirect,
          clientMetadata: { redirect_uris: [redirect], client_name: 'inspector-like' },
          clientInformation: () => undefined,
          saveClientInformation: () => undefined,
          tokens: () => undefined,
          saveTokens: () => undefined,
          redirectToAuthorization: () => undefined,
          saveCodeVerifier: () => undefined,
          codeVerifier: () => '',
        },
      }),
    );
    await expect(connecting).rejects.toThrow(
      'this MCP server has no OAuth: send the bearer token it was started with (Authorization: Bearer <token>)',
    );
    // Without a token there is nothing to point at: a plain 404.
    const plain = await serve();
    const r = await fetch(plain.listener.url.replace('/mcp', '/register'), { method: 'POST' });
    expect(r.status).toBe(404);
    expect(((await r.json()) as { error: { message: string } }).error.message).toContain('/mcp');
  });

  it('refuses a foreign Origin and a non-loopback Host (DNS rebinding)', async () => {
    const { listener } = await serve();
    const evil = await initialize(listener.url, { origin: 'https://evil.example' });
    expect(evil.status).toBe(403);
    expect(((await evil.json()) as { error: { message: string } }).error.message).toContain(
      'Origin',
    );
    expect(
      (await initialize(listener.url, { origin: `http://localhost:${listener.address.port}` }))
        .status,
    ).toBe(200);
    const rebound = await initialize(listener.url.replace('127.0.0.1', 'localhost'), {});
    expect(rebound.status).toBe(200);
  });

  it('accepts only the listed origins when given', async () => {
    const { listener } = await serve({ allowedOrigins: ['https://app.example'] });
    expect((await initialize(listener.url, { origin: 'https://app.example' })).status).toBe(200);
    expect((await initialize(listener.url, { origin: 'http://localhost:3000' })).status).toBe(403);
  });

  it('needs a token to bind beyond loopback', async () => {
    const server = createMcpServer({ tools: await loadTools(toolDefinitions(api.base)) });
    open.push(server);
    await expect(server.listen({ host: '0.0.0.0' })).rejects.toThrow(/needs a bearer token/);
  });

  it('answers 404 for an unknown session and another path', async () => {
    const { listener } = await serve();
    const r = await fetch(listener.url, { method: 'GET', headers: { 'mcp-session-id': 'nope' } });
    expect(r.status).toBe(404);
    expect((await fetch(listener.url.replace('/mcp', '/other'))).status).toBe(404);
  });
});
