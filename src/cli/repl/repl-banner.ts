/** What the REPL tells the person: its opening lines (the tools, the model, where endpoint calls
 * really go) and its commands. */
import type { ToolSet } from '../../definition/types.js';
import { didYouMean } from '../../did-you-mean.js';
import type { DefinitionIssue } from '../../errors.js';
import type { Model } from '../../models/types.js';
import type { ServiceConfig } from '../../session/types.js';

/** Options of {@link bannerLines}. */
export interface BannerOptions {
  readonly tools: ToolSet;
  readonly toolsFile: string;
  readonly model: Model | 'manual';
  readonly services: Readonly<Record<string, ServiceConfig>> | undefined;
  /** Action tools with a declared host answer (`--actions`). */
  readonly declaredActions: ReadonlySet<string>;
  /** What createSession warned about. */
  readonly warnings: readonly DefinitionIssue[];
}

/** The banner, line by line. */
export function bannerLines(o: BannerOptions): string[] {
  const out: string[] = [];
  const tools = [...o.tools.tools.values()];
  out.push(`switchboard repl — ${tools.length} tool(s) from ${o.toolsFile}`);
  out.push(
    `model: ${o.model === 'manual' ? 'manual (you play the model: /call, /reply)' : o.model.name}`,
  );
  const endpoints = tools.filter((t) => t.endpoint !== undefined);
  if (endpoints.length > 0) {
    out.push('Endpoint calls go out for real, to:');
    for (const t of endpoints)
      out.push(`  ${t.name}: ${t.endpoint?.method.toUpperCase()} ${t.endpoint?.url}`);
  }
  const services = new Map(Object.entries(o.services ?? {}));
  // A service with auth and no origins cannot get here: createSession refused it.
  for (const t of endpoints) {
    if (t.service === undefined || services.has(t.service)) continue;
    out.push(
      `warning: ${t.name} uses service "${t.service}", which is not configured (--services)${didYouMean(t.service, services.keys())}; its calls will fail`,
    );
  }
  for (const w of o.warnings) out.push(`warning: ${w.path}: ${w.message}`);
  const actions = tools.filter((t) => t.type === 'action').map((t) => t.name);
  const declared = actions.filter((a) => o.declaredActions.has(a));
  const simulated = actions.filter((a) => !o.declaredActions.has(a));
  if (declared.length > 0)
    out.push(`Action tools answered as --actions declares: ${declared.join(', ')}`);
  if (simulated.length > 0) {
    out.push(
      `Action tools are simulated (they succeed with their "result" or {"status":"ok"}): ${simulated.join(', ')}`,
    );
  }
  out.push('Type /help for commands.');
  return out;
}

/** The REPL's commands, for `/help` and `repl --help`. */
export const REPL_COMMANDS = `Commands:
  <text>               say this as the caller
  /call <tool> <json>  (manual model) call a tool with these raw JSON arguments
  /reply <text>        (manual model) answer the caller
  /tools               list the tools
  /vars                show session variables
  /spoken [id|all]     mark an utterance (or all) as played (with --speech-ack host)
  /set <name> <json>   set a session variable
  /lang <tag>          change the session language
  /history             show the conversation so far
  /step                show each workflow's current step, goal, inputs and variables
  /reset               start a new session
  /save <file>         write the session so far as a fixture (YAML)
  /help                this list
  /quit                leave
`;
