/**
 * Raw (schema-checked) Symphony objects into their resolved, fully-defaulted form. Names across
 * objects are checked afterwards (check.ts).
 */
import type { JsonSchema } from '../definition/types.js';
import type { ActionHandler } from '../handlers/types.js';
import type { Issues } from './issues.js';
import type { RawAgent, RawPipeline, RawStep, RawTeam, RawTool } from './schema.js';
import type {
  Delegation,
  PipelineStep,
  RetryConfig,
  SymphonyAgent,
  SymphonyLlm,
  SymphonyPipeline,
  SymphonyTeam,
  SymphonyTool,
} from './types.js';

/** Parallel member tasks of a team without `coordinationRules.maxParallelTasks`. */
export const DEFAULT_MAX_PARALLEL_TASKS = 4;

export function resolveTool(raw: RawTool): SymphonyTool {
  return {
    name: raw.name,
    ...(raw.description === undefined ? {} : { description: raw.description }),
    ...(raw.type === undefined ? {} : { category: raw.type }),
    parameters: parametersOf(raw),
    handler: (raw.handler as string | ActionHandler | undefined) ?? raw.name,
    ...(raw.maxCalls === undefined ? {} : { maxCalls: raw.maxCalls }),
    ...(raw.timeout === undefined ? {} : { timeout: raw.timeout }),
    ...(raw.retryCount === undefined ? {} : { retryCount: raw.retryCount }),
    ...(raw.outputs === undefined ? {} : { outputs: raw.outputs }),
  };
}

/**
 * `config.inputSchema`, else one required property of any type per name of the older `inputs`
 * list, else no parameters.
 */
function parametersOf(raw: RawTool): JsonSchema {
  const schema = raw.config?.inputSchema;
  if (schema !== undefined) return { type: 'object', ...schema };
  const inputs = raw.inputs ?? [];
  return {
    type: 'object',
    properties: Object.fromEntries(inputs.map((n) => [n, {}])),
    required: [...inputs],
  };
}

export function resolveAgent(raw: RawAgent): SymphonyAgent {
  const llm: SymphonyLlm | undefined = typeof raw.llm === 'string' ? { model: raw.llm } : raw.llm;
  const directives =
    raw.directives === undefined
      ? []
      : typeof raw.directives === 'string'
        ? [raw.directives]
        : raw.directives;
  return {
    name: raw.name,
    ...(raw.description === undefined ? {} : { description: raw.description }),
    ...(raw.task === undefined ? {} : { task: raw.task }),
    tools: raw.tools ?? [],
    ...(llm === undefined ? {} : { llm }),
    ...(raw.systemPrompt === undefined ? {} : { systemPrompt: raw.systemPrompt }),
    directives,
    ...(raw.maxCalls === undefined ? {} : { maxCalls: raw.maxCalls }),
    ...(raw.timeout === undefined ? {} : { timeout: raw.timeout }),
  };
}

export function resolveTeam(raw: RawTeam, path: string, issues: Issues): SymphonyTeam {
  const members = raw.agents.flatMap((m, i) => {
    if (typeof m === 'string') return [m];
    if (typeof m === 'object' && m !== null && typeof (m as { name?: unknown }).name === 'string')
      return [(m as { name: string }).name];
    issues.error(`${path}.agents[${i}]`, 'expected an agent name or an agent object');
    return [];
  });
  const coordination = raw.strategy?.coordinationRules;
  return {
    name: raw.name,
    ...(raw.description === undefined ? {} : { description: raw.description }),
    members,
    ...(raw.manager === undefined || raw.manager === false ? {} : { manager: raw.manager }),
    maxParallelTasks: coordination?.maxParallelTasks ?? DEFAULT_MAX_PARALLEL_TASKS,
    ...(coordination?.taskTimeout === undefined ? {} : { taskTimeout: coordination.taskTimeout }),
    delegation: delegationOf(raw, path, issues),
  };
}

function delegationOf(raw: RawTeam, path: string, issues: Issues): Delegation {
  const d = raw.delegationStrategy;
  if (d === undefined) return { type: 'all' };
  const at = `${path}.delegationStrategy`;
  switch (d.type) {
    case 'rule-based':
      if (d.rules === undefined || d.rules.length === 0) {
        issues.error(`${at}.rules`, 'a rule-based team needs at least one rule');
        return { type: 'all' };
      }
      return {
        type: 'rule-based',
        rules: d.rules.map((r) => ({
          condition: r.condition,
          assignTo: typeof r.assignTo === 'string' ? [r.assignTo] : r.assignTo,
        })),
      };
    case 'llm_driven':
      if (raw.manager === undefined || raw.manager === false)
        issues.error(
          `${path}.manager`,
          'an llm_driven team needs a manager (true or an agent name)',
        );
      return { type: 'llm_driven' };
    case 'custom':
      if (d.handler === undefined) {
        issues.error(`${at}.handler`, 'a custom delegation names the host delegator (handler)');
        return { type: 'all' };
      }
      return { type: 'custom', handler: d.handler };
  }
}

export function resolvePipeline(raw: RawPipeline): SymphonyPipeline {
  const e = raw.errorStrategy;
  const strategy = typeof e === 'string' || e === undefined ? { type: e ?? 'stop' } : e;
  return {
    name: raw.name,
    ...(raw.description === undefined ? {} : { description: raw.description }),
    steps: raw.steps.map(resolveStep),
    variables: raw.variables ?? {},
    errorStrategy:
      strategy.type === 'retry'
        ? {
            type: 'retry',
            maxAttempts: ('maxAttempts' in strategy ? strategy.maxAttempts : undefined) ?? 3,
            delay: ('delay' in strategy ? strategy.delay : undefined) ?? 0,
          }
        : { type: strategy.type },
  };
}

function resolveStep(raw: RawStep): PipelineStep {
  const target =
    (raw.type === 'tool' ? raw.tool : raw.type === 'agent' ? raw.agent : raw.team) ??
    raw.name ??
    '';
  const r = raw.retryConfig;
  const retry: RetryConfig | undefined =
    r === undefined || r.enabled === false
      ? undefined
      : {
          maxAttempts: r.maxAttempts ?? 3,
          delay: r.delay ?? 0,
          backoffFactor: r.backoffFactor ?? 1,
          retryableErrors: r.retryableErrors ?? [],
        };
  return {
    id: raw.id,
    name: raw.name ?? raw.id,
    type: raw.type,
    target,
    inputs: raw.inputs ?? {},
    outputs: new Map(Object.entries(raw.outputs ?? {})),
    dependencies: raw.dependencies ?? [],
    ...(retry === undefined ? {} : { retry }),
    ...(raw.timeout === undefined ? {} : { timeout: raw.timeout }),
  };
}
