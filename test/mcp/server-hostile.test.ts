/**
 * Hostile input reaching the MCP server (docs/reliability.md, "MCP server"): arguments that try
 * prototype pollution, arguments nested far past the depth limit, tool names that name
 * `Object.prototype` members, a flood of sessions. Each is a tool result or a refusal; nothing
 * global changes and the server goes on.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { createMcpServer, type McpToolServer } from '../../src/mcp/server.js';
import { serveMcpHttp, type McpHttpListener } from '../../src/mcp/server-http.js';
import {
  startLoopbackApi,
  textOf,
  toolDefinitions,
  type LoopbackApi,
  INITIALIZE_BODY,
} from './server-helpers.js';

let api: LoopbackApi;
let server: McpToolServer;
let listener: McpHttpListener;
let poisoning: typeof import('@fast-check/poisoning');
const RUNNER_ROOTS = { ignoredRootRegex: /^(__vitest_worker__|__vitest_index__|console)$/ };

beforeAll(async () => {
  api = await startLoopbackApi();
  server = createMcpServer({
    tools: await loadTools(toolDefinitions(api.base)),
    networkPolicy: { denyPrivateNetworks: false },
  });
  listener = await server.listen({ maxSessions: 3 });
  // One call first: the client and server materialise lazy globals (TextDecoderStream) on first
  // use, which the poisoning check would otherwise take for a change.
  await withClient((c) => c.callTool({ name: 'note', arguments: { reason: 'warm-up' } }));
  poisoning = await import('@fast-check/poisoning');
});
afterAll(async () => {
  await server.close();
  await api.close();
});
afterEach(() => {
  try {
    poisoning.assertNoPoisoning(RUNNER_ROOTS);
  } catch (error) {
    poisoning.restoreGlobals(RUNNER_ROOTS);
    throw error;
  }
});

/** Runs `work` with an SDK client on a session of its own, ended (DELETE) afterwards. */
async function withClient<T>(work: (c: Client) => Promise<T>): Promise<T> {
  const transport = new StreamableHTTPClientTransport(new URL(listener.url));
  const c = new Client({ name: 't', version: '1' });
  await c.connect(transport);
  try {
    return await work(c);
  } finally {
    await transport.terminateSession();
    await c.close();
  }
}

/** A JSON-RPC POST on the session `sid` (or an initialize without one); the parsed answer. */
async function rpc(
  body: string,
  sid?: string,
  url = listener.url,
): Promise<{ status: number; sid: string | null; json: unknown }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(sid === undefined ? {} : { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' }),
    },
    body,
  });
  const text = await res.text();
  // An SSE answer: the JSON of its `data:` line.
  const data = /^data: (.*)$/m.exec(text)?.[1] ?? text;
  return {
    status: res.status,
    sid: res.headers.get('mcp-session-id'),
    json: data === '' ? undefined : JSON.parse(data),
  };
}

async function rawSession(url = listener.url): Promise<string> {
  const init = await rpc(INITIALIZE_BODY, undefined, url);
  const sid = init.sid!;
  await rpc(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), sid, url);
  return sid;
}

async function closeRaw(sid: string): Promise<void> {
  await fetch(listener.url, { method: 'DELETE', headers: { 'mcp-session-id': sid } });
}

describe('MCP server: hostile input', () => {
  it('treats __proto__ and constructor arguments as data', async () => {
    await withClient(async (c) => {
      const hostile = JSON.parse(
        '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"polluted":1}},"reason":"x"}',
      ) as Record<string, unknown>;
      const r = await c.callTool({ name: 'note', arguments: hostile });
      expect(r.isError).toBeFalsy();
      const probe = {} as Record<string, unknown>;
      expect(probe['isAdmin']).toBeUndefined();
      expect(probe['polluted']).toBeUndefined();
    });
  });

  it('answers tool names of Object.prototype members with unknown_tool', async () => {
    await withClient(async (c) => {
      for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
        const r = await c.callTool({ name, arguments: {} });
        expect(r.isError).toBe(true);
        expect(JSON.parse(textOf(r)).error.code).toBe('unknown_tool');
      }
    });
  });

  it('answers arguments nested 100,000 deep with invalid_arguments, not a crash', async () => {
    const sid = await rawSession();
    const deep = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    const r = await rpc(
      `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"note","arguments":${deep}}}`,
      sid,
    );
    const result = (r.json as { result: { isError: boolean; content: { text: string }[] } }).result;
    expect(result.isError).toBe(true);
    expect(JSON.parse(result.content[0]!.text).error.code).toBe('invalid_arguments');
    await closeRaw(sid);
  });

  it('refuses sessions past maxSessions with 503, and takes new ones once some close', async () => {
    const sids = [await rawSession(), await rawSession(), await rawSession()];
    const over = await rpc(INITIALIZE_BODY);
    expect(over.status).toBe(503);
    expect(server.sessions).toBe(3);
    for (const sid of sids) await closeRaw(sid);
    expect(server.sessions).toBe(0);
    const again = await rawSession();
    expect(again).toMatch(/./);
    await closeRaw(again);
  });

  it('closes sessions left idle past sessionIdleMs when the next one starts, not one with a stream open', async () => {
    let t = 0;
    const own = createMcpServer({ tools: await loadTools(toolDefinitions(api.base)) });
    const l = await own.listen({ sessionIdleMs: 1000, now: () => t });
    try {
      const gone = await rawSession(l.url);
      const streaming = await rawSession(l.url);
      // The notification stream (GET) stays open: that session is in use however long it is quiet.
      const stream = new AbortController();
      const get = await fetch(l.url, {
        headers: {
          accept: 'text/event-stream',
          'mcp-session-id': streaming,
          'mcp-protocol-version': '2025-06-18',
        },
        signal: stream.signal,
      });
      expect(get.status).toBe(200);
      t = 500;
      const kept = await rawSession(l.url);
      expect(own.sessions).toBe(3);
      t = 1200;
      await rawSession(l.url);
      // `gone` was idle since t=0 and is closed; `kept` (t=500) is within the limit.
      expect(own.sessions).toBe(3);
      const ping = (sid: string) =>
        rpc(JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' }), sid, l.url);
      expect((await ping(gone)).status).toBe(404);
      expect((await ping(kept)).status).toBe(200);
      expect((await ping(streaming)).status).toBe(200);
      stream.abort();
    } finally {
      await own.close();
    }
  });

  it('counts sessions still initializing against maxSessions (a concurrent burst)', async () => {
    const own = createMcpServer({ tools: await loadTools(toolDefinitions(api.base)) });
    // Connecting waits until the burst has been decided: 2 in and 4 refused, or more than 2 in.
    let arrivals = 0;
    let refused = 0;
    let open: () => void = () => undefined;
    const gate = new Promise<void>((r) => (open = r));
    const decided = (): void => {
      if (arrivals > 2 || (arrivals === 2 && refused === 4)) open();
    };
    const l = await serveMcpHttp({
      maxSessions: 2,
      connect: async (transport) => {
        arrivals++;
        decided();
        await gate;
        await own.connect(transport);
      },
    });
    try {
      const init = INITIALIZE_BODY;
      const answers = await Promise.all(
        Array.from({ length: 6 }, () =>
          rpc(init, undefined, l.url).then((a) => {
            if (a.status === 503) {
              refused++;
              decided();
            }
            return a;
          }),
        ),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 503, 503, 503, 503]);
      expect(own.sessions).toBe(2);
    } finally {
      await l.close();
      await own.close();
    }
  });
});
