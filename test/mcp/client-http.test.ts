/**
 * MCP servers as a tool source over Streamable HTTP (docs/mcp.md): the SDK's McpServer served
 * in-process on loopback by its StreamableHTTPServerTransport, behind a bearer token.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server as McpLowLevelServer } from '@modelcontextprotocol/sdk/server/index.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { McpConnectError, connectMcpServers, type McpToolSource } from '../../src/entries/mcp.js';
import { createSession } from '../../src/session/create-session.js';
import { ScriptedModel } from '../../src/testing.js';
// @ts-expect-error a plain .mjs module without types (it is also run as the stdio server)
import { buildServer } from './client-fixture-server.mjs';

const TOKEN = 'http-token-0123456789';

interface Served {
  readonly url: string;
  readonly log: Record<string, unknown>[];
  /** Resolves with the next logged entry of a tool. */
  next(tool: string): Promise<Record<string, unknown>>;
  stop(): Promise<void>;
}

const running: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((stop) => stop()));
});

/** One McpServer per MCP session, as the SDK's examples do. */
async function serve(
  build: (
    log: (entry: Record<string, unknown>) => void,
  ) => Pick<McpLowLevelServer, 'connect'> = buildServer,
): Promise<Served> {
  const log: Record<string, unknown>[] = [];
  const waiting: { tool: string; resolve: (entry: Record<string, unknown>) => void }[] = [];
  const record = (entry: Record<string, unknown>): void => {
    log.push(entry);
    const i = waiting.findIndex((w) => w.tool === entry.tool);
    if (i >= 0) waiting.splice(i, 1)[0]!.resolve(entry);
  };
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const http: Server = createServer((req, res) => {
    if (req.headers.authorization !== `Bearer ${TOKEN}`) {
      res.writeHead(401).end();
      return;
    }
    const id = req.headers['mcp-session-id'];
    let transport = typeof id === 'string' ? transports.get(id) : undefined;
    if (transport === undefined) {
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sid) => void transports.set(sid, transport!),
      });
      void build(record).connect(transport);
    }
    void transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  const stop = async (): Promise<void> => {
    await Promise.all([...transports.values()].map((t) => t.close()));
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  };
  running.push(stop);
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    log,
    next: (tool) => new Promise((resolve) => waiting.push({ tool, resolve })),
    stop,
  };
}

const open: McpToolSource[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((m) => m.close()));
});

async function connect(url: string, extra: Partial<Parameters<typeof connectMcpServers>[0]> = {}) {
  const mcp = await connectMcpServers({
    servers: { crm: { url, headers: { authorization: `Bearer ${TOKEN}` } } },
    ...extra,
  });
  open.push(mcp);
  return mcp;
}

describe('MCP servers as a tool source (Streamable HTTP)', () => {
  it('a session calls the tools with the configured headers; an overlay hides tenant_id', async () => {
    const served = await serve();
    const mcp = await connect(served.url, {
      overlays: {
        crm: {
          find_customer: {
            static_parameters: [{ name: 'tenant_id', type: 'string', default: '{{vars.tenant}}' }],
          },
        },
      },
    });
    const model = new ScriptedModel(
      [{ tool_calls: [{ name: 'find_customer', args: { name: 'Bo' } }] }, { text: 'ok' }],
      { record: true },
    );
    const session = createSession({
      model,
      tools: mcp.tools,
      actions: mcp.actions,
      vars: { tenant: 'acme' },
    });
    const result = await session.run('find Bo');
    expect(result.traces[0]!.output).toEqual({ id: 'c-bo', tenant: 'acme', name: 'Bo' });
    expect(served.log).toContainEqual({
      tool: 'find_customer',
      args: { tenant_id: 'acme', name: 'Bo' },
    });
    const shown = model.calls[0]!.tools.find((t) => t.function.name === 'find_customer')!;
    expect(shown.function.parameters.required).toEqual(['name']);
    expect(mcp.secrets.scrubText(TOKEN)).not.toContain(TOKEN);
  });

  it('an interrupted call sends notifications/cancelled: the server’s handler is stopped', async () => {
    const served = await serve();
    // Only a call of side-effect class `none` is cancelled by a barge-in (docs/voice.md).
    const mcp = await connect(served.url, {
      overlays: { crm: { hang: { options: { side_effects: 'none' } } } },
    });
    const session = createSession({
      model: new ScriptedModel([{ tool_calls: [{ name: 'hang' }] }]),
      tools: mcp.tools,
      actions: mcp.actions,
    });
    const started = served.next('hang');
    const turn = session.send('wait');
    await started;
    const cancelled = served.next('hang');
    expect(session.interrupt()).toBe(true);
    const result = await turn.result;
    expect(result.interrupted).toBe(true);
    expect(await cancelled).toEqual({ tool: 'hang', cancelled: true });
  });

  it('a list_changed notification over the standalone stream refreshes the tool set', async () => {
    const served = await serve();
    let changed!: (tools: readonly string[]) => void;
    const seen = new Promise<readonly string[]>((resolve) => (changed = resolve));
    const mcp = await connect(served.url, { onToolsChanged: (c) => changed(c.tools) });
    expect(mcp.toolsOf('crm')).not.toContain('extra');
    const session = createSession({
      model: new ScriptedModel([{ tool_calls: [{ name: 'add_tool' }] }, { text: 'ok' }]),
      tools: mcp.tools,
      actions: mcp.actions,
    });
    await session.run('add');
    expect(await seen).toContain('extra');
    expect(mcp.tools.tools.has('extra')).toBe(true);
  });

  it('a server that went away is mcp_server_failed naming why (the cause fetch hides); a refused token fails connect naming the server', async () => {
    const served = await serve();
    const mcp = await connect(served.url);
    await served.stop();
    const session = createSession({
      model: new ScriptedModel([
        { tool_calls: [{ name: 'echo', args: { text: 'x' } }] },
        { text: 'sorry' },
      ]),
      tools: mcp.tools,
      actions: mcp.actions,
    });
    const result = await session.run('hi');
    expect(result.traces[0]!.errorCode).toBe('mcp_server_failed');
    // Why: fetch's bare "fetch failed" keeps the reason in its cause.
    expect(result.traces[0]!.output).toMatchObject({
      error: { message: 'MCP server "crm" failed: fetch failed: other side closed' },
    });
    const gone = await connectMcpServers({ servers: { kb: { url: served.url } } }).catch(
      (e: unknown) => e,
    );
    expect((gone as Error).message).toMatch(
      /did not connect: fetch failed: (other side closed|connect ECONNREFUSED .+)$/,
    );

    const other = await serve();
    const error = await connectMcpServers({
      servers: { kb: { url: other.url, headers: { authorization: 'Bearer wrong' } } },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpConnectError);
    expect((error as Error).message).toMatch(
      /^MCP server "kb" \(http:\/\/127\.0\.0\.1:\d+\/mcp\) did not connect/,
    );
    expect((error as Error).message).not.toContain('wrong');
  });

  it('a tool name keeps the server that had it when another server lists it later', async () => {
    // "a" serves `extra` from the start; "b" (named first) adds its own `extra` on a call.
    const a = await serve(() => {
      const server = new McpServer({ name: 'a', version: '1.0.0' });
      server.registerTool(
        'extra',
        { description: 'The first one.', inputSchema: {} },
        async () => ({
          content: [{ type: 'text', text: 'from a' }],
        }),
      );
      return server;
    });
    const b = await serve();
    const auth = { authorization: `Bearer ${TOKEN}` };
    let changed!: () => void;
    const refreshed = new Promise<void>((resolve) => (changed = resolve));
    const warnings: string[] = [];
    const mcp = await connectMcpServers({
      servers: { b: { url: b.url, headers: auth }, a: { url: a.url, headers: auth } },
      onToolsChanged: () => changed(),
      onWarning: (w) => warnings.push(w.code),
    });
    open.push(mcp);
    const model = new ScriptedModel([
      { tool_calls: [{ name: 'add_tool' }] },
      { text: 'Added.' },
      { tool_calls: [{ name: 'extra' }] },
      { text: 'Done.' },
    ]);
    const session = createSession({ model, tools: mcp.tools, actions: mcp.actions });
    await session.run('add a tool');
    await refreshed;
    expect(mcp.toolsOf('a')).toEqual(['extra']);
    expect(mcp.toolsOf('b')).not.toContain('extra');
    expect(warnings).toContain('mcp_duplicate_tool');
    const used = await session.run('use it');
    expect(used.traces[0]).toMatchObject({ tool: 'extra', output: 'from a' });
  });

  it("a server's JSON-RPC invalid-params error is invalid_arguments (the model can fix its call)", async () => {
    // A low-level server answers with a JSON-RPC error (McpServer turns errors into isError results).
    const served = await serve(() => {
      const server = new McpLowLevelServer(
        { name: 'strict', version: '1.0.0' },
        { capabilities: { tools: {} } },
      );
      server.setRequestHandler(ListToolsRequestSchema, async () => ({
        tools: [{ name: 'book', inputSchema: { type: 'object' } }],
      }));
      server.setRequestHandler(CallToolRequestSchema, async () => {
        throw new McpError(ErrorCode.InvalidParams, 'seats must be at least 1');
      });
      return server;
    });
    const mcp = await connect(served.url);
    const session = createSession({
      model: new ScriptedModel([{ tool_calls: [{ name: 'book' }] }, { text: 'Sorry.' }]),
      tools: mcp.tools,
      actions: mcp.actions,
    });
    const result = await session.run('book it');
    expect(result.traces[0]).toMatchObject({ errorCode: 'invalid_arguments' });
  });
});
