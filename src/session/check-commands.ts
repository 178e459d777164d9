/**
 * Checks of the host's `commands` at `createSession`/`restoreSession` (docs/handlers.md,
 * "Command"): every setting of every command, with the path of what is wrong, and every `command`
 * tool naming a registered command. A tool naming a command nothing registers is an error, not a
 * warning as for services: a definition decides which program runs, so a missing one is a
 * mistake to fix before the first call, never a call that fails later.
 */
import type { ToolDefinition } from '../definition/types.js';
import { didYouMean } from '../did-you-mean.js';
import { commandConfigProblems } from '../handlers/command/command-config.js';
import type { SessionOptions } from './types.js';

type Problem = (path: string, message: string, code?: string) => void;

/** The command tools of each tool map, found once (createSession runs this check every time). */
const commandTools = new WeakMap<ReadonlyMap<string, ToolDefinition>, readonly ToolDefinition[]>();
function commandToolsOf(tools: ReadonlyMap<string, ToolDefinition>): readonly ToolDefinition[] {
  let found = commandTools.get(tools);
  if (found === undefined) {
    found = [...tools.values()].filter((t) => t.command !== undefined);
    commandTools.set(tools, found);
  }
  return found;
}

/** Checks `options.commands` and the command tools of `options.tools`. */
export function checkCommands(options: SessionOptions, problem: Problem): void {
  const commands: unknown = options.commands;
  if (
    commands !== undefined &&
    (typeof commands !== 'object' || commands === null || Array.isArray(commands))
  ) {
    problem('commands', 'expected an object of commands by name ({ path, args, cwd, env })');
    return;
  }
  const tools = commandToolsOf(options.tools.tools);
  if (commands === undefined && tools.length === 0) return;
  const registered = (commands ?? {}) as Readonly<Record<string, unknown>>;
  for (const [name, config] of Object.entries(registered))
    for (const p of commandConfigProblems(config))
      problem(p.path === '' ? `commands.${name}` : `commands.${name}.${p.path}`, p.message);
  const names = Object.keys(registered);
  for (const tool of tools) {
    const command = tool.command;
    if (command === undefined || Object.hasOwn(registered, command.name)) continue;
    problem(
      `tools.${tool.name}.command.name`,
      `tool ${tool.name} runs command "${command.name}", which the host does not register${didYouMean(command.name, names)}; commands: ${names.join(', ') || 'none'} (createSession({ commands: { ${command.name}: { path } } }))`,
      'command_not_registered',
    );
  }
}
