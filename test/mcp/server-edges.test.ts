/**
 * The MCP server's refusals, limits and handshake at their edges (docs/mcp.md): each case is one a
 * seeded fault broke without any other test noticing (docs/reliability.md).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { createMcpServer } from '../../src/mcp/server.js';
import type { McpHttpOptions } from '../../src/mcp/server-http.js';
import { INITIALIZE_BODY, toolDefinitions } from './server-helpers.js';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const c of open.splice(0).reverse()) await c.close();
});

async function listen(options: McpHttpOptions = {}, instructions?: string) {
  const server = createMcpServer({
    ...(instructions === undefined ? {} : { instructions }),
    tools: await loadTools(toolDefinitions('http://127.0.0.1:9')),
    actions: { transfer: () => 'ok' },
  });
  open.push(server);
  return server.listen(options);
}

function initialize(url: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: INITIALIZE_BODY,
  });
}

describe('browser origins of a server bound beyond loopback', () => {
  it('refuses a loopback Origin by default: only a loopback server allows those', async () => {
    const listener = await listen({ host: '0.0.0.0', token: 't0ken' });
    const url = `http://127.0.0.1:${listener.address.port}/mcp`;
    const auth = { authorization: 'Bearer t0ken' };
    // A page on the operator's own machine is no more trusted by a public server than any other.
    const page = await initialize(url, { ...auth, origin: 'http://localhost:3000' });
    expect(page.status).toBe(403);
    expect(((await page.json()) as { error: { message: string } }).error.message).toContain(
      'Origin',
    );
    expect((await initialize(url, auth)).status).toBe(200);
  });
});

describe('the one MCP path', () => {
  it('serves /mcp only: a longer path or one beginning with it is 404', async () => {
    const listener = await listen();
    for (const path of ['/mcp/extra', '/mcpx', '/mcp.json']) {
      const r = await initialize(listener.url.replace('/mcp', path));
      expect(r.status, path).toBe(404);
    }
    expect((await initialize(listener.url)).status).toBe(200);
  });

  it('a GET or DELETE without a session is told to start with initialize', async () => {
    const listener = await listen();
    for (const method of ['GET', 'DELETE']) {
      const r = await fetch(listener.url, { method, headers: { accept: 'text/event-stream' } });
      expect(r.status, method).toBe(400);
      expect(((await r.json()) as { error: { message: string } }).error.message).toBe(
        'no Mcp-Session-Id: start with initialize',
      );
    }
  });
});

describe('the handshake', () => {
  it("sends the server's instructions for the client's model", async () => {
    const listener = await listen({}, 'Call set_language before anything else.');
    const c = new Client({ name: 't', version: '1' });
    open.push(c);
    await c.connect(new StreamableHTTPClientTransport(new URL(listener.url)));
    expect(c.getInstructions()).toBe('Call set_language before anything else.');
  });
});
