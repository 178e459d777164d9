/**
 * switchboard's MCP server called from a web page, as the MCP Inspector's "Direct" connection and
 * any browser-based client do: the official SDK `Client`, bundled for the browser, runs in Debian's
 * chromium on a loopback origin and calls the server on another port. The browser enforces CORS
 * itself, so a missing preflight answer or an unexposed `Mcp-Session-Id` fails here as it does for
 * users. The preflight's details are checked with plain `fetch`.
 */
import { build } from 'esbuild';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { createMcpServer } from '../../src/mcp/server.js';
import type { McpHttpListener, McpHttpOptions } from '../../src/mcp/server-http.js';
import { launchChromium } from '../studio/browser-harness.js';
import {
  startLoopbackApi,
  toolDefinitions,
  type LoopbackApi,
  INITIALIZE_BODY,
} from './server-helpers.js';

/** The page's server: its origin is a loopback one (`http://localhost:<port>`), allowed by default. */
let pageServer: Server;
let PAGE_ORIGIN: string;

/** What the page reports of one MCP exchange. */
interface PageOutcome {
  readonly tools?: string[];
  readonly result?: string;
  readonly error?: string;
}

let api: LoopbackApi;
let browser: Browser;
let page: Page;
const open: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  const launching = launchChromium().then((b) => (browser = b));
  // A real loopback server, not a routed page: the browser allows a page to call a loopback
  // address only from one (Local Network Access), as the Inspector's page at localhost:6274 is.
  pageServer = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>client</title>');
  });
  const [bundle] = await Promise.all([
    sdkBundle(),
    startLoopbackApi().then((a) => (api = a)),
    new Promise<void>((r) => pageServer.listen(0, '127.0.0.1', r)),
    launching,
  ]);
  PAGE_ORIGIN = `http://localhost:${(pageServer.address() as AddressInfo).port}`;
  page = await browser.newPage();
  page.setDefaultTimeout(10_000);
  await page.goto(`${PAGE_ORIGIN}/`);
  await page.addScriptTag({ content: bundle });
});
afterAll(async () => {
  await browser?.close();
  await api?.close();
  pageServer?.closeAllConnections();
  await new Promise((r) => pageServer?.close(r));
});
afterEach(async () => {
  for (const c of open.splice(0).reverse()) await c.close();
});

/** The SDK's client and Streamable HTTP transport as one browser script (`window.mcp`). */
async function sdkBundle(): Promise<string> {
  const out = await build({
    stdin: {
      contents: `import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
globalThis.mcp = { Client, StreamableHTTPClientTransport };`,
      resolveDir: process.cwd(),
    },
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    logLevel: 'silent',
  });
  return out.outputFiles[0]!.text;
}

async function serve(options: Omit<McpHttpOptions, 'port'> = {}): Promise<McpHttpListener> {
  const server = createMcpServer({
    tools: await loadTools(toolDefinitions(api.base)),
    networkPolicy: { denyPrivateNetworks: false },
  });
  open.push(server);
  return server.listen(options);
}

/**
 * From the page: connect, list the tools, call `get_weather`, end the session (DELETE). With
 * `oauth`, the client has an OAuth provider, as the MCP Inspector's has: a 401 sends it looking
 * for OAuth on the server.
 */
function fromPage(
  url: string,
  headers: Record<string, string> = {},
  oauth = false,
): Promise<PageOutcome> {
  return page.evaluate(
    async ({ url, headers, oauth, origin }) => {
      type Sdk = {
        Client: new (info: { name: string; version: string }) => {
          connect(t: unknown): Promise<void>;
          listTools(): Promise<{ tools: { name: string }[] }>;
          callTool(p: { name: string; arguments: unknown }): Promise<{
            content: { text?: string }[];
          }>;
          close(): Promise<void>;
        };
        StreamableHTTPClientTransport: new (
          url: URL,
          opts: unknown,
        ) => { terminateSession(): Promise<void> };
      };
      const { Client, StreamableHTTPClientTransport } = (globalThis as { mcp?: Sdk }).mcp!;
      const client = new Client({ name: 'browser', version: '1.0.0' });
      const redirect = `${origin}/callback`;
      // The least an OAuth client provider holds: nothing registered, no tokens yet. Written out
      // here, not shared with server-http.test.ts: this runs inside the page, which imports nothing.
      const authProvider = {
        redirectUrl: redirect,
        clientMetadata: { redirect_uris: [redirect], client_name: 'browser' },
        clientInformation: () => undefined,
        saveClientInformation: () => undefined,
        tokens: () => undefined,
        saveTokens: () => undefined,
        redirectToAuthorization: () => undefined,
        saveCodeVerifier: () => undefined,
        codeVerifier: () => '',
      };
      const transport = new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers },
        ...(oauth ? { authProvider } : {}),
      });
      try {
        await client.connect(transport);
        const tools = (await client.listTools()).tools.map((t) => t.name);
        const call = await client.callTool({ name: 'get_weather', arguments: { city: 'Oslo' } });
        await transport.terminateSession();
        await client.close();
        return { tools, result: call.content[0]?.text ?? '' };
      } catch (err) {
        return { error: String(err) };
      }
    },
    { url, headers, oauth, origin: PAGE_ORIGIN },
  );
}

describe('MCP over HTTP from a browser page (CORS)', () => {
  it('serves a page on an allowed loopback origin: connect, list, call, end the session', async () => {
    const listener = await serve();
    const outcome = await fromPage(listener.url);
    expect(outcome.error).toBeUndefined();
    expect(outcome.tools).toContain('get_weather');
    expect(JSON.parse(outcome.result!)).toEqual({ summary: 'sunny', temp: 21 });
  });

  it('serves a page that sends the bearer token, and lets it read the 401 without it', async () => {
    const listener = await serve({ token: 'browser-token' });
    const ok = await fromPage(listener.url, { authorization: 'Bearer browser-token' });
    expect(ok.error).toBeUndefined();
    expect(ok.tools).toContain('get_weather');
    const refused = await fromPage(listener.url);
    // The page sees the server's answer (not a CORS failure, which the browser reports as
    // "Failed to fetch").
    expect(refused.error).toMatch(/401|bearer token|Unauthorized/i);
    expect(refused.error).not.toMatch(/Failed to fetch/);
    // A client with OAuth support (the Inspector) goes looking for it and reads why there is none.
    const looking = await fromPage(listener.url, {}, true);
    expect(looking.error).toContain('this MCP server has no OAuth');
    expect(looking.error).toContain('Authorization: Bearer <token>');
  });

  it('a page on an origin not allowed gets nothing', async () => {
    const listener = await serve({ allowedOrigins: ['https://app.example'] });
    const outcome = await fromPage(listener.url);
    expect(outcome.error).toMatch(/Failed to fetch/);
  });
});

describe('MCP over HTTP: the CORS preflight', () => {
  const preflight = (url: string, origin: string, headers: Record<string, string> = {}) =>
    fetch(url, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,mcp-protocol-version,x-trace',
        ...headers,
      },
    });

  it('grants an allowed origin the methods and headers MCP uses, without the token', async () => {
    const listener = await serve({ token: 't0ken', allowedOrigins: ['https://app.example'] });
    const r = await preflight(listener.url, 'https://app.example');
    expect(r.status).toBe(204);
    expect(r.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(r.headers.get('vary')).toBe('Origin');
    expect(r.headers.get('access-control-allow-methods')).toBe('GET, POST, DELETE');
    const allowed = r.headers.get('access-control-allow-headers')!.split(', ');
    expect(allowed).toEqual(
      expect.arrayContaining([
        'authorization',
        'content-type',
        'mcp-session-id',
        'mcp-protocol-version',
        'last-event-id',
        'x-trace',
      ]),
    );
    const privateNetwork = await preflight(listener.url, 'https://app.example', {
      'access-control-request-private-network': 'true',
    });
    expect(privateNetwork.headers.get('access-control-allow-private-network')).toBe('true');
  });

  it('exposes Mcp-Session-Id on the initialize answer and WWW-Authenticate on a 401', async () => {
    const listener = await serve({ token: 't0ken' });
    const init = (headers: Record<string, string>) =>
      fetch(listener.url, {
        method: 'POST',
        headers: {
          origin: PAGE_ORIGIN,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
        body: INITIALIZE_BODY,
      });
    const ok = await init({ authorization: 'Bearer t0ken' });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('mcp-session-id')).toBeTruthy();
    expect(ok.headers.get('access-control-allow-origin')).toBe(PAGE_ORIGIN);
    expect(ok.headers.get('access-control-expose-headers')).toMatch(/Mcp-Session-Id/);
    await ok.body?.cancel();
    const refused = await init({});
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe(PAGE_ORIGIN);
    expect(refused.headers.get('access-control-expose-headers')).toMatch(/WWW-Authenticate/);
  });

  it('refuses a preflight from an origin not allowed or to a rebound Host', async () => {
    const listener = await serve();
    const foreign = await preflight(listener.url, 'https://evil.example');
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    // fetch sets Host itself; a rebound name comes through node:http.
    const rebound = await new Promise<number>((resolve, reject) => {
      const req = request(listener.url, {
        method: 'OPTIONS',
        headers: {
          host: 'evil.example',
          origin: PAGE_ORIGIN,
          'access-control-request-method': 'POST',
        },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(rebound).toBe(403);
  });
});
