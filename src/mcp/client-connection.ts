/**
 * One MCP server connection of the tool source (client.ts): the official SDK's `Client` over
 * stdio or Streamable HTTP, its tool list (every page), `notifications/tools/list_changed`, and
 * calls whose failures become typed tool errors (docs/mcp.md).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ErrorCode,
  McpError,
  ToolListChangedNotificationSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { ToolError } from '../errors.js';
import { shortMessage } from '../handlers/outcome.js';
import type { CheckedServer } from './client-config.js';

/** Thrown by `connectMcpServers` when a server cannot be started or reached, naming it. */
export class McpConnectError extends Error {
  /** Always `McpConnectError`. */
  override readonly name = 'McpConnectError';
  /** The server's name in `servers`. */
  readonly server: string;

  constructor(server: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.server = server;
  }
}

/** The SDK's per-request timeout, set past any session deadline: the session's deadline rules. */
const NO_SDK_TIMEOUT_MS = 2_147_483_647;
/** Characters of a child's stderr kept for the errors that name it. */
const STDERR_TAIL = 2000;
/** Pages of `tools/list` read at most (a server that never stops paging is cut off). */
const MAX_PAGES = 100;

/** How long a server that failed its handshake has after SIGTERM before SIGKILL. */
const STOP_GRACE_MS = 2000;

/** True while a process with this pid exists (a zombie counts until Node reaps it). */
function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Ends a child process: SIGTERM, then SIGKILL after {@link STOP_GRACE_MS}; resolves once gone. */
async function stopProcess(pid: number): Promise<void> {
  const signal = (name: NodeJS.Signals): void => {
    try {
      process.kill(pid, name);
    } catch {
      // Already gone.
    }
  };
  signal('SIGTERM');
  for (let waited = 0; processExists(pid); waited += 20) {
    if (waited === STOP_GRACE_MS) signal('SIGKILL');
    if (waited > STOP_GRACE_MS * 2) return;
    await sleep(20);
  }
}

/**
 * An error's first line, with its cause's: `fetch` fails with a bare "fetch failed" whose cause
 * says why ("connect ECONNREFUSED 127.0.0.1:8788", "other side closed").
 */
function failureText(error: unknown): string {
  const text = shortMessage(error);
  const cause: unknown = error instanceof Error ? error.cause : undefined;
  if (!(cause instanceof Error)) return text;
  const why = shortMessage(cause);
  return why === '' || text.includes(why) ? text : `${text}: ${why}`;
}

/** How a server is shown in messages: its name and what runs it (never env or header values). */
export function describeServer(server: CheckedServer): string {
  return server.kind === 'stdio'
    ? `MCP server "${server.name}" (${[server.config.command, ...(server.config.args ?? [])].join(' ')})`
    : `MCP server "${server.name}" (${safeUrl(server.config.url)})`;
}

/** The URL without user info or query (where tokens hide). */
function safeUrl(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.host}${u.pathname}`;
}

export class McpConnection {
  readonly server: CheckedServer;
  readonly #client: Client;
  #closing = false;
  /** Why the server is gone (its process exited, the connection closed); undefined while up. */
  #gone: string | undefined = undefined;
  #stderr = '';

  private constructor(server: CheckedServer, client: Client) {
    this.server = server;
    this.#client = client;
  }

  /** Starts (stdio) or reaches (HTTP) the server and initialises the MCP session. */
  static async open(options: {
    readonly server: CheckedServer;
    readonly version: string;
    readonly connectTimeoutMs: number;
    readonly onToolsChanged: () => void;
  }): Promise<McpConnection> {
    const { server } = options;
    const client = new Client({ name: 'switchboard', version: options.version });
    const connection = new McpConnection(server, client);
    const transport = connection.#transport();
    client.onclose = () => {
      if (!connection.#closing) connection.#gone ??= 'it closed the connection';
    };
    // The SDK's stdio reader drops the connection when one message outgrows its buffer; the
    // reason reaches only onerror, and without it the host sees a bare "stopped".
    client.onerror = (error) => {
      const limit = /ReadBuffer exceeded maximum size of (\d+) bytes/.exec(error.message);
      if (limit !== null && !connection.#closing)
        connection.#gone ??=
          `it sent a message larger than the ${limit[1]}-byte limit of the MCP SDK's stdio ` +
          'reader (a huge tool result?), and the SDK closed the connection';
    };
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      options.onToolsChanged();
    });
    const connecting = client.connect(transport, { timeout: options.connectTimeoutMs });
    // connect() spawns a stdio server before its first await, so its pid is known here.
    const pid = transport instanceof StdioClientTransport ? transport.pid : null;
    try {
      await connecting;
    } catch (error) {
      await client.close().catch(() => undefined);
      // The SDK's close after a failed handshake signals the child only after 2 s, so a host
      // that exits on this error (the CLI does) left a server that never answered running.
      if (pid !== null) await stopProcess(pid);
      const tail = connection.#stderr.trim();
      throw new McpConnectError(
        server.name,
        `${describeServer(server)} did not connect: ${failureText(error)}` +
          (tail === '' ? '' : `\nits stderr ended with:\n${tail}`),
        { cause: error },
      );
    }
    return connection;
  }

  #transport(): StdioClientTransport | StreamableHTTPClientTransport {
    const server = this.server;
    if (server.kind === 'http') {
      const headers = server.config.headers;
      return new StreamableHTTPClientTransport(
        new URL(server.config.url),
        headers === undefined ? undefined : { requestInit: { headers: { ...headers } } },
      );
    }
    const c = server.config;
    const stderr = c.stderr ?? 'pipe';
    const transport = new StdioClientTransport({
      command: c.command,
      args: [...(c.args ?? [])],
      ...(c.env === undefined ? {} : { env: { ...c.env } }),
      ...(c.cwd === undefined ? {} : { cwd: c.cwd }),
      stderr: stderr === 'ignore' ? 'ignore' : 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => {
      if (stderr === 'inherit') process.stderr.write(chunk);
      this.#stderr = (this.#stderr + chunk.toString('utf8')).slice(-STDERR_TAIL);
    });
    return transport;
  }

  /** The server's tools now, every page. */
  async listTools(): Promise<Tool[]> {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const result = await this.#client.listTools(cursor === undefined ? undefined : { cursor });
      tools.push(...result.tools);
      cursor = result.nextCursor;
      if (cursor === undefined) break;
    }
    return tools;
  }

  /**
   * Calls a tool. An abort of `signal` sends `notifications/cancelled`. Throws a ToolError:
   * `mcp_server_failed` when the server is gone or breaks the protocol, `invalid_arguments` for
   * the server's "invalid params", `mcp_tool_error` for its other JSON-RPC errors.
   */
  async call(
    tool: string,
    args: Readonly<Record<string, unknown>>,
    signal: AbortSignal,
  ): Promise<CallToolResult> {
    if (this.#gone !== undefined) throw this.#goneError();
    try {
      const result = await this.#client.callTool(
        { name: tool, arguments: { ...args } },
        undefined,
        {
          signal,
          timeout: NO_SDK_TIMEOUT_MS,
        },
      );
      return result as CallToolResult;
    } catch (error) {
      throw this.#toolError(tool, error);
    }
  }

  #goneError(): ToolError {
    return new ToolError(
      'mcp_server_failed',
      `MCP server "${this.server.name}" is not available: ${this.#gone ?? 'it closed the connection'}`,
    );
  }

  #toolError(tool: string, error: unknown): ToolError {
    if (
      this.#gone !== undefined ||
      (error instanceof McpError && error.code === ErrorCode.ConnectionClosed)
    )
      return new ToolError(
        'mcp_server_failed',
        `MCP server "${this.server.name}" stopped during the call of ${tool}: ` +
          (this.#gone ?? 'it closed the connection'),
      );
    if (error instanceof McpError) {
      if (error.code === ErrorCode.RequestTimeout)
        return new ToolError('timeout', `MCP server "${this.server.name}" did not answer in time`);
      if (error.code === ErrorCode.InvalidParams)
        return new ToolError('invalid_arguments', shortMessage(error));
      // A JSON-RPC error code is the server's answer; the SDK's own codes are not.
      if (error.code < 0)
        return new ToolError('mcp_tool_error', shortMessage(error), { mcpCode: error.code });
    }
    // Transport failures (refused, reset, a bad HTTP status) and protocol breaches.
    return new ToolError(
      'mcp_server_failed',
      `MCP server "${this.server.name}" failed: ${failureText(error)}`,
    );
  }

  /** Ends the connection (stops a stdio child; ends an HTTP server's session). */
  async close(): Promise<void> {
    if (this.#closing) return;
    this.#closing = true;
    this.#gone ??= 'the connection was closed';
    const client = this.#client;
    const transport = client.transport;
    if (transport instanceof StreamableHTTPClientTransport)
      await transport.terminateSession().catch(() => undefined);
    await client.close();
  }
}
