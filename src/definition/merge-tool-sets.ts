/** One tool set from several tools files (a shared telephony file beside a bot's own tools). */
import { DefinitionError, type DefinitionIssue } from '../errors.js';
import type { ToolDefinition, ToolSet } from './types.js';

/** Merges tool sets of several files; a name defined twice is an error. */
export function mergeToolSets(sets: readonly ToolSet[], file: string): ToolSet {
  const tools = new Map<string, ToolDefinition>();
  const issues: DefinitionIssue[] = [];
  for (const set of sets) {
    for (const [name, def] of set.tools) {
      if (tools.has(name)) {
        issues.push({
          code: 'duplicate_tool',
          severity: 'error',
          path: 'tools',
          message: `tool "${name}" is defined in more than one tools file`,
          file,
        });
      } else tools.set(name, def);
    }
  }
  if (issues.length > 0) throw new DefinitionError(issues, 'invalid fixture');
  return { tools, warnings: sets.flatMap((s) => s.warnings), files: sets.flatMap((s) => s.files) };
}
