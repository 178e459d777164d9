/** One tool set from several tools files (a shared telephony file beside a bot's own tools). */
import { DefinitionError, type DefinitionIssue } from '../errors.js';
import { kindOf } from '../option-checks.js';
import type { ToolDefinition, ToolSet } from './types.js';

/**
 * Merges tool sets of several files; a name defined twice is an error naming the files.
 * `file` names the merged set in messages (default `tools`).
 */
export function mergeToolSets(sets: readonly ToolSet[], file = 'tools'): ToolSet {
  if (!Array.isArray(sets))
    throw new TypeError(`mergeToolSets: expected an array of tool sets, got ${kindOf(sets)}`);
  sets.forEach((set: unknown, i) => {
    if (!((set as { tools?: unknown } | null)?.tools instanceof Map))
      throw new TypeError(
        `mergeToolSets: sets[${i}]: expected a tool set (from \`await loadTools(...)\`), got ${kindOf(set)}`,
      );
  });
  const tools = new Map<string, ToolDefinition>();
  const from = new Map<string, ToolSet>();
  const issues: DefinitionIssue[] = [];
  for (const set of sets) {
    for (const [name, def] of set.tools) {
      const first = from.get(name);
      if (first !== undefined) {
        const where = [...first.files, ...set.files];
        issues.push({
          code: 'duplicate_tool',
          severity: 'error',
          path: `tools.${name}`,
          message: `tool "${name}" is defined in more than one tools file${where.length > 0 ? ` (${where.join(', ')})` : ''}`,
          file,
        });
      } else {
        tools.set(name, def);
        from.set(name, set);
      }
    }
  }
  if (issues.length > 0) throw new DefinitionError(issues, 'cannot merge tool sets');
  return { tools, warnings: sets.flatMap((s) => s.warnings), files: sets.flatMap((s) => s.files) };
}
