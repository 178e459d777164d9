/**
 * loadSymphony: a Symphony configuration (a JSON/YAML file, or the object) checked once and
 * resolved into {@link SymphonyConfig}. Every problem is collected with its path
 * (`pipelines[0].steps[2].dependencies: cycle a -> b -> a`) and thrown together as one
 * DefinitionError; nothing is half-loaded. Unknown fields, and known ones the engine does not act
 * on, are warnings naming the field.
 */
import type { z } from 'zod';
import { loadTools, readToolsFile } from '../definition/load.js';
import {
  DEFAULT_MAX_FILE_BYTES,
  MAX_DEFINITION_DEPTH,
  measureValue,
  pathTooDeep,
  type SizeMemo,
} from '../definition/document-limits.js';
import { formatPath, joinPath } from '../definition/json-path.js';
import type { ToolSet } from '../definition/types.js';
import { didYouMean } from '../did-you-mean.js';
import { DefinitionError } from '../errors.js';
import { isPlainObject } from '../own-data.js';
import { deepestIssues } from '../zod-union.js';
import { checkReferences } from './check.js';
import { Issues } from './issues.js';
import {
  KNOWN_FIELDS,
  NOT_ACTED_ON,
  agentSchema,
  configSchema,
  pipelineSchema,
  teamSchema,
  toolSchema,
  type RawAgent,
  type RawPipeline,
  type RawTeam,
  type RawTool,
} from './schema.js';
import { resolveAgent, resolvePipeline, resolveTeam, resolveTool } from './resolve.js';
import type {
  SymphonyAgent,
  SymphonyConfig,
  SymphonyPipeline,
  SymphonyTeam,
  SymphonyTool,
} from './types.js';

/** Options of {@link loadSymphony}. */
export interface LoadSymphonyOptions {
  /** A path to a `.json`, `.yaml` or `.yml` file, or the configuration object. */
  readonly source: string | Readonly<Record<string, unknown>>;
  /** Name of the file for messages (set automatically for paths). */
  readonly file?: string;
  /** Treat warnings as errors. Default false. */
  readonly strict?: boolean;
}

const HEADING = 'invalid Symphony configuration';

/** Loads and checks a Symphony configuration. @throws DefinitionError listing every problem. */
export async function loadSymphony(options: LoadSymphonyOptions): Promise<SymphonyConfig> {
  const { source } = options;
  const file = options.file ?? (typeof source === 'string' ? source : undefined);
  let value: unknown = source;
  if (typeof source === 'string') {
    try {
      value = await readToolsFile(source, file === undefined ? {} : { file });
    } catch (error) {
      if (error instanceof DefinitionError) throw new DefinitionError(error.issues, HEADING);
      throw error;
    }
  }
  const issues = new Issues(file);
  checkLimits(value, issues);
  if (issues.failed()) throw new DefinitionError(issues.list, HEADING);
  const parts = parseParts(value, issues);
  if (parts.rules) await import('../expressions/cel-register.js');
  // Resolved even after shape errors, so one load reports every problem.
  const config = await resolveAll(parts, issues);
  const list =
    options.strict === true
      ? issues.list.map((i) =>
          i.severity === 'warning' ? { ...i, severity: 'error' as const } : i,
        )
      : issues.list;
  if (config === undefined || list.some((i) => i.severity === 'error'))
    throw new DefinitionError(list, HEADING);
  return file === undefined ? config : { ...config, file };
}

interface Parts {
  readonly tools: readonly (readonly [RawTool, string])[];
  readonly agents: readonly (readonly [RawAgent, string])[];
  readonly teams: readonly (readonly [RawTeam, string])[];
  readonly pipelines: readonly (readonly [RawPipeline, string])[];
  /** A rule-based team is present: CEL must be loaded. */
  readonly rules: boolean;
  /** Names of objects whose shape was refused: a reference to one is not reported again. */
  readonly broken: ReadonlySet<string>;
}

const SECTIONS = ['tools', 'agents', 'teams', 'pipelines'] as const;

function parseParts(value: unknown, issues: Issues): Parts {
  const broken = new Set<string>();
  const empty: Parts = { tools: [], agents: [], teams: [], pipelines: [], rules: false, broken };
  const top = configSchema.safeParse(value, { reportInput: true });
  if (!top.success || !isPlainObject(value)) {
    report(issues, '', top.success ? undefined : top.error);
    if (top.success) issues.error('', 'expected an object with tools, agents, teams, pipelines');
    return empty;
  }
  warnUnknown(issues, '', value, KNOWN_FIELDS.config);
  if (!SECTIONS.some((key) => Object.hasOwn(value, key))) {
    // Not a configuration at all (a fixture file, another format): loading it as an empty one
    // would only fail later, at "no agent named …", far from the cause.
    const keys = Object.keys(value).slice(0, 8).join(', ');
    const hint = isPlainObject(value['config'])
      ? '; a fixture of fixtures/symphony holds its configuration under "config"'
      : '';
    issues.error(
      '',
      `has none of ${SECTIONS.join(', ')} (${keys === '' ? 'it is empty' : `its keys: ${keys}`})${hint}`,
    );
    return empty;
  }
  const section = <S extends z.ZodType>(
    key: 'tools' | 'agents' | 'teams' | 'pipelines',
    schema: S,
    warn: (raw: Record<string, unknown>, path: string) => void,
  ): (readonly [z.output<S>, string])[] =>
    (top.data[key] ?? []).flatMap((item, i) => {
      const path = `${key}[${i}]`;
      const parsed = schema.safeParse(item, { reportInput: true });
      if (!parsed.success) {
        report(issues, path, parsed.error);
        if (isPlainObject(item) && typeof item['name'] === 'string') broken.add(item['name']);
        return [];
      }
      if (isPlainObject(item)) warn(item, path);
      return [[parsed.data as z.output<S>, path] as const];
    });
  const tools = section('tools', toolSchema, (raw, path) => warnTool(issues, raw, path));
  const agents = section('agents', agentSchema, (raw, path) => warnAgent(issues, raw, path));
  const teams = section('teams', teamSchema, (raw, path) => warnTeam(issues, raw, path));
  const pipelines = section('pipelines', pipelineSchema, (raw, path) =>
    warnPipeline(issues, raw, path),
  );
  const rules = teams.some(([t]) => t.delegationStrategy?.type === 'rule-based');
  return { tools, agents, teams, pipelines, rules, broken };
}

async function resolveAll(parts: Parts, issues: Issues): Promise<SymphonyConfig | undefined> {
  const tools = new Map<string, SymphonyTool>();
  for (const [raw, path] of parts.tools) {
    if (tools.has(raw.name)) issues.error(`${path}.name`, `a second tool named "${raw.name}"`);
    else tools.set(raw.name, resolveTool(raw));
  }
  const agents = new Map<string, SymphonyAgent>();
  const addAgent = (raw: RawAgent, path: string): void => {
    if (agents.has(raw.name)) issues.error(`${path}.name`, `a second agent named "${raw.name}"`);
    else agents.set(raw.name, resolveAgent(raw));
  };
  for (const [raw, path] of parts.agents) addAgent(raw, path);
  const teams = new Map<string, SymphonyTeam>();
  for (const [raw, path] of parts.teams) {
    // Inline members are agents of their own, named as written (warned like top-level agents).
    raw.agents.forEach((member, i) => {
      if (typeof member === 'string') return;
      const at = `${path}.agents[${i}]`;
      const parsed = agentSchema.safeParse(member, { reportInput: true });
      if (!parsed.success) {
        if (
          typeof member === 'object' &&
          member !== null &&
          typeof (member as { name?: unknown }).name === 'string'
        )
          (parts.broken as Set<string>).add((member as { name: string }).name);
        return report(issues, at, parsed.error);
      }
      if (isPlainObject(member)) warnAgent(issues, member, at);
      addAgent(parsed.data, at);
    });
    if (teams.has(raw.name)) issues.error(`${path}.name`, `a second team named "${raw.name}"`);
    else teams.set(raw.name, resolveTeam(raw, path, issues));
  }
  const pipelines = new Map<string, SymphonyPipeline>();
  for (const [raw, path] of parts.pipelines) {
    if (pipelines.has(raw.name))
      issues.error(`${path}.name`, `a second pipeline named "${raw.name}"`);
    else pipelines.set(raw.name, resolvePipeline(raw));
  }
  checkReferences({ tools, agents, teams, pipelines, parts, issues });
  if (issues.failed()) return undefined;
  const toolSet = await toToolSet(tools, issues);
  if (toolSet === undefined) return undefined;
  return { tools, toolSet, agents, teams, pipelines, warnings: issues.list.slice() };
}

/** The tools as action definitions, loaded by the engine's own loader (schemas compiled once). */
async function toToolSet(
  tools: ReadonlyMap<string, SymphonyTool>,
  issues: Issues,
): Promise<ToolSet | undefined> {
  const definitions = [...tools.values()].map((t) => ({
    type: 'action',
    tool: {
      type: 'function',
      function: {
        name: t.name,
        ...(t.description === undefined ? {} : { description: t.description }),
        parameters: t.parameters,
      },
    },
    ...(t.timeout === undefined ? {} : { timeout: t.timeout }),
    ...(t.retryCount === undefined ? {} : { retryCount: t.retryCount }),
  }));
  try {
    return await loadTools(definitions);
  } catch (error) {
    if (!(error instanceof DefinitionError)) throw error;
    // `tools[2].tool.function.parameters.x` → `tools[2].config.inputSchema.x`.
    for (const i of error.issues) {
      const path = i.path.replace(
        /^tools\[(\d+)\]\.tool\.function\.parameters/,
        'tools[$1].config.inputSchema',
      );
      if (i.severity === 'error') issues.error(path, i.message, i.code);
    }
    return undefined;
  }
}

/**
 * Size, depth and cycles, measured without recursion before anything walks the value: a
 * configuration nested deeper than a definition may be (plus the levels of its own sections), a
 * cyclic object, or one over the file cap with aliases expanded is refused, naming where.
 */
function checkLimits(value: unknown, issues: Issues): void {
  const memo: SizeMemo = new Map();
  const size = measureValue(value, memo);
  if (size === 'cycle')
    return issues.error('', 'contains itself (a cycle of references)', 'cyclic');
  const limit = MAX_DEFINITION_DEPTH + CONFIG_LEVELS;
  if (size.height > limit)
    issues.error(
      formatPath('', pathTooDeep(value, limit, memo)),
      `nested more than ${limit} levels deep`,
      'too_deep',
    );
  if (size.bytes > DEFAULT_MAX_FILE_BYTES)
    issues.error(
      '',
      `larger than ${DEFAULT_MAX_FILE_BYTES} bytes with aliases expanded`,
      'too_large',
    );
}

/** Levels a configuration adds above what a tool definition may hold (`pipelines[0].steps[0]`). */
const CONFIG_LEVELS = 4;

/** zod's issues under `base`, each with its path. */
export function report(issues: Issues, base: string, error: z.ZodError | undefined): void {
  for (const i of deepestIssues(error?.issues ?? []))
    issues.error(formatPath(base, i.path), i.message === '' ? 'invalid' : i.message);
}

function warnUnknown(issues: Issues, path: string, raw: unknown, known: readonly string[]): void {
  if (!isPlainObject(raw)) return;
  for (const key of Object.keys(raw))
    if (!known.includes(key))
      issues.warn(
        joinPath(path, key),
        `unknown field "${key}"${didYouMean(key, known)} (ignored)`,
        'unknown_field',
      );
}

function warnNotActedOn(issues: Issues, path: string, raw: Record<string, unknown>): void {
  for (const [key, why] of NOT_ACTED_ON)
    if (Object.hasOwn(raw, key)) issues.warn(joinPath(path, key), why, 'not_acted_on');
}

function warnTool(issues: Issues, raw: Record<string, unknown>, path: string): void {
  warnUnknown(issues, path, raw, KNOWN_FIELDS.tool);
  warnUnknown(issues, `${path}.config`, raw['config'], KNOWN_FIELDS.toolConfig);
  warnNotActedOn(issues, path, raw);
  const config = raw['config'];
  if (Object.hasOwn(raw, 'inputs') && isPlainObject(config) && Object.hasOwn(config, 'inputSchema'))
    issues.warn(
      `${path}.inputs`,
      'config.inputSchema gives the parameters; inputs is ignored',
      'not_acted_on',
    );
}

function warnAgent(issues: Issues, raw: Record<string, unknown>, path: string): void {
  warnUnknown(issues, path, raw, KNOWN_FIELDS.agent);
  warnNotActedOn(issues, path, raw);
  warnUnknown(issues, `${path}.llm`, raw['llm'], KNOWN_FIELDS.llm);
}

function warnTeam(issues: Issues, raw: Record<string, unknown>, path: string): void {
  warnUnknown(issues, path, raw, KNOWN_FIELDS.team);
  const strategy = raw['strategy'];
  warnUnknown(issues, `${path}.strategy`, strategy, KNOWN_FIELDS.strategy);
  if (isPlainObject(strategy))
    warnUnknown(
      issues,
      `${path}.strategy.coordinationRules`,
      strategy['coordinationRules'],
      KNOWN_FIELDS.coordinationRules,
    );
  const delegation = raw['delegationStrategy'];
  warnUnknown(issues, `${path}.delegationStrategy`, delegation, KNOWN_FIELDS.delegationStrategy);
  if (isPlainObject(delegation) && Array.isArray(delegation['rules']))
    delegation['rules'].forEach((rule, i) =>
      warnUnknown(issues, `${path}.delegationStrategy.rules[${i}]`, rule, KNOWN_FIELDS.rule),
    );
}

function warnPipeline(issues: Issues, raw: Record<string, unknown>, path: string): void {
  warnUnknown(issues, path, raw, KNOWN_FIELDS.pipeline);
  warnUnknown(issues, `${path}.errorStrategy`, raw['errorStrategy'], KNOWN_FIELDS.errorStrategy);
  const steps = raw['steps'];
  if (!Array.isArray(steps)) return;
  steps.forEach((step, i) => {
    warnUnknown(issues, `${path}.steps[${i}]`, step, KNOWN_FIELDS.step);
    if (isPlainObject(step))
      warnUnknown(
        issues,
        `${path}.steps[${i}].retryConfig`,
        step['retryConfig'],
        KNOWN_FIELDS.retryConfig,
      );
  });
}
