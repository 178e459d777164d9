/**
 * What an MCP client sees of a tool set (docs/mcp.md): the tools a session would show its model —
 * model-visible name, rendered description, input schema without static parameters — with MCP
 * annotations from each definition's side-effect class. Action tools need a host handler: without
 * one they are neither listed nor callable.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { SideEffectClass, ToolDefinition, ToolSet } from '../definition/types.js';
import type { ChatTool } from '../models/types.js';

/**
 * The tools an MCP server serves: every definition except action tools the host has no handler
 * for (they could only ever answer `not_available`). A new set only when something is left out.
 */
export function servedToolSet(tools: ToolSet, actions: ReadonlySet<string>): ToolSet {
  let hidden = false;
  for (const def of tools.tools.values()) if (!isServed(def, actions)) hidden = true;
  if (!hidden) return tools;
  const served = new Map<string, ToolDefinition>();
  for (const [name, def] of tools.tools) if (isServed(def, actions)) served.set(name, def);
  return { tools: served, warnings: tools.warnings, files: tools.files };
}

/** Action tools of `tools` left out for want of a handler, by name. */
export function unservedActions(tools: ToolSet, actions: ReadonlySet<string>): string[] {
  return [...tools.tools.values()].filter((d) => !isServed(d, actions)).map((d) => d.name);
}

function isServed(def: ToolDefinition, actions: ReadonlySet<string>): boolean {
  return def.type !== 'action' || actions.has(def.name);
}

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
    if (def !== undefined) tool.annotations = annotationsOf(def.options.sideEffects);
    return tool;
  });
}

/** MCP requires an object schema; a definition's parameters always are one (resolve.ts). */
function inputSchemaOf(parameters: Record<string, unknown>): Tool['inputSchema'] {
  return { ...parameters, type: 'object' };
}
