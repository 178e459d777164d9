/**
 * `connectMcpServers`: MCP servers as a tool source of switchboard sessions (docs/mcp.md). It
 * connects every server, turns their tools into definitions (client-tools.ts) and gives the host
 * a live tool set and action map to pass to `createSession`; the session never imports this
 * folder. A server's `notifications/tools/list_changed` re-lists its tools, and later model
 * rounds of every session using the tool set see the new list.
 */
import type { ToolDefinition, ToolSet } from '../definition/types.js';
import { DefinitionError, type DefinitionIssue } from '../errors.js';
import { SecretSet } from '../handlers/endpoint/secret-set.js';
import type { ActionHandler } from '../handlers/types.js';
import {
  anyValue,
  checkOptions,
  fields,
  integer,
  isFunction,
  isToolSet,
  MAX_TIMER_MS,
  recordOf,
  withMethods,
} from '../option-checks.js';
import { checkMcpConfig, type CheckedServer, type McpClientConfig } from './client-config.js';
import { describeServer, McpConnectError, McpConnection } from './client-connection.js';
import { shortMessage } from '../handlers/outcome.js';
import { serverTools, toolOutput } from './client-tools.js';

/** Options of {@link connectMcpServers}. */
export interface ConnectMcpServersOptions extends McpClientConfig {
  /** The host's own tools, listed before the servers' (a name in both is an error). */
  readonly tools?: ToolSet;
  /** The host's own action handlers, kept beside the MCP tools' handlers. */
  readonly actions?: Readonly<Record<string, ActionHandler>> | ReadonlyMap<string, ActionHandler>;
  /** Receives every `env` and `headers` value; pass the same set to the sessions. Default: a new one. */
  readonly secrets?: SecretSet;
  /** How long a server may take to start and initialise, ms. Default 10,000. */
  readonly connectTimeoutMs?: number;
  /**
   * The largest result a tool call may return, in UTF-8 bytes of what the model would see;
   * larger is the tool error `response_too_large`. Default 1 MiB, as an endpoint's body.
   */
  readonly maxResultBytes?: number;
  /** What is doubtful but not fatal: a tool left out, a failed refresh. Default: a process warning. */
  readonly onWarning?: (issue: DefinitionIssue) => void;
  /** Called after a server's new tool list is in the tool set (its tool names). */
  readonly onToolsChanged?: (change: {
    readonly server: string;
    readonly tools: readonly string[];
  }) => void;
}

/** MCP servers connected as a tool source. */
export interface McpToolSource {
  /** The host's tools and every server's, as `createSession`'s `tools`; changes on a list change. */
  readonly tools: ToolSet;
  /** Handlers of the MCP tools (and the host's `actions`), as `createSession`'s `actions`. */
  readonly actions: ReadonlyMap<string, ActionHandler>;
  /** The secrets of the servers' config, to pass as the sessions' `secrets`. */
  readonly secrets: SecretSet;
  /** The names of one server's tools in the tool set now. */
  toolsOf(server: string): readonly string[];
  /** Lists a server's tools again now (as on `notifications/tools/list_changed`). */
  refresh(server: string): Promise<void>;
  /** Closes every connection (stops stdio servers). Idempotent. */
  close(): Promise<void>;
}

const CLIENT_VERSION = '0.1.0';

/**
 * The options' shapes, checked before anything starts: a tool set still a Promise, a string
 * timeout or a callback that is not a function was a TypeError (or a silent default) later.
 * `servers`, `allow` and `overlays` are the MCP configuration, checked by checkMcpConfig.
 */
const OPTIONS = fields(
  {
    servers: anyValue,
    allow: anyValue,
    overlays: anyValue,
    tools: isToolSet,
    actions: (value, path, sink) =>
      value instanceof Map
        ? value.forEach((v: unknown, k: unknown) => isFunction(v, `${path}.${String(k)}`, sink))
        : recordOf(isFunction)(value, path, sink),
    secrets: withMethods('a SecretSet', 'add', 'scrubText'),
    connectTimeoutMs: integer(1, MAX_TIMER_MS),
    maxResultBytes: integer(1),
    onWarning: isFunction,
    onToolsChanged: isFunction,
  },
  ['servers'],
);

/**
 * Connects the servers and lists their tools. Throws a DefinitionError for a configuration
 * mistake (nothing is started) or an allow-list/overlay naming a tool a server does not list,
 * and an McpConnectError naming the server that could not start or be reached; on any throw
 * the servers already connected are closed again.
 */
export async function connectMcpServers(options: ConnectMcpServersOptions): Promise<McpToolSource> {
  checkOptions(OPTIONS, options, { caller: 'connectMcpServers', onWarning: options?.onWarning });
  const servers = checkMcpConfig(options);
  const source = new Source(options, servers);
  try {
    await source.connect();
  } catch (error) {
    await source.close();
    throw error;
  }
  return source;
}

/** One server's slot: its connection and the tools it adds now. */
interface Slot {
  readonly server: CheckedServer;
  connection: McpConnection | undefined;
  tools: ReadonlyMap<string, ToolDefinition>;
  /** The refresh under way, and whether another was asked for meanwhile. */
  refreshing: Promise<void> | undefined;
  again: boolean;
}

class Source implements McpToolSource {
  readonly actions = new Map<string, ActionHandler>();
  readonly secrets: SecretSet;
  readonly tools: ToolSet;
  readonly #options: ConnectMcpServersOptions;
  readonly #slots = new Map<string, Slot>();
  /** The MCP tools in `actions`, with the server each calls. */
  readonly #mcpActions = new Map<string, string>();
  #all: ReadonlyMap<string, ToolDefinition> = new Map();
  #closed = false;
  /** The first listing is done: list changes refresh from now on. */
  #ready = false;

  constructor(options: ConnectMcpServersOptions, servers: readonly CheckedServer[]) {
    this.#options = options;
    this.secrets = options.secrets ?? new SecretSet();
    for (const server of servers) {
      this.#slots.set(server.name, {
        server,
        connection: undefined,
        tools: new Map(),
        refreshing: undefined,
        again: false,
      });
      const values = server.kind === 'stdio' ? server.config.env : server.config.headers;
      for (const value of Object.values(values ?? {})) {
        this.secrets.add(value);
        // The token alone too: it may show without its scheme (`Bearer …`).
        const token = /^(?:bearer|basic|token)\s+(\S+)$/i.exec(value)?.[1];
        if (token !== undefined) this.secrets.add(token);
      }
    }
    const own = options.actions;
    for (const [name, fn] of own instanceof Map ? own : Object.entries(own ?? {}))
      this.actions.set(name, fn);
    // A getter: the session reads `tools.tools` every round (docs/session.md).
    const self = this;
    this.tools = {
      get tools() {
        return self.#all;
      },
      warnings: options.tools?.warnings ?? [],
      files: options.tools?.files ?? [],
    };
  }

  async connect(): Promise<void> {
    const slots = [...this.#slots.values()];
    const opened = await Promise.allSettled(
      slots.map(async (slot) => {
        slot.connection = await McpConnection.open({
          server: slot.server,
          version: CLIENT_VERSION,
          connectTimeoutMs: this.#options.connectTimeoutMs ?? 10_000,
          onToolsChanged: () => {
            // A change announced before the first listing is applied: list again once ready.
            if (this.#ready) void this.refresh(slot.server.name);
            else slot.again = true;
          },
        });
      }),
    );
    const failed = opened.find((r) => r.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
    const built = await Promise.all(
      slots.map((slot) =>
        this.#build(slot, true).catch((error: unknown) => {
          throw new McpConnectError(
            slot.server.name,
            `${describeServer(slot.server)} did not list its tools: ${shortMessage(error)}`,
            { cause: error },
          );
        }),
      ),
    );
    const issues: DefinitionIssue[] = [];
    for (const [i, slot] of slots.entries()) {
      issues.push(...built[i]!.issues);
      slot.tools = built[i]!.tools;
    }
    issues.push(...this.#rebuild('error'));
    if (issues.some((i) => i.severity === 'error'))
      throw new DefinitionError(issues, 'MCP tools do not fit the configuration');
    for (const issue of issues) this.#warn(issue);
    this.#ready = true;
    for (const slot of slots) if (slot.again) void this.refresh(slot.server.name);
  }

  async #build(slot: Slot, initial: boolean) {
    const name = slot.server.name;
    const listed = await slot.connection!.listTools();
    const allow = this.#options.allow;
    const overlays = this.#options.overlays;
    return serverTools({
      server: name,
      listed,
      initial,
      ...(allow !== undefined && Object.hasOwn(allow, name) ? { allow: allow[name] } : {}),
      ...(overlays !== undefined && Object.hasOwn(overlays, name)
        ? { overlays: overlays[name] }
        : {}),
    });
  }

  /** The union map and the action map from the slots; a name clash is an issue. */
  #rebuild(severity: 'error' | 'warning'): DefinitionIssue[] {
    const issues: DefinitionIssue[] = [];
    const all = new Map(this.#options.tools?.tools ?? []);
    const owner = new Map<string, string>();
    // A name keeps the server that had it: a new tool elsewhere never displaces a tool in use.
    const slots = [...this.#slots.values()];
    const entries = slots.flatMap((slot) =>
      [...slot.tools].map(([name, def]) => ({ slot, name, def })),
    );
    const had = (e: { slot: Slot; name: string }): boolean =>
      this.#mcpActions.get(e.name) === e.slot.server.name;
    for (const { slot, name, def } of [...entries.filter(had), ...entries.filter((e) => !had(e))]) {
      if (all.has(name)) {
        const other = owner.get(name);
        issues.push({
          code: 'mcp_duplicate_tool',
          severity,
          path: `servers.${slot.server.name}`,
          message: `tool "${name}" of MCP server "${slot.server.name}" is also ${other === undefined ? "one of the host's tools" : `a tool of MCP server "${other}"`}`,
        });
        continue;
      }
      all.set(name, def);
      owner.set(name, slot.server.name);
      this.#setAction(slot, name);
    }
    for (const name of this.#mcpActions.keys())
      if (!owner.has(name)) {
        this.#mcpActions.delete(name);
        this.actions.delete(name);
      }
    this.#all = all;
    return issues;
  }

  #setAction(slot: Slot, name: string): void {
    if (this.#mcpActions.get(name) === slot.server.name) return;
    this.#mcpActions.set(name, slot.server.name);
    const server = slot.server.name;
    this.actions.set(name, async (args, context) => {
      const connection = this.#slots.get(server)?.connection;
      if (connection === undefined) throw new Error(`MCP server "${server}" is not connected`);
      const result = await connection.call(name, args, context.signal);
      return toolOutput(server, name, result, this.#options.maxResultBytes);
    });
  }

  toolsOf(server: string): readonly string[] {
    const slot = this.#slots.get(server);
    if (slot === undefined) throw new TypeError(`unknown MCP server ${JSON.stringify(server)}`);
    return [...slot.tools.keys()].filter((name) => this.#mcpActions.get(name) === server);
  }

  refresh(server: string): Promise<void> {
    const slot = this.#slots.get(server);
    if (slot === undefined)
      return Promise.reject(new TypeError(`unknown MCP server ${JSON.stringify(server)}`));
    if (slot.refreshing !== undefined) {
      // Notifications during a refresh coalesce into one more listing after it.
      slot.again = true;
      return slot.refreshing;
    }
    const run = async (): Promise<void> => {
      do {
        slot.again = false;
        if (this.#closed) return;
        try {
          const built = await this.#build(slot, false);
          if (this.#closed) return;
          slot.tools = built.tools;
          for (const issue of [...built.issues, ...this.#rebuild('warning')]) this.#warn(issue);
        } catch (error) {
          // The previous list stays; the calls tell the model if the server is gone.
          this.#warn({
            code: 'mcp_refresh_failed',
            severity: 'warning',
            path: `servers.${server}`,
            message: `MCP server "${server}": listing its tools again failed (${error instanceof Error ? error.message : String(error)}); its previous tools stay`,
          });
          continue;
        }
        this.#options.onToolsChanged?.({ server, tools: this.toolsOf(server) });
      } while (slot.again);
    };
    slot.refreshing = run().finally(() => {
      slot.refreshing = undefined;
    });
    return slot.refreshing;
  }

  #warn(issue: DefinitionIssue): void {
    const onWarning = this.#options.onWarning;
    if (onWarning !== undefined) onWarning(issue);
    else process.emitWarning(issue.message, { code: `SWITCHBOARD_${issue.code.toUpperCase()}` });
  }

  async close(): Promise<void> {
    this.#closed = true;
    await Promise.allSettled([...this.#slots.values()].map((s) => s.connection?.close()));
  }
}
