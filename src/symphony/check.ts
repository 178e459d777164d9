/**
 * The meaning of a Symphony configuration, checked at load: every name resolves (agent tools,
 * team members and managers, rule targets, step targets and dependencies), rule conditions
 * compile as CEL, pipeline dependencies have no cycle, and each `$`/`@` reference and output path
 * can be satisfied by the steps a step waits for.
 */
import { compileCel } from '../expressions/expression.js';
import type { Issues } from './issues.js';
import { parseOutputPath, referencesIn } from './paths.js';
import { resolvePipeline } from './resolve.js';
import type { RawAgent, RawPipeline, RawTeam } from './schema.js';
import { ASSIGN_TOOL } from './types.js';
import type {
  PipelineStep,
  SymphonyAgent,
  SymphonyPipeline,
  SymphonyTeam,
  SymphonyTool,
} from './types.js';

interface CheckInput {
  readonly tools: ReadonlyMap<string, SymphonyTool>;
  readonly agents: ReadonlyMap<string, SymphonyAgent>;
  readonly teams: ReadonlyMap<string, SymphonyTeam>;
  readonly pipelines: ReadonlyMap<string, SymphonyPipeline>;
  readonly parts: {
    readonly agents: readonly (readonly [RawAgent, string])[];
    readonly teams: readonly (readonly [RawTeam, string])[];
    readonly pipelines: readonly (readonly [RawPipeline, string])[];
    readonly broken: ReadonlySet<string>;
  };
  readonly issues: Issues;
}

const list = (names: Iterable<string>): string => [...names].join(', ') || 'none';

export function checkReferences(input: CheckInput): void {
  const { tools, agents, teams, issues } = input;
  const broken = input.parts.broken;
  // A name whose object was refused for its shape is not reported missing a second time.
  const has = (names: ReadonlyMap<string, unknown>, name: string): boolean =>
    names.has(name) || broken.has(name);
  for (const [raw, path] of input.parts.agents) checkAgentTools(raw, path, tools, issues, has);
  for (const [raw, path] of input.parts.teams) {
    raw.agents.forEach((m, i) => {
      if (typeof m === 'string') {
        if (!has(agents, m))
          issues.error(
            `${path}.agents[${i}]`,
            `no agent named "${m}" (agents: ${list(agents.keys())})`,
          );
      } else if (typeof m === 'object' && m !== null)
        checkAgentTools(m as RawAgent, `${path}.agents[${i}]`, tools, issues, has);
    });
    const team = teams.get(raw.name);
    if (team === undefined) continue;
    if (typeof team.manager === 'string' && !has(agents, team.manager))
      issues.error(
        `${path}.manager`,
        `no agent named "${team.manager}" (agents: ${list(agents.keys())})`,
      );
    // The engine gives an llm_driven manager its own assign_task: a tool of the agent's with that
    // name would be replaced without a word (and the model told one thing, the host another).
    const manager = typeof team.manager === 'string' ? agents.get(team.manager) : undefined;
    if (team.delegation.type === 'llm_driven' && manager?.tools.includes(ASSIGN_TOOL) === true)
      issues.error(
        `${path}.manager`,
        `agent "${manager.name}" has a tool named ${ASSIGN_TOOL}, the tool an llm_driven manager assigns work with: rename that tool`,
      );
    if (team.delegation.type === 'rule-based')
      team.delegation.rules.forEach((rule, i) => {
        const at = `${path}.delegationStrategy.rules[${i}]`;
        const compiled = compileCel(rule.condition);
        if (!compiled.ok) issues.error(`${at}.condition`, compiled.message);
        rule.assignTo.forEach((name) => {
          if (!team.members.includes(name))
            issues.error(
              `${at}.assignTo`,
              `"${name}" is not a member of team ${team.name} (members: ${list(team.members)})`,
            );
        });
      });
  }
  for (const [raw, path] of input.parts.pipelines)
    checkPipeline(resolvePipeline(raw), path, input, has);
}

function checkAgentTools(
  raw: RawAgent,
  path: string,
  tools: ReadonlyMap<string, SymphonyTool>,
  issues: Issues,
  has: (names: ReadonlyMap<string, unknown>, name: string) => boolean,
): void {
  (raw.tools ?? []).forEach((t, i) => {
    if (!has(tools, t))
      issues.error(`${path}.tools[${i}]`, `no tool named "${t}" (tools: ${list(tools.keys())})`);
  });
}

function checkPipeline(
  pipeline: SymphonyPipeline,
  path: string,
  input: CheckInput,
  has: (names: ReadonlyMap<string, unknown>, name: string) => boolean,
): void {
  const { issues } = input;
  const before = issues.list.length;
  const byId = new Map<string, number>();
  pipeline.steps.forEach((step, i) => {
    if (byId.has(step.id))
      issues.error(`${path}.steps[${i}].id`, `a second step with id "${step.id}"`);
    else byId.set(step.id, i);
  });
  pipeline.steps.forEach((step, i) => {
    const at = `${path}.steps[${i}]`;
    const targets =
      step.type === 'tool' ? input.tools : step.type === 'agent' ? input.agents : input.teams;
    if (step.target === '')
      issues.error(
        `${at}.${step.type}`,
        `name the ${step.type} this step runs (${step.type} or name)`,
      );
    else if (!has(targets, step.target))
      issues.error(
        `${at}.${step.type}`,
        `no ${step.type} named "${step.target}" (${step.type}s: ${list(targets.keys())})`,
      );
    step.dependencies.forEach((d, j) => {
      if (!byId.has(d)) issues.error(`${at}.dependencies[${j}]`, `no step with id "${d}"`);
      if (d === step.id) issues.error(`${at}.dependencies[${j}]`, 'a step cannot depend on itself');
    });
    for (const [variable, out] of step.outputs) {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(variable))
        issues.error(`${at}.outputs.${variable}`, 'a variable name is letters, digits and _');
      if (parseOutputPath(out) === undefined)
        issues.error(`${at}.outputs.${variable}`, `"${out}" is not a path like .result.field`);
    }
  });
  // Cycles and mappings are only meaningful over steps whose names resolved.
  if (issues.list.slice(before).some((i) => i.severity === 'error')) return;
  const cycle = findCycle(pipeline.steps);
  if (cycle !== undefined) {
    const i = byId.get(cycle[0] as string) as number;
    issues.error(`${path}.steps[${i}].dependencies`, `cycle ${cycle.join(' -> ')}`, 'cycle');
    return;
  }
  checkMappings(pipeline, path, byId, issues);
}

/** The first dependency cycle in written order, as ids ending where it began. */
export function findCycle(steps: readonly PipelineStep[]): string[] | undefined {
  const deps = new Map(steps.map((s) => [s.id, s.dependencies]));
  const done = new Set<string>();
  for (const start of steps) {
    const trail: string[] = [];
    const onTrail = new Set<string>();
    const visit = (id: string): string[] | undefined => {
      if (onTrail.has(id)) return [...trail.slice(trail.indexOf(id)), id];
      if (done.has(id)) return undefined;
      trail.push(id);
      onTrail.add(id);
      for (const d of deps.get(id) ?? []) {
        const found = visit(d);
        if (found !== undefined) return found;
      }
      trail.pop();
      onTrail.delete(id);
      done.add(id);
      return undefined;
    };
    const found = visit(start.id);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Steps a step waits for, directly or through others. */
function ancestors(step: string, deps: ReadonlyMap<string, readonly string[]>): Set<string> {
  const out = new Set<string>();
  const todo = [...(deps.get(step) ?? [])];
  for (let id = todo.pop(); id !== undefined; id = todo.pop()) {
    if (out.has(id)) continue;
    out.add(id);
    todo.push(...(deps.get(id) ?? []));
  }
  return out;
}

/**
 * `@step` must name a step this one waits for (else it could run before it, concurrently); a
 * `$variable` must have a default or be written by a step this one waits for.
 */
function checkMappings(
  pipeline: SymphonyPipeline,
  path: string,
  byId: ReadonlyMap<string, number>,
  issues: Issues,
): void {
  const deps = new Map(pipeline.steps.map((s) => [s.id, s.dependencies]));
  const writers = new Map<string, string[]>();
  for (const s of pipeline.steps)
    for (const v of s.outputs.keys()) writers.set(v, [...(writers.get(v) ?? []), s.id]);
  pipeline.steps.forEach((step, i) => {
    const before = ancestors(step.id, deps);
    for (const { ref, at } of referencesIn(step.inputs, `${path}.steps[${i}].inputs`)) {
      if (ref.kind === 'step') {
        if (!byId.has(ref.step)) issues.error(at, `@${ref.step}: no step with id "${ref.step}"`);
        else if (!before.has(ref.step))
          issues.error(
            at,
            `@${ref.step}: step ${step.id} must list ${ref.step} in its dependencies to read its output`,
          );
      } else if (
        !Object.hasOwn(pipeline.variables, ref.name) &&
        !(writers.get(ref.name) ?? []).some((w) => before.has(w))
      ) {
        const by = writers.get(ref.name);
        issues.error(
          at,
          by === undefined
            ? `$${ref.name}: no such variable (declare it in variables or write it in a step's outputs)`
            : `$${ref.name}: written by ${by.join(', ')}, which step ${step.id} does not depend on`,
        );
      }
    }
  });
}
