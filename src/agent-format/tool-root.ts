/**
 * `config.tool_root`: the folder a run's tool definitions are read from. It applies only when
 * `tools` is a path: a relative path is resolved against it, and the file must stay inside it —
 * `..` or a symbolic link leading out is refused — so a caller naming the root cannot read other
 * files. Tools already loaded (a ToolSet, parsed definitions, every `switchboard serve` run) are
 * read from nowhere, so a `tool_root` there is refused rather than ignored (docs/agent-format.md).
 */
import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { AgentConfigError } from './agent-config.js';

/** The tools path to read with `tool_root` applied; `tools` unchanged without one. */
export async function resolveToolsPath<T>(tools: T, toolRoot: unknown): Promise<T | string> {
  if (toolRoot === undefined) return tools;
  if (typeof toolRoot !== 'string' || toolRoot === '')
    throw new AgentConfigError('config.tool_root', 'expected a folder path');
  if (typeof tools !== 'string')
    throw new AgentConfigError(
      'config.tool_root',
      "this run's tools are already loaded, so there is no folder to read them from; tool_root applies only when tools is a path",
    );
  const root = resolve(toolRoot);
  const file = resolve(root, tools);
  if (!inside(root, file))
    throw new AgentConfigError(
      'config.tool_root',
      `tools path ${JSON.stringify(tools)} leads outside the tool root ${JSON.stringify(toolRoot)}`,
    );
  // A symbolic link inside the root may point out of it: compare the real paths too. A missing
  // file is left to the loader, which names it.
  const real = await Promise.all([realpath(root), realpath(file)]).catch(() => undefined);
  if (real !== undefined && !inside(real[0], real[1]))
    throw new AgentConfigError(
      'config.tool_root',
      `tools path ${JSON.stringify(tools)} links outside the tool root ${JSON.stringify(toolRoot)}`,
    );
  return file;
}

function inside(root: string, file: string): boolean {
  const rel = relative(root, file);
  return rel !== '' && !isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${sep}`);
}
