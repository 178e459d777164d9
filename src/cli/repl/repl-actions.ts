/**
 * The host's action handlers in the REPL, which stands in for the host app. An action tool is
 * simulated (it succeeds with its definition's `result` or `{"status":"ok"}`) unless `--actions`
 * declares its answer in a fixture's `actions:` format: `result`, `say`, `vars`, `handoff`,
 * `end_session` (a hang-up), `error`.
 */
import type { ToolSet } from '../../definition/types.js';
import { closestName } from '../../did-you-mean.js';
import { formatPath } from '../../definition/json-path.js';
import { fixtureActions } from '../../harness/fixture-actions.js';
import { fixtureActionSchema, type FixtureAction } from '../../harness/fixture-schema.js';
import type { ActionHandler } from '../../handlers/types.js';
import { UsageError } from '../io.js';

/**
 * Checks a parsed `--actions` value: an object of action tool name → canned answer. A usage
 * error names every problem (unknown tool with the nearest action, wrong field).
 */
export function parseReplActions(
  value: unknown,
  tools: ToolSet,
): ReadonlyMap<string, FixtureAction> {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new UsageError(
      `--actions must be an object of { "<action tool>": { "end_session": true, … } }`,
    );
  const actionTools = [...tools.tools.values()]
    .filter((t) => t.type === 'action')
    .map((t) => t.name);
  const out = new Map<string, FixtureAction>();
  const problems: string[] = [];
  for (const [name, spec] of Object.entries(value)) {
    if (!actionTools.includes(name)) {
      const near = closestName({ name, candidates: actionTools });
      problems.push(
        `--actions names "${name}", which is not an action tool${near !== undefined ? ` (did you mean "${near}"?)` : ` (action tools: ${actionTools.join(', ') || 'none'})`}`,
      );
      continue;
    }
    const parsed = fixtureActionSchema.safeParse(spec);
    if (parsed.success) out.set(name, parsed.data);
    else
      for (const issue of parsed.error.issues)
        problems.push(`--actions ${formatPath(name, issue.path)}: ${issue.message}`);
  }
  if (problems.length > 0) throw new UsageError(problems.join('\n'));
  return out;
}

/** One handler per action tool: the declared answer, else a simulated success. */
export function replActionHandlers(
  tools: ToolSet,
  declared: ReadonlyMap<string, FixtureAction>,
): Map<string, ActionHandler> {
  const canned = fixtureActions(Object.fromEntries(declared));
  const out = new Map<string, ActionHandler>();
  for (const tool of tools.tools.values()) {
    if (tool.type !== 'action') continue;
    out.set(tool.name, canned.get(tool.name) ?? (() => undefined));
  }
  return out;
}
