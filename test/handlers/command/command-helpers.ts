/**
 * Helpers of the command tool tests: a loaded command tool, the test scripts as host commands,
 * and a handler context.
 */
import { fileURLToPath } from 'node:url';
import { loadTools } from '../../../src/definition/load.js';
import type { ToolDefinition } from '../../../src/definition/types.js';
import type { CommandConfig } from '../../../src/handlers/command/command-config.js';
import type { HandlerContext } from '../../../src/handlers/types.js';

/** The absolute path of a script under ./scripts. */
export function script(name: string): string {
  return fileURLToPath(new URL(`./scripts/${name}`, import.meta.url));
}

/** A host command running one of the test scripts with this Node. */
export function scriptCommand(name: string, extra: Partial<CommandConfig> = {}): CommandConfig {
  return { path: process.execPath, args: [script(name)], ...extra };
}

/** Loads one command tool; `command` is the definition's `command` object. */
export async function commandTool(
  command: Record<string, unknown>,
  parameters: Record<string, unknown> = { type: 'object', additionalProperties: true },
  extra: Record<string, unknown> = {},
): Promise<ToolDefinition> {
  const set = await loadTools([
    { type: 'command', tool: { function: { name: 'run', parameters } }, command, ...extra },
  ]);
  const tool = set.tools.get('run');
  if (tool === undefined) throw new Error('not loaded');
  return tool;
}

/** A handler context for `tool`. */
export function contextFor(tool: ToolDefinition, signal?: AbortSignal): HandlerContext {
  return {
    tool,
    callId: 'call_1',
    session: { id: 's', language: 'en-US', vars: {} },
    signal: signal ?? new AbortController().signal,
  };
}
