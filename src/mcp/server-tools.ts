/**
 * What an MCP client sees of a tool set (docs/mcp.md): the tools a session would show its model —
 * model-visible name, rendered description, input schema without static parameters — with MCP
 * annotations from each definition's side-effect class (and type, for `openWorldHint`). Which
 * tools are served (action tools need a host handler) is call-runner/served-tools.ts.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { SideEffectClass, ToolDefinition, ToolType } from '../definition/types.js';
import type { ChatTool } from '../models/types.js';

/** MCP tool annotations of a side-effect class (the hints MCP defines; nothing else is claimed). */
export function annotationsOf(sideEffects: SideEffectClass): NonNullable<Tool['annotations']> {
  switch (sideEffects) {
    case 'none':
      return { readOnlyHint: true };
    case 'idempotent':
      return { readOnlyHint: false, idempotentHint: true, destructiveHint: false };
    case 'unsafe':
      return { readOnlyHint: false, idempotentHint: false, destructiveHint: true };
    default: {
      const _exhaustive: never = sideEffects;
      return _exhaustive;
    }
  }
}

/**
 * Tool types that touch nothing beyond the session (its language, variables, the host's log), so
 * they claim `openWorldHint: false`: MCP's default is `true`, which clients (the MCP Inspector)
 * show. Other types reach a service, a program or host code, and keep the default.
 */
const CLOSED_WORLD: ReadonlySet<ToolType> = new Set<ToolType>(['context', 'log']);

/**
 * The MCP `tools/list` entries of the tools a session shows its model (`chatTools`), in that
 * order; `defs` gives each its side-effect class (a workflow's generated tools have no definition
 * of their own and get no annotations).
 */
export function toMcpTools(
  chatTools: readonly ChatTool[],
  defs: ReadonlyMap<string, ToolDefinition>,
): Tool[] {
  return chatTools.map(({ function: fn }) => {
    const def = defs.get(fn.name);
    const tool: Tool = {
      name: fn.name,
      inputSchema: inputSchemaOf(fn.parameters),
    };
    if (fn.description !== undefined) tool.description = fn.description;
    if (def !== undefined)
      tool.annotations = CLOSED_WORLD.has(def.type)
        ? { ...annotationsOf(def.options.sideEffects), openWorldHint: false }
        : annotationsOf(def.options.sideEffects);
    return tool;
  });
}

/** MCP requires an object schema; a definition's parameters always are one (resolve.ts). */
function inputSchemaOf(parameters: Record<string, unknown>): Tool['inputSchema'] {
  return { ...parameters, type: 'object' };
}
