/**
 * `createMcpServer` (entry `switchboard/mcp`, docs/mcp.md): a tool set served over the Model
 * Context Protocol with the official SDK's low-level `Server`, one per MCP session (the SDK binds a
 * server to one transport), each with its own switchboard session (server-session.ts).
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { ToolSet } from '../definition/types.js';
import {
  actionNames,
  checkedServedTools,
  handlersFor,
  unservedActions,
} from '../call-runner/served-tools.js';
import { checkOptions, fields, isNonEmptyString, isString, isToolSet } from '../option-checks.js';
import { checkOwnOptions } from '../session/own-options.js';
import {
  McpToolSession,
  mcpSessionOptions,
  type McpSessionOptions,
  type ServedTools,
} from './server-session.js';
import { serveMcpHttp, type McpHttpListener, type McpHttpOptions } from './server-http.js';

/** Options of {@link createMcpServer}: the tools, and what a session takes besides its model. */
export interface McpServerOptions extends McpSessionOptions {
  /** The tools to serve (from `loadTools`); `setTools` replaces them. */
  readonly tools: ToolSet;
  /** The server's name in the MCP handshake. Default `switchboard`. */
  readonly name?: string;
  /** The server's version in the handshake. Default `0.0.0`. */
  readonly version?: string;
  /** Instructions for the client's model, sent in the handshake. */
  readonly instructions?: string;
}

/** A tool set served over MCP. */
export interface McpToolServer {
  /**
   * Serves one MCP session over `transport` (e.g. the SDK's `StdioServerTransport`); resolves
   * once connected. The session ends when the transport closes.
   */
  connect(transport: Transport): Promise<void>;
  /** Serves Streamable HTTP on `options.host:port` (loopback by default); see {@link McpHttpOptions}. */
  listen(options?: McpHttpOptions): Promise<McpHttpListener>;
  /**
   * Replaces the tool set: each MCP session takes it from its next call (never under one) and
   * every connected client gets `notifications/tools/list_changed`. Throws, changing nothing,
   * if the options refuse it (an agent naming a tool it lacks).
   */
  setTools(tools: ToolSet): void;
  /** The tools served now (action tools without a host handler left out). */
  readonly tools: ToolSet;
  /** Action tools of the set not served: the host has no handler for them. */
  readonly unservedActions: readonly string[];
  /** MCP sessions open now. */
  readonly sessions: number;
  /** Closes every MCP session and its switchboard session. */
  close(): Promise<void>;
}

/**
 * The server's own options, checked at creation (a DefinitionError, as createSession's): a tool
 * set still a Promise was a TypeError deep inside, a `name` that is not text failed only at the
 * first client's handshake. The rest are session options, which createSession checks.
 */
const OWN = {
  tools: isToolSet,
  name: isNonEmptyString,
  version: isNonEmptyString,
  instructions: isString,
};

/**
 * Creates an MCP server for a tool set. Throws as `createSession` does for a host configuration
 * mistake (unknown agent tool, bad language, services), so it shows at start, not on a call.
 */
export function createMcpServer(options: McpServerOptions): McpToolServer {
  return new ToolServer(options);
}

interface Connection {
  readonly server: Server;
  readonly session: McpToolSession;
}

class ToolServer implements McpToolServer {
  readonly #options: McpServerOptions;
  readonly #sessionOptions: McpSessionOptions;
  readonly #actions: ReadonlySet<string>;
  readonly #connections = new Set<Connection>();
  readonly #listeners = new Set<McpHttpListener>();
  #served: ServedTools;
  #unserved: readonly string[];

  constructor(given: McpServerOptions) {
    const options = checkOwnOptions(given, {
      own: OWN,
      required: ['tools'],
      caller: 'createMcpServer',
    });
    const { tools, name: _n, version: _v, instructions: _i, ...sessionOptions } = options;
    this.#options = options;
    this.#sessionOptions = mcpSessionOptions(sessionOptions);
    this.#actions = actionNames(options.actions);
    this.#served = checkedServedTools(tools, this.#sessionOptions);
    this.#unserved = unservedActions(tools, this.#actions);
  }

  get served(): ServedTools {
    return this.#served;
  }

  get tools(): ToolSet {
    return this.#served.tools;
  }

  get unservedActions(): readonly string[] {
    return this.#unserved;
  }

  get sessions(): number {
    return this.#connections.size;
  }

  setTools(tools: ToolSet): void {
    checkOptions(fields({ tools: isToolSet }), { tools }, { caller: 'setTools' });
    // Handlers the new set has no tool for are set aside (the set may have shrunk), not refused.
    const actions = this.#sessionOptions.actions;
    const options =
      actions === undefined
        ? this.#sessionOptions
        : { ...this.#sessionOptions, actions: handlersFor(actions, tools) };
    this.#served = checkedServedTools(tools, options);
    this.#unserved = unservedActions(tools, this.#actions);
    for (const c of this.#connections) void c.server.sendToolListChanged().catch(() => undefined);
  }

  async connect(transport: Transport): Promise<void> {
    const server = new Server(
      { name: this.#options.name ?? 'switchboard', version: this.#options.version ?? '0.0.0' },
      {
        capabilities: { tools: { listChanged: true } },
        ...(this.#options.instructions === undefined
          ? {}
          : { instructions: this.#options.instructions }),
      },
    );
    const session = new McpToolSession(this);
    const connection: Connection = { server, session };
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: await session.listTools(),
    }));
    server.setRequestHandler(CallToolRequestSchema, (request, extra): Promise<CallToolResult> =>
      session.call(request.params.name, request.params.arguments, extra.signal, () => {
        void server.sendToolListChanged().catch(() => undefined);
      }),
    );
    server.onclose = () => {
      this.#connections.delete(connection);
      void session.close();
    };
    this.#connections.add(connection);
    try {
      await server.connect(transport);
    } catch (err) {
      this.#connections.delete(connection);
      await session.close();
      throw err;
    }
  }

  async listen(options: McpHttpOptions = {}): Promise<McpHttpListener> {
    const listener = await serveMcpHttp({
      ...options,
      connect: (transport) => this.connect(transport),
    });
    this.#listeners.add(listener);
    return listener;
  }

  async close(): Promise<void> {
    await Promise.all([...this.#listeners].map((l) => l.close()));
    this.#listeners.clear();
    const open = [...this.#connections];
    this.#connections.clear();
    await Promise.all(
      open.map(async (c) => {
        await c.server.close();
        await c.session.close();
      }),
    );
  }
}
