/**
 * Symphony tools at run time: the tool set an agent sees (its `tools`, by name) and the host
 * action behind each tool, with Symphony's per-tool `maxCalls` counted per run and a handler's
 * `{ success: true, result }` unwrapped to the result.
 */
import type { ToolDefinition, ToolSet } from '../definition/types.js';
import type { ActionHandler } from '../handlers/types.js';
import { isPlainObject } from '../own-data.js';
import type { SymphonyConfig } from './types.js';

/** The named tools of the configuration as a ToolSet (plus extra definitions of the engine's own). */
export function toolSetFor(
  config: SymphonyConfig,
  names: readonly string[],
  extra: readonly ToolDefinition[] = [],
): ToolSet {
  const tools = new Map<string, ToolDefinition>();
  for (const name of names) {
    const def = config.toolSet.tools.get(name);
    if (def !== undefined) tools.set(name, def);
  }
  for (const def of extra) tools.set(def.name, def);
  return { tools, warnings: [], files: config.toolSet.files };
}

/**
 * The actions of one run: each tool's handler (its function, or the host action it names), its
 * calls counted against the tool's `maxCalls` for this run only.
 */
export function actionsFor(
  config: SymphonyConfig,
  names: readonly string[],
  host: ReadonlyMap<string, ActionHandler>,
): Map<string, ActionHandler> {
  const out = new Map<string, ActionHandler>();
  for (const name of names) {
    const tool = config.tools.get(name);
    if (tool === undefined) continue;
    const handler = typeof tool.handler === 'function' ? tool.handler : host.get(tool.handler);
    if (handler === undefined) continue;
    let calls = 0;
    const max = tool.maxCalls;
    out.set(name, async (args, context) => {
      // A reported failure (the model reads it as a `handler_error` tool result, and may answer).
      if (max !== undefined && ++calls > max)
        return {
          success: false,
          error: `${name} may be called at most ${max} time(s) per run; this call was not run`,
        };
      return unwrap(await handler(args, context));
    });
  }
  return out;
}

/** Symphony's `{ success: true, result }` becomes the result; anything else is kept as returned. */
function unwrap(value: unknown): unknown {
  if (!isPlainObject(value) || value['success'] !== true || !Object.hasOwn(value, 'result'))
    return value;
  const keys = Object.keys(value);
  return keys.every((k) => k === 'success' || k === 'result' || k === 'metrics')
    ? value['result']
    : value;
}

/**
 * The host actions a configuration needs, checked: every tool an agent or a pipeline step uses
 * must have a handler (a tool that can never run is the host's mistake), and every host action
 * must name a tool's handler (a typo would otherwise leave the tool without one).
 */
export function checkActions(
  config: SymphonyConfig,
  host: ReadonlyMap<string, ActionHandler>,
): void {
  const used = new Set<string>();
  for (const agent of config.agents.values()) for (const t of agent.tools) used.add(t);
  for (const pipeline of config.pipelines.values())
    for (const step of pipeline.steps) if (step.type === 'tool') used.add(step.target);
  const needed = new Set<string>();
  for (const tool of config.tools.values()) {
    if (typeof tool.handler === 'function') continue;
    needed.add(tool.handler);
    if (used.has(tool.name) && !host.has(tool.handler))
      throw new TypeError(
        `createSymphony: tool ${tool.name} needs the host action "${tool.handler}" (actions: ${[...host.keys()].join(', ') || 'none'})`,
      );
  }
  for (const name of host.keys())
    if (!needed.has(name))
      throw new TypeError(
        `createSymphony: actions.${name} is the handler of no tool (tools: ${[...config.tools.keys()].join(', ') || 'none'})`,
      );
}
