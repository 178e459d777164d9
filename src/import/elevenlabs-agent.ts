/**
 * The tools of an ElevenLabs agent document. An agent lists its tools in
 * `conversation_config.agent.prompt`: `tools` (the legacy inline list), `built_in_tools` (the
 * system tools of the current format, keyed by kind, `null` when off) and `tool_ids` (tools stored
 * in ElevenLabs, whose definitions are not in the file).
 */
import { formatPath } from '../definition/json-path.js';
import { isPlainObject } from '../own-data.js';
import { ToolWarnings } from './conversion-context.js';
import type { ConversionWarning } from './types.js';

const PROMPT = 'conversation_config.agent.prompt';

/** One tool of a document and its path in the file. */
export interface LocatedTool {
  readonly item: unknown;
  readonly base: string;
}

/**
 * The inline and built-in tools of an agent whose prompt has `built_in_tools` or `tool_ids`
 * (the current format), with a warning for each stored tool id; undefined for any other document
 * (read by the generic locator).
 */
export function agentTools(
  value: unknown,
  warnings: ConversionWarning[],
): { lists: { list: unknown[]; base: string }[]; items: LocatedTool[] } | undefined {
  let prompt: unknown = value;
  for (const part of PROMPT.split('.')) prompt = isPlainObject(prompt) ? prompt[part] : undefined;
  if (!isPlainObject(prompt)) return undefined;
  const builtIn = prompt['built_in_tools'];
  const ids = prompt['tool_ids'];
  if (!isPlainObject(builtIn) && !Array.isArray(ids)) return undefined;
  const lists: { list: unknown[]; base: string }[] = [];
  const items: LocatedTool[] = [];
  const inline = prompt['tools'];
  if (Array.isArray(inline)) {
    lists.push({ list: inline, base: `${PROMPT}.tools` });
    inline.forEach((item, i) => items.push({ item, base: `${PROMPT}.tools[${i}]` }));
  }
  if (isPlainObject(builtIn))
    for (const [kind, config] of Object.entries(builtIn)) {
      // `null` is how the agent says the built-in tool is off.
      if (config === null) continue;
      const base = formatPath(`${PROMPT}.built_in_tools`, [kind]);
      lists.push({ list: [config], base });
      // A built-in entry may leave the kind to its key: the key is the system tool type.
      const item =
        isPlainObject(config) && config['params'] === undefined && config['type'] === undefined
          ? { ...config, type: 'system', params: { system_tool_type: kind } }
          : config;
      items.push({ item, base });
    }
  if (Array.isArray(ids))
    for (const [i, id] of ids.entries())
      new ToolWarnings(warnings, PROMPT).warn(
        ['tool_ids', i],
        `tool id ${JSON.stringify(id)} names a tool stored in ElevenLabs; its definition is not in this file (export it from ElevenLabs and import that); not imported`,
      );
  return { lists, items };
}
