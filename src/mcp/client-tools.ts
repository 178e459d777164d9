/**
 * An MCP server's tool list as switchboard tool definitions (docs/mcp.md): each listed tool, or
 * each allowed one, becomes an `action` definition with the server's name, description and input
 * schema plus the host's overlay (static parameters, defaults, options), loaded by `loadTools` so
 * it gets the same checks and compiled pipeline as a tools file. Also: a call's MCP result as the
 * value the model sees.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { loadTools } from '../definition/load.js';
import type { ToolDefinition } from '../definition/types.js';
import { closestName } from '../did-you-mean.js';
import { DefinitionError, ToolError, type DefinitionIssue } from '../errors.js';
import { shortMessage } from '../handlers/outcome.js';
import { isPlainObject } from '../own-data.js';
import type { McpToolOverlay } from './client-config.js';

/** Options of {@link serverTools}. */
export interface ServerToolsOptions {
  readonly server: string;
  readonly listed: readonly Tool[];
  readonly allow?: readonly string[];
  readonly overlays?: Readonly<Record<string, McpToolOverlay>>;
  /**
   * At connect: an allow-list or overlay naming a tool the server does not list, or an overlay
   * that does not load, is an error (the host's mistake). After a list change they are warnings.
   */
  readonly initial: boolean;
}

/** The definitions made, and what was found on the way. */
export interface ServerTools {
  readonly tools: ReadonlyMap<string, ToolDefinition>;
  /** Errors (at connect only) and warnings. */
  readonly issues: readonly DefinitionIssue[];
}

/** The definitions of one server's tools; never throws (problems are issues). */
export async function serverTools(options: ServerToolsOptions): Promise<ServerTools> {
  const { server, listed } = options;
  const issues: DefinitionIssue[] = [];
  const severity = options.initial ? 'error' : 'warning';
  const byName = new Map(listed.map((t) => [t.name, t]));
  const names = [...byName.keys()];
  const missing = (field: 'allow' | 'overlays', name: string): void => {
    const hint = closestName({ name, candidates: names });
    issues.push({
      code: 'mcp_unknown_tool',
      severity,
      path: `${field}.${server}`,
      message: `MCP server "${server}" lists no tool "${name}"${hint === undefined ? '' : ` (did you mean "${hint}"?)`}; it lists: ${names.join(', ') || 'none'}`,
    });
  };
  const allow = options.allow === undefined ? undefined : new Set(options.allow);
  for (const name of allow ?? []) if (!byName.has(name)) missing('allow', name);
  const overlays = options.overlays;
  for (const name of Object.keys(overlays ?? {})) if (!byName.has(name)) missing('overlays', name);

  const chosen = listed.filter((t) => allow === undefined || allow.has(t.name));
  const raws = chosen.map((t) =>
    rawDefinition(
      t,
      overlays !== undefined && Object.hasOwn(overlays, t.name) ? overlays[t.name] : undefined,
    ),
  );
  const tools = new Map<string, ToolDefinition>();
  // One load for the whole list; only when it fails, one per tool to keep the good ones.
  try {
    const set = await loadTools({ tools: raws }, { file: `MCP server "${server}"` });
    for (const [name, def] of set.tools) tools.set(name, def);
    issues.push(...set.warnings);
    return { tools, issues };
  } catch (error) {
    if (!(error instanceof DefinitionError)) throw error;
  }
  for (const [i, raw] of raws.entries()) {
    const tool = chosen[i]!;
    const overlaid = overlays !== undefined && Object.hasOwn(overlays, tool.name);
    try {
      const set = await loadTools([raw], { file: `MCP server "${server}" tool "${tool.name}"` });
      for (const [name, def] of set.tools) tools.set(name, def);
      issues.push(...set.warnings);
    } catch (error) {
      if (!(error instanceof DefinitionError)) throw error;
      // The host's overlay or allow-list chose this tool: its failure is the host's to fix.
      const hosts = overlaid || allow !== undefined;
      issues.push({
        code: 'mcp_tool_skipped',
        severity: hosts ? severity : 'warning',
        path: `${overlaid ? 'overlays' : 'servers'}.${server}`,
        message: `${hosts ? '' : 'left out: '}${error.message.replace(/^[^\n]*\n/, '').trim()}`,
      });
    }
  }
  return { tools, issues };
}

/** The wire-format definition of one MCP tool with its overlay. */
function rawDefinition(tool: Tool, overlay: McpToolOverlay | undefined): Record<string, unknown> {
  // `$schema` names a draft (2020-12 from most SDKs) that the argument validator need not know;
  // the keywords themselves are checked as in any definition.
  const { $schema: _draft, ...parameters } = tool.inputSchema as Record<string, unknown>;
  const raw: Record<string, unknown> = {
    type: 'action',
    tool: {
      type: 'function',
      function: {
        name: tool.name,
        // The server's text is data, never a template over the session's variables.
        description:
          overlay?.description ?? (tool.description ?? tool.title ?? '').replaceAll('{{', '{ {'),
        parameters,
      },
    },
  };
  for (const key of ['static_parameters', 'staticParameters', 'defaults'] as const)
    if (overlay !== undefined && Object.hasOwn(overlay, key)) raw[key] = overlay[key];
  const given = overlay?.options;
  const options: Record<string, unknown> = isPlainObject(given) ? { ...given } : {};
  if (given !== undefined && !isPlainObject(given)) raw.options = given;
  else {
    // The server's hints set the side-effect class unless the overlay says it (docs/mcp.md).
    const hints = tool.annotations;
    if (!Object.hasOwn(options, 'side_effects') && !Object.hasOwn(options, 'sideEffects')) {
      if (hints?.readOnlyHint === true) options.side_effects = 'none';
      else if (hints?.idempotentHint === true && hints.destructiveHint !== true)
        options.side_effects = 'idempotent';
    }
    if (Object.keys(options).length > 0) raw.options = options;
  }
  return raw;
}

/** The largest MCP result a session takes, UTF-8 bytes of what the model would see: 1 MiB. */
export const DEFAULT_MAX_MCP_RESULT_BYTES = 1_048_576;

/**
 * What the model sees of an MCP result: `structuredContent` when the server gave it (JSON, so
 * `options.save` can read it); else the text of its text blocks, joined by newlines; else (other
 * block kinds) the blocks as a list, binary data left out. A result with `isError` throws
 * `mcp_tool_error` with that text as its message and the whole value as `result`.
 */
export function toolOutput(
  server: string,
  tool: string,
  result: CallToolResult,
  maxBytes = DEFAULT_MAX_MCP_RESULT_BYTES,
): unknown {
  const output = result.structuredContent ?? contentValue(result.content);
  // As an endpoint's body (maxResponseBytes) and a command's stdout: a result the model cannot
  // use whole is refused, not cut (a cut JSON document would be wrong, not short), and never
  // reaches the model's context, the history or the store.
  const bytes = Buffer.byteLength(typeof output === 'string' ? output : JSON.stringify(output));
  if (bytes > maxBytes)
    throw new ToolError(
      'response_too_large',
      `MCP tool ${tool} of server "${server}" answered ${bytes} bytes, over the ${maxBytes} a ` +
        'result may have (maxResultBytes); it was not used',
    );
  if (result.isError !== true) return output;
  const text = textOf(result.content);
  throw new ToolError(
    'mcp_tool_error',
    text === ''
      ? `MCP tool ${tool} of server "${server}" reported an error`
      : shortMessage(text, 500),
    { result: output },
  );
}

type Block = CallToolResult['content'][number];

function textOf(blocks: readonly Block[]): string {
  return blocks
    .filter((b): b is Extract<Block, { type: 'text' }> => b.type === 'text')
    .map((b) => b.text)
    .join('\n');
}

function contentValue(blocks: readonly Block[]): unknown {
  if (blocks.every((b) => b.type === 'text')) return textOf(blocks);
  return blocks.map((b): unknown => {
    switch (b.type) {
      case 'text':
        return { type: 'text', text: b.text };
      case 'image':
      case 'audio':
        // Base64 media is of no use to a text model and would fill its context.
        return { type: b.type, mimeType: b.mimeType, bytes: Math.floor((b.data.length * 3) / 4) };
      case 'resource_link':
        return { type: b.type, uri: b.uri, name: b.name };
      case 'resource': {
        const r = b.resource;
        return 'text' in r
          ? { type: b.type, uri: r.uri, text: r.text }
          : { type: b.type, uri: r.uri, mimeType: r.mimeType };
      }
      default:
        return { type: (b as { type: string }).type };
    }
  });
}
