/**
 * The `config` object of the minimal agent input format, parsed once (zod) and mapped onto session
 * options. Keys of the seed format and their switchboard meaning (docs/agent-format.md):
 *
 * - `model_overrides` `{ router?, domain?, synth? }`: the model id for the run. switchboard has
 *   one model loop and no separate router or synthesiser, so agent turns (every turn) use
 *   `domain`; without agents `domain`, else `router`, else `synth`, is the run's model id.
 * - `domain_timeout_secs`: caps every tool call's deadline for the run.
 * - `only_domains`: the run may use only these agents (or, without agents, these tools).
 * - `execution_mode`: accepted and ignored (one engine, one mode).
 * - `tool_root`: the folder a `tools` path is read from (tool-root.ts; runAgent applies it).
 * - Swarm's run arguments: `context_variables` (merged into `vars`), `max_turns` (as
 *   `maxToolRounds`), `model_override` (a model id, below `model_overrides`).
 * - switchboard's own per-call overrides: `prompt`/`system_prompt`, `maxToolRounds`/
 *   `max_tool_rounds`, `language`, `languages`, `vars` (merged), `toolDefaults`/`tool_defaults`,
 *   `agent`, `onMissingTemplateValue`, `maxCalls`/`max_calls`.
 *
 * Config wins over options; unknown keys are ignored; a known key of the wrong type is an error
 * naming it (`config.domain_timeout_secs: expected a positive number`), so nothing half-applies.
 */
import { z } from 'zod';
import type { ToolDefinition, ToolSet } from '../definition/types.js';
import type { AgentConfig, SessionOptions } from '../session/types.js';

/** A `config` that does not fit the format; `path` names the key (`config.only_domains[1]`). */
export class AgentConfigError extends TypeError {
  override readonly name = 'AgentConfigError';
  readonly code = 'invalid_config';
  readonly path: string;
  constructor(path: string, message: string) {
    super(`${path}: ${message}`);
    this.path = path;
  }
}

const text = z.string({ error: 'expected a string' });
const positive = z
  .number({ error: 'expected a number' })
  .positive({ error: 'expected a positive number' });
const count = z.int({ error: 'expected a whole number' }).min(1, { error: 'must be at least 1' });
const names = z.array(text, { error: 'expected a list of names' });
const record = z.record(z.string(), z.unknown(), { error: 'expected an object' });

/**
 * A `config` as {@link parseAgentConfig} returns it: the known keys checked (the module comment
 * says what each means), unknown keys kept as given (applyAgentConfig ignores them).
 */
export interface ParsedAgentConfig {
  /** The run's model id: with agents `domain`; without, the first of `domain`, `router`, `synth`. */
  model_overrides?: { router?: string; domain?: string; synth?: string; [key: string]: unknown };
  /** Caps every tool call's deadline for the run, in seconds. */
  domain_timeout_secs?: number;
  /** The only agents (without agents: tools) the run may use. */
  only_domains?: string[];
  /** Accepted and ignored. */
  execution_mode?: unknown;
  /** The system prompt (`prompt`, else `system_prompt`, else `systemPrompt`). */
  prompt?: string;
  system_prompt?: string;
  systemPrompt?: string;
  /** `maxToolRounds` (`maxToolRounds`, else `max_tool_rounds`, else `max_turns`). */
  maxToolRounds?: number;
  max_tool_rounds?: number;
  max_turns?: number;
  /** A model id, below `model_overrides`. */
  model_override?: string;
  /** Merged into `vars` (a key of `vars` wins). */
  context_variables?: Record<string, unknown>;
  /** `maxCalls` (`maxCalls`, else `max_calls`). */
  maxCalls?: number;
  max_calls?: number;
  language?: string;
  languages?: string[];
  /** Merged over the options' `vars`. */
  vars?: Record<string, unknown>;
  /** `toolDefaults` (`toolDefaults`, else `tool_defaults`). */
  toolDefaults?: Record<string, Record<string, unknown>>;
  tool_defaults?: Record<string, Record<string, unknown>>;
  /** The active agent; must name one of the session's agents. */
  agent?: string;
  /** `onMissingTemplateValue` (this, else `on_missing_template_value`). */
  onMissingTemplateValue?: 'skip' | 'error';
  on_missing_template_value?: 'skip' | 'error';
  /** Unknown keys, kept as given. */
  [key: string]: unknown;
}

// Exported for the test that holds ParsedAgentConfig equal to its output (no entry exports it).
export const configSchema = z.looseObject({
  model_overrides: z
    .looseObject(
      { router: text.optional(), domain: text.optional(), synth: text.optional() },
      { error: 'expected { router?, domain?, synth? } model ids' },
    )
    .optional(),
  domain_timeout_secs: positive.optional(),
  only_domains: names.optional(),
  execution_mode: z.unknown().optional(),
  prompt: text.optional(),
  system_prompt: text.optional(),
  systemPrompt: text.optional(),
  maxToolRounds: count.optional(),
  max_tool_rounds: count.optional(),
  max_turns: count.optional(),
  model_override: text.optional(),
  context_variables: record.optional(),
  maxCalls: count.optional(),
  max_calls: count.optional(),
  language: text.optional(),
  languages: names.optional(),
  vars: record.optional(),
  toolDefaults: z.record(z.string(), record, { error: 'expected an object' }).optional(),
  tool_defaults: z.record(z.string(), record, { error: 'expected an object' }).optional(),
  agent: text.optional(),
  onMissingTemplateValue: z.enum(['skip', 'error'], { error: 'expected skip or error' }).optional(),
  on_missing_template_value: z
    .enum(['skip', 'error'], { error: 'expected skip or error' })
    .optional(),
});

/** Parses `config`; throws {@link AgentConfigError} naming the first bad key. */
export function parseAgentConfig(config: unknown): ParsedAgentConfig {
  const parsed = configSchema.safeParse(config);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = (issue?.path ?? []).map((p) =>
    typeof p === 'number' ? `[${p}]` : `.${String(p)}`,
  );
  throw new AgentConfigError(`config${where.join('')}`, issue?.message ?? 'invalid');
}

/** Session options with `config` applied over them (config wins). Throws {@link AgentConfigError}. */
export function applyAgentConfig(options: SessionOptions, raw: unknown): SessionOptions {
  if (raw === undefined) return options;
  const c = parseAgentConfig(raw);
  const prompt = c.prompt ?? c.system_prompt ?? c.systemPrompt;
  const maxToolRounds = c.maxToolRounds ?? c.max_tool_rounds ?? c.max_turns;
  const maxCalls = c.maxCalls ?? c.max_calls;
  const toolDefaults = c.toolDefaults ?? c.tool_defaults;
  const onMissing = c.onMissingTemplateValue ?? c.on_missing_template_value;
  const modelId = modelIdOf(c.model_overrides, options.agents !== undefined) ?? c.model_override;
  const vars =
    c.vars === undefined && c.context_variables === undefined
      ? undefined
      : { ...(options.vars ?? {}), ...(c.context_variables ?? {}), ...(c.vars ?? {}) };
  // An unknown agent would be a TypeError from createSession, which blames the host, not the config.
  if (c.agent !== undefined && !Object.hasOwn(options.agents ?? {}, c.agent))
    throw new AgentConfigError(
      'config.agent',
      options.agents === undefined
        ? 'this run has no agents'
        : `names no agent of this session (agents: ${Object.keys(options.agents).join(', ')})`,
    );
  const base: SessionOptions = {
    ...options,
    ...(prompt === undefined ? {} : { prompt }),
    ...(maxToolRounds === undefined ? {} : { maxToolRounds }),
    ...(maxCalls === undefined ? {} : { maxCalls }),
    ...(c.language === undefined ? {} : { language: c.language }),
    ...(c.languages === undefined ? {} : { languages: c.languages }),
    ...(vars === undefined ? {} : { vars }),
    ...(toolDefaults === undefined ? {} : { toolDefaults }),
    ...(c.agent === undefined ? {} : { agent: c.agent }),
    ...(onMissing === undefined ? {} : { onMissingTemplateValue: onMissing }),
    ...(modelId === undefined ? {} : { modelId }),
    ...(c.domain_timeout_secs === undefined ? {} : { toolTimeoutCapSecs: c.domain_timeout_secs }),
  };
  return c.only_domains === undefined ? base : onlyDomains(base, c.only_domains);
}

function modelIdOf(
  overrides: ParsedAgentConfig['model_overrides'],
  hasAgents: boolean,
): string | undefined {
  if (overrides === undefined) return undefined;
  return hasAgents ? overrides.domain : (overrides.domain ?? overrides.router ?? overrides.synth);
}

/**
 * Restricts the run to the named agents (the active one becomes the first named if it is not
 * among them), or without agents to the named tools. Naming nothing that exists is an error: a
 * restriction that silently lifted would run tools the caller excluded.
 */
function onlyDomains(options: SessionOptions, wanted: readonly string[]): SessionOptions {
  const agents = options.agents;
  if (agents !== undefined) {
    const kept: [string, AgentConfig][] = [];
    for (const name of wanted)
      if (Object.hasOwn(agents, name)) kept.push([name, agents[name] as AgentConfig]);
    if (kept.length === 0)
      throw new AgentConfigError(
        'config.only_domains',
        `names no agent of this session (agents: ${Object.keys(agents).join(', ')})`,
      );
    const names = new Set(kept.map(([n]) => n));
    const active = options.agent ?? Object.keys(agents)[0];
    return {
      ...options,
      agents: Object.fromEntries(kept),
      agent: active !== undefined && names.has(active) ? active : (kept[0]?.[0] as string),
    };
  }
  const all = options.tools.tools;
  const tools = new Map<string, ToolDefinition>();
  for (const name of wanted) {
    const def = all.get(name);
    if (def !== undefined) tools.set(name, def);
  }
  if (tools.size === 0)
    throw new AgentConfigError(
      'config.only_domains',
      `names no tool of this run (tools: ${[...all.keys()].join(', ')})`,
    );
  const toolSet: ToolSet = { ...options.tools, tools };
  return { ...options, tools: toolSet };
}
