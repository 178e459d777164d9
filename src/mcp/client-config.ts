/**
 * The host's MCP client configuration (docs/mcp.md, "MCP servers as a tool source"): servers,
 * allow-lists and overlays, checked in full before anything connects. Every mistake is one
 * DefinitionError issue naming the server (and tool) it is about.
 */
import { closestName } from '../did-you-mean.js';
import { DefinitionError, type DefinitionIssue } from '../errors.js';
import { isPlainObject } from '../own-data.js';

/** An MCP server run as a child process, spoken to over stdio. */
export interface McpStdioServerConfig {
  /** The program, spawned without a shell (`node`, `npx`, a path). */
  readonly command: string;
  /** Its arguments. */
  readonly args?: readonly string[];
  /**
   * Environment of the child: the MCP SDK's short safe list of the host's variables (`HOME`,
   * `LOGNAME`, `PATH`, `SHELL`, `TERM`, `USER`) plus these. Never the host's whole environment.
   */
  readonly env?: Readonly<Record<string, string>>;
  /** Its working directory. Default: the host's. */
  readonly cwd?: string;
  /**
   * The child's stderr: `pipe` (default) keeps its last lines for the errors that name the
   * server; `inherit` writes it to the host's stderr as well; `ignore` drops it.
   */
  readonly stderr?: 'pipe' | 'inherit' | 'ignore';
}

/** An MCP server reached over Streamable HTTP. */
export interface McpHttpServerConfig {
  /** `http:` or `https:` URL of the server's MCP endpoint. */
  readonly url: string;
  /** Sent with every request (an `authorization` header, say); never shown to the model. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** One MCP server: `{ command, args, env }` or `{ url, headers }`. */
export type McpServerConfig = McpStdioServerConfig | McpHttpServerConfig;

/**
 * What switchboard adds to one MCP tool: the fields of a tool definition (docs/definitions.md)
 * other than its type, name and schema, which come from the server.
 */
export interface McpToolOverlay {
  /** Replaces the server's description (mustache over session variables, as in a definition). */
  readonly description?: string;
  /** Hidden from the model (removed from the server's schema) and filled by the engine. */
  readonly static_parameters?: readonly unknown[];
  /** The camelCase spelling of `static_parameters`. */
  readonly staticParameters?: readonly unknown[];
  /** `defaults` / transform rules, run after the static parameters (docs/transform.md). */
  readonly defaults?: Readonly<Record<string, unknown>>;
  /** `options` of a definition: `speech`, `side_effects`, `save`, `background`, `bridge_phrases`… */
  readonly options?: Readonly<Record<string, unknown>>;
}

/** The overlay keys {@link McpToolOverlay} allows. */
export const OVERLAY_KEYS: ReadonlySet<string> = new Set([
  'description',
  'static_parameters',
  'staticParameters',
  'defaults',
  'options',
]);

/** A server's checked config, with which transport it uses. */
export type CheckedServer =
  | { readonly kind: 'stdio'; readonly name: string; readonly config: McpStdioServerConfig }
  | { readonly kind: 'http'; readonly name: string; readonly config: McpHttpServerConfig };

/** The MCP part of a host's config (docs/mcp.md). */
export interface McpClientConfig {
  /** The servers by name; the names key `allow` and `overlays` and appear in every message. */
  readonly servers: Readonly<Record<string, McpServerConfig>>;
  /** Per server, the only tools to use. Absent for a server: every tool it lists. */
  readonly allow?: Readonly<Record<string, readonly string[]>>;
  /** Per server, per tool name: what switchboard adds to that tool. */
  readonly overlays?: Readonly<Record<string, Readonly<Record<string, McpToolOverlay>>>>;
}

/** Checks the whole configuration; throws a DefinitionError listing every problem. */
export function checkMcpConfig(config: McpClientConfig): readonly CheckedServer[] {
  const issues: DefinitionIssue[] = [];
  const problem = (path: string, message: string): void => {
    issues.push({ code: 'mcp_config', severity: 'error', path, message });
  };
  const out: CheckedServer[] = [];
  if (!isPlainObject(config.servers)) {
    problem('servers', 'expected an object of MCP servers by name');
    throw new DefinitionError(issues, 'invalid MCP configuration');
  }
  const names = Object.keys(config.servers);
  if (names.length === 0) problem('servers', 'names no MCP server');
  for (const name of names) {
    const server = checkServer(name, config.servers[name], problem);
    if (server !== undefined) out.push(server);
  }
  for (const field of ['allow', 'overlays'] as const) {
    const byServer: unknown = config[field];
    if (byServer === undefined) continue;
    if (!isPlainObject(byServer)) {
      problem(field, 'expected an object keyed by server name');
      continue;
    }
    for (const [name, value] of Object.entries(byServer)) {
      const path = `${field}.${name}`;
      if (!Object.hasOwn(config.servers, name)) {
        const hint = closestName({ name, candidates: names });
        problem(
          path,
          `names no MCP server${hint === undefined ? '' : ` (did you mean "${hint}"?)`}; servers: ${names.join(', ')}`,
        );
      } else if (field === 'allow') checkAllow(path, value, problem);
      else checkOverlays(path, value, problem);
    }
  }
  if (issues.length > 0) throw new DefinitionError(issues, 'invalid MCP configuration');
  return out;
}

function checkServer(
  name: string,
  value: unknown,
  problem: (path: string, message: string) => void,
): CheckedServer | undefined {
  const path = `servers.${name}`;
  if (!isPlainObject(value)) {
    problem(path, 'expected { command, args?, env? } or { url, headers? }');
    return undefined;
  }
  const has = (key: string): boolean => Object.hasOwn(value, key);
  if (has('command') === has('url')) {
    problem(path, 'give either "command" (stdio) or "url" (Streamable HTTP), not both or neither');
    return undefined;
  }
  const allowed = has('command') ? ['command', 'args', 'env', 'cwd', 'stderr'] : ['url', 'headers'];
  for (const key of Object.keys(value))
    if (!allowed.includes(key))
      problem(`${path}.${key}`, `unknown field; allowed: ${allowed.join(', ')}`);
  if (has('command')) {
    const v = value as Record<string, unknown>;
    if (typeof v.command !== 'string' || v.command === '')
      problem(`${path}.command`, 'expected a non-empty string');
    if (v.args !== undefined && !isStringArray(v.args))
      problem(`${path}.args`, 'expected an array of strings');
    if (v.env !== undefined && !isStringRecord(v.env))
      problem(`${path}.env`, 'expected an object of string values');
    if (v.cwd !== undefined && typeof v.cwd !== 'string')
      problem(`${path}.cwd`, 'expected a string');
    if (v.stderr !== undefined && !['pipe', 'inherit', 'ignore'].includes(v.stderr as string))
      problem(`${path}.stderr`, 'expected "pipe", "inherit" or "ignore"');
    return { kind: 'stdio', name, config: value as unknown as McpStdioServerConfig };
  }
  const v = value as Record<string, unknown>;
  const url = typeof v.url === 'string' && URL.canParse(v.url) ? new URL(v.url) : null;
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    problem(`${path}.url`, 'expected an http: or https: URL');
  if (v.headers !== undefined && !isStringRecord(v.headers))
    problem(`${path}.headers`, 'expected an object of string values');
  return { kind: 'http', name, config: value as unknown as McpHttpServerConfig };
}

function checkAllow(
  path: string,
  value: unknown,
  problem: (path: string, message: string) => void,
): void {
  if (!isStringArray(value)) problem(path, 'expected an array of tool names');
}

function checkOverlays(
  path: string,
  value: unknown,
  problem: (path: string, message: string) => void,
): void {
  if (!isPlainObject(value)) {
    problem(path, 'expected an object of overlays by tool name');
    return;
  }
  for (const [tool, overlay] of Object.entries(value)) {
    if (!isPlainObject(overlay)) {
      problem(`${path}.${tool}`, 'expected an object');
      continue;
    }
    for (const key of Object.keys(overlay))
      if (!OVERLAY_KEYS.has(key))
        problem(
          `${path}.${tool}.${key}`,
          `not an overlay field (the server gives the name, type and schema); allowed: ${[...OVERLAY_KEYS].join(', ')}`,
        );
  }
}

function isStringArray(value: unknown): value is readonly string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}

function isStringRecord(value: unknown): value is Readonly<Record<string, string>> {
  return isPlainObject(value) && Object.values(value).every((v) => typeof v === 'string');
}
