/**
 * A team run: the task is assigned (to every member, by rules, by a host delegator, or by a
 * manager model through the `assign_task` tool), member tasks run as agent runs at most
 * `maxParallelTasks` at once under `taskTimeout`, and their work is gathered into one AgentResult.
 */
import { ASSIGN_TOOL } from './types.js';
import { loadTools } from '../definition/load.js';
import type { ToolDefinition } from '../definition/types.js';
import { compileCel, isTruthy } from '../expressions/expression.js';
import { runAgentTask } from './agent-run.js';
import {
  failure,
  membersOf,
  metrics,
  usageParts,
  type Assignment,
  type SymphonyRuntime,
} from './runtime.js';
import type {
  AgentResult,
  MemberOutcome,
  SymphonyAgent,
  SymphonyTeam,
  ToolExecution,
} from './types.js';

export interface TeamTask {
  readonly team: SymphonyTeam;
  readonly task: string;
  readonly variables: Readonly<Record<string, unknown>>;
  readonly signal: AbortSignal | undefined;
}

export { ASSIGN_TOOL };

export async function runTeam(rt: SymphonyRuntime, input: TeamTask): Promise<AgentResult> {
  const { team } = input;
  const startTime = rt.now();
  const members = membersOf(rt, team);
  const limit = new Limit(team.maxParallelTasks);
  // Slots taken when a member starts, so the work is listed in the order it was assigned.
  const done: Done[] = [];
  const runMember = (agent: SymphonyAgent, task: string): Promise<AgentResult> => {
    const slot = done.length;
    done.length++;
    return limit.run(async () => {
      const result = await runAgentTask(rt, {
        agent,
        message: task,
        vars: input.variables,
        ...(team.taskTimeout === undefined ? {} : { timeout: team.taskTimeout }),
        ...(input.signal === undefined ? {} : { signal: input.signal }),
      });
      done[slot] = { agent: agent.name, task, result };
      return result;
    });
  };

  let manager: AgentResult | undefined;
  let ordered: readonly Done[];
  if (team.delegation.type === 'llm_driven') {
    manager = await runManager(rt, input, members, runMember);
    ordered = done.filter((d) => d !== undefined); // in the order the manager assigned
  } else {
    const assigned = await assign(rt, input, members);
    if ('code' in assigned) return failure(assigned.code, assigned.message, startTime, rt.now());
    // In assignment order, whatever order they finished in.
    const results = await Promise.all(assigned.map((a) => runMember(a.agent, a.task)));
    ordered = assigned.map((a, i) => ({
      agent: a.agent.name,
      task: a.task,
      result: results[i] as AgentResult,
    }));
  }
  const outcomes: MemberOutcome[] = ordered.map(({ agent, task, result }) => ({
    agent,
    task,
    success: result.success,
    response: result.result.response,
    ...(result.error === undefined ? {} : { error: result.error }),
  }));
  const all = [...(manager === undefined ? [] : [manager]), ...ordered.map((d) => d.result)];
  const tools: ToolExecution[] = all.flatMap((r) => r.result.toolsExecuted);
  const only = ordered.length === 1 ? ordered[0] : undefined;
  const response =
    manager !== undefined
      ? manager.result.response
      : only !== undefined
        ? only.result.result.response
        : ordered.map((d) => `## ${d.agent}\n${d.result.result.response}`).join('\n\n');
  // An llm_driven team succeeds when its manager does (it saw each member's failure and answered).
  const failed =
    manager !== undefined
      ? manager.success
        ? undefined
        : { agent: manager, name: 'manager' }
      : undefined;
  const failedMember = manager === undefined ? ordered.find((d) => !d.result.success) : undefined;
  const success = failed === undefined && failedMember === undefined;
  const error =
    failed !== undefined
      ? {
          error: failed.agent.error ?? 'the manager failed',
          errorCode: failed.agent.errorCode ?? 'manager_failed',
        }
      : failedMember !== undefined
        ? {
            error: `${failedMember.agent}: ${failedMember.result.error ?? 'failed'}`,
            errorCode: failedMember.result.errorCode ?? 'member_failed',
          }
        : undefined;
  return {
    success,
    result: {
      response,
      ...(manager?.result.reasoning === undefined ? {} : { reasoning: manager.result.reasoning }),
      toolsExecuted: tools,
      members: outcomes,
    },
    ...(error ?? {}),
    metrics: metrics(startTime, rt.now(), tools.length, all.flatMap(usageParts)),
  };
}

interface Done {
  readonly agent: string;
  readonly task: string;
  readonly result: AgentResult;
}

type Assigned = { readonly agent: SymphonyAgent; readonly task: string }[];

/** Who works on the task, without a manager model: every member, the rules, or the delegator. */
async function assign(
  rt: SymphonyRuntime,
  input: TeamTask,
  members: readonly SymphonyAgent[],
): Promise<Assigned | { code: string; message: string }> {
  const { team, task } = input;
  const d = team.delegation;
  const byName = new Map(members.map((m) => [m.name, m]));
  const managerAlone = (): Assigned | undefined => {
    const m = managerAgent(rt, team);
    return m === undefined ? undefined : [{ agent: m, task }];
  };
  switch (d.type) {
    case 'all':
      return members.map((agent) => ({ agent, task }));
    case 'rule-based': {
      const data = { task, variables: input.variables };
      for (const rule of d.rules) {
        const compiled = compileCel(rule.condition);
        if (!compiled.ok) return { code: 'rule_error', message: compiled.message };
        let value: unknown;
        try {
          value = compiled.expression.evaluate(data);
        } catch (error) {
          return { code: 'rule_error', message: `${rule.condition}: ${(error as Error).message}` };
        }
        if (value === true || (typeof value !== 'boolean' && isTruthy(value)))
          return rule.assignTo.map((n) => ({ agent: byName.get(n) as SymphonyAgent, task }));
      }
      return (
        managerAlone() ?? {
          code: 'no_rule_matched',
          message: `no rule of team ${team.name} matched the task, and it has no manager to take it`,
        }
      );
    }
    case 'custom': {
      const delegator = rt.delegators.get(d.handler);
      let answer: Awaited<ReturnType<NonNullable<typeof delegator>>>;
      try {
        answer = await (delegator as NonNullable<typeof delegator>)({
          task,
          variables: input.variables,
          team: {
            name: team.name,
            ...(team.description === undefined ? {} : { description: team.description }),
          },
          members: members.map((m) => ({
            name: m.name,
            ...(m.description === undefined ? {} : { description: m.description }),
            ...(m.task === undefined ? {} : { task: m.task }),
            tools: m.tools,
          })),
        });
      } catch (error) {
        return {
          code: 'delegator_error',
          message: `delegator ${d.handler} failed: ${(error as Error).message}`,
        };
      }
      const list: readonly (string | Assignment)[] = typeof answer === 'string' ? [answer] : answer;
      const out: Assigned = [];
      for (const item of Array.isArray(list) ? list : []) {
        const a: Assignment = typeof item === 'string' ? { agent: item } : item;
        const agent = typeof a?.agent === 'string' ? byName.get(a.agent) : undefined;
        if (agent === undefined)
          return {
            code: 'bad_assignment',
            message: `delegator ${d.handler} assigned ${JSON.stringify(a?.agent)}, not a member of team ${team.name} (members: ${team.members.join(', ')})`,
          };
        out.push({ agent, task: typeof a.task === 'string' ? a.task : task });
      }
      if (out.length === 0)
        return { code: 'bad_assignment', message: `delegator ${d.handler} assigned no member` };
      return out;
    }
    case 'llm_driven':
      return { code: 'internal', message: 'llm_driven teams are assigned by their manager' };
  }
}

/** The team's managing agent: a named agent, or (manager: true) one of the team's own. */
function managerAgent(rt: SymphonyRuntime, team: SymphonyTeam): SymphonyAgent | undefined {
  if (team.manager === undefined) return undefined;
  if (typeof team.manager === 'string') return rt.config.agents.get(team.manager);
  return {
    name: `${team.name}-manager`,
    description: `the manager of team ${team.name}${team.description === undefined ? '' : `: ${team.description}`}`,
    tools: [],
    directives: [],
  };
}

/** The manager's run: its session has `assign_task`, each call runs a member and returns its work. */
async function runManager(
  rt: SymphonyRuntime,
  input: TeamTask,
  members: readonly SymphonyAgent[],
  runMember: (agent: SymphonyAgent, task: string) => Promise<AgentResult>,
): Promise<AgentResult> {
  const manager = managerAgent(rt, input.team) as SymphonyAgent;
  const byName = new Map(members.map((m) => [m.name, m]));
  const tool = await assignTool(members);
  const roster = members
    .map((m) => `- ${m.name}${m.description === undefined ? '' : `: ${m.description}`}`)
    .join('\n');
  return runAgentTask(rt, {
    agent: manager,
    message: input.task,
    vars: input.variables,
    extraTools: [tool],
    extraActions: new Map([
      [
        ASSIGN_TOOL,
        async (args) => {
          // The schema's enum has already held the name to the members.
          const agent = byName.get(String(args['agent'])) as SymphonyAgent;
          const r = await runMember(agent, String(args['task']));
          return r.success
            ? { agent: agent.name, success: true, response: r.result.response }
            : { agent: agent.name, success: false, error: r.error ?? 'failed' };
        },
      ],
    ]),
    extraPrompt:
      `You manage the team ${input.team.name}. Give the task, or parts of it, to its members with the ${ASSIGN_TOOL} tool ` +
      `(several calls in one answer run in parallel), then answer with the team's result from what they return.\nMembers:\n${roster}`,
    ...(input.signal === undefined ? {} : { signal: input.signal }),
  });
}

async function assignTool(members: readonly SymphonyAgent[]): Promise<ToolDefinition> {
  const set = await loadTools([
    {
      type: 'action',
      tool: {
        type: 'function',
        function: {
          name: ASSIGN_TOOL,
          description: "Assign a task to a member of your team; returns the member's response.",
          parameters: {
            type: 'object',
            properties: {
              agent: { type: 'string', enum: members.map((m) => m.name) },
              task: { type: 'string', description: 'what the member should do' },
            },
            required: ['agent', 'task'],
            additionalProperties: false,
          },
        },
      },
    },
  ]);
  return set.tools.get(ASSIGN_TOOL) as ToolDefinition;
}

/** At most `max` tasks at once; the others wait their turn, in order. */
class Limit {
  #active = 0;
  readonly #waiting: (() => void)[] = [];
  constructor(readonly max: number) {}
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.#active >= this.max) await new Promise<void>((r) => this.#waiting.push(r));
    this.#active++;
    try {
      return await fn();
    } finally {
      this.#active--;
      this.#waiting.shift()?.();
    }
  }
}
