// Teams: who gets the task under each delegation, how many run at once, and how their work and
// failures are gathered.
import { describe, expect, it, vi } from 'vitest';
import { createSymphony, loadSymphony, type Delegator } from '../../src/entries/symphony.js';
import type { Model } from '../../src/index.js';
import { ScriptedModel, type ScriptedStep } from '../../src/testing.js';

const agents = [
  { name: 'a', description: 'first', task: 'do a' },
  { name: 'b', description: 'second', tools: [] },
];

async function team(
  spec: Record<string, unknown>,
  scripts: Record<string, ScriptedStep[]>,
  delegators?: Record<string, Delegator>,
) {
  const config = await loadSymphony({
    source: { agents, teams: [{ name: 't', agents: ['a', 'b'], ...spec }] },
  });
  const models = new Map<string, ScriptedModel>();
  const s = createSymphony({
    config,
    model: ({ agent }) => {
      const m = new ScriptedModel(scripts[agent] ?? [], { record: true });
      models.set(agent, m);
      return m;
    },
    ...(delegators === undefined ? {} : { delegators }),
  });
  return { s, models };
}

describe('Symphony teams', () => {
  it('without a delegation strategy every member works on the task; maxParallelTasks caps how many at once', async () => {
    for (const max of [1, 2]) {
      let inFlight = 0;
      let most = 0;
      const counting = (text: string): Model => ({
        name: text,
        async *stream() {
          most = Math.max(most, ++inFlight);
          await new Promise((r) => setImmediate(r));
          inFlight--;
          yield { type: 'text-delta', text };
          yield { type: 'finish' };
        },
      });
      const config = await loadSymphony({
        source: {
          agents,
          teams: [
            {
              name: 't',
              agents: ['a', 'b'],
              strategy: { coordinationRules: { maxParallelTasks: max } },
            },
          ],
        },
      });
      const r = await createSymphony({
        config,
        model: ({ agent }) => counting(agent.toUpperCase()),
      }).runTeam({ team: 't', task: 'go' });
      expect(most).toBe(max);
      expect(r.result.members).toMatchObject([
        { agent: 'a', response: 'A' },
        { agent: 'b', response: 'B' },
      ]);
      expect(r.result.response).toBe('## a\nA\n\n## b\nB');
    }
  });

  it('rule-based: no rule matches and no manager → no_rule_matched; with a manager, it takes the task', async () => {
    const rules = { type: 'rule-based', rules: [{ condition: 'variables.n > 5', assignTo: 'a' }] };
    const { s } = await team({ delegationStrategy: rules }, {});
    expect(await s.runTeam({ team: 't', task: 'x', variables: { n: 1 } })).toMatchObject({
      success: false,
      errorCode: 'no_rule_matched',
    });
    const config = await loadSymphony({
      source: {
        agents: [...agents, { name: 'boss' }],
        teams: [{ name: 't', agents: ['a', 'b'], manager: 'boss', delegationStrategy: rules }],
      },
    });
    const boss = new ScriptedModel([{ text: 'handled' }]);
    const r = await createSymphony({
      config,
      model: ({ agent }) => (agent === 'boss' ? boss : new ScriptedModel([])),
    }).runTeam({
      team: 't',
      task: 'x',
      variables: { n: 1 },
    });
    expect(r).toMatchObject({
      success: true,
      result: { response: 'handled', members: [{ agent: 'boss' }] },
    });
  });

  it('rule-based: a condition reads task and variables; a list assigns several members', async () => {
    const { s, models } = await team(
      {
        delegationStrategy: {
          type: 'rule-based',
          rules: [{ condition: 'task.startsWith("both") && variables.ok', assignTo: ['b', 'a'] }],
        },
      },
      { a: [{ text: 'A' }], b: [{ text: 'B' }] },
    );
    const r = await s.runTeam({ team: 't', task: 'both please', variables: { ok: true } });
    expect(r.result.members?.map((m) => m.agent)).toEqual(['b', 'a']);
    expect(models.get('a')?.calls[0]?.messages[1]).toEqual({
      role: 'user',
      content: 'both please',
    });
  });

  it('custom: the delegator gets the task, variables, team and members; a stranger is bad_assignment', async () => {
    const delegator = vi.fn<Delegator>(() => ['b']);
    const { s } = await team(
      { description: 'the team', delegationStrategy: { type: 'custom', handler: 'pick' } },
      { b: [{ text: 'B' }] },
      { pick: delegator },
    );
    expect(await s.runTeam({ team: 't', task: 'go', variables: { v: 1 } })).toMatchObject({
      success: true,
      result: { response: 'B' },
    });
    expect(delegator).toHaveBeenCalledWith({
      task: 'go',
      variables: { v: 1 },
      team: { name: 't', description: 'the team' },
      members: [
        { name: 'a', description: 'first', task: 'do a', tools: [] },
        { name: 'b', description: 'second', tools: [] },
      ],
    });
    delegator.mockReturnValueOnce(['zed']);
    expect(await s.runTeam({ team: 't', task: 'go' })).toMatchObject({
      success: false,
      errorCode: 'bad_assignment',
    });
    delegator.mockImplementationOnce(() => {
      throw new Error('no idea');
    });
    expect(await s.runTeam({ team: 't', task: 'go' })).toMatchObject({
      success: false,
      errorCode: 'delegator_error',
      error: 'delegator pick failed: no idea',
    });
  });

  it('custom: a team whose delegator the host did not give throws at createSymphony', async () => {
    await expect(
      team({ delegationStrategy: { type: 'custom', handler: 'pick' } }, {}),
    ).rejects.toThrow('team t needs the delegator "pick" (delegators: none)');
  });

  it("a member that fails fails the team, with its error; the others' work is kept", async () => {
    const { s } = await team({}, { a: [{ text: 'A' }], b: [{ error: 'boom' }] });
    const r = await s.runTeam({ team: 't', task: 'go' });
    expect(r).toMatchObject({
      success: false,
      errorCode: 'model_error',
      result: {
        members: [
          { agent: 'a', success: true },
          { agent: 'b', success: false },
        ],
      },
    });
    expect(r.error).toMatch(/^b: .*boom/);
  });

  it('llm_driven: the manager sees the roster and an assign_task tool limited to the members', async () => {
    const { s, models } = await team(
      { manager: true, delegationStrategy: { type: 'llm_driven' } },
      {
        't-manager': [
          { tool_calls: [{ name: 'assign_task', args: { agent: 'nobody', task: 'x' } }] },
          { text: 'gave up' },
        ],
      },
    );
    const r = await s.runTeam({ team: 't', task: 'go' });
    const call = models.get('t-manager')?.calls[0];
    expect(call?.messages[0]?.content).toContain('Members:\n- a: first\n- b: second');
    expect(call?.tools[0]?.function.parameters).toMatchObject({
      properties: { agent: { enum: ['a', 'b'] } },
    });
    // The model's invalid member is an invalid_arguments tool error it can read; no member ran.
    expect(r.result.toolsExecuted[0]).toMatchObject({ name: 'assign_task', success: false });
    expect(r.result.members).toEqual([]);
  });

  it('llm_driven: a named manager keeps its own tools and prompt beside assign_task', async () => {
    const config = await loadSymphony({
      source: {
        tools: [{ name: 'lookup', description: 'Look an order up' }],
        agents: [...agents, { name: 'boss', systemPrompt: 'You are the boss.', tools: ['lookup'] }],
        teams: [
          {
            name: 't',
            agents: ['a', 'b'],
            manager: 'boss',
            delegationStrategy: { type: 'llm_driven' },
          },
        ],
      },
    });
    const boss = new ScriptedModel([{ text: 'done' }], { record: true });
    const s = createSymphony({
      config,
      model: ({ agent }) => (agent === 'boss' ? boss : new ScriptedModel([])),
      actions: { lookup: () => ({ order: 1 }) },
    });
    await s.runTeam({ team: 't', task: 'go' });
    const call = boss.calls[0];
    expect(call?.tools.map((t) => t.function.name).sort()).toEqual(['assign_task', 'lookup']);
    expect(call?.messages[0]?.content).toMatch(
      /^You are the boss\.\n\n[\s\S]*Members:\n- a: first/,
    );
  });

  it('an llm_driven team without a manager is a load error', async () => {
    await expect(
      loadSymphony({
        source: {
          agents,
          teams: [{ name: 't', agents: ['a'], delegationStrategy: { type: 'llm_driven' } }],
        },
      }),
    ).rejects.toThrow(
      'teams[0].manager: an llm_driven team needs a manager (true or an agent name)',
    );
  });

  it("taskTimeout is each member task's deadline", async () => {
    vi.useFakeTimers();
    try {
      const { s } = await team(
        { strategy: { coordinationRules: { taskTimeout: 500 } } },
        { a: [{ text: 'A' }], b: [{ text: 'B', delayMs: 2000 }] },
      );
      const run = s.runTeam({ team: 't', task: 'go' });
      await vi.advanceTimersByTimeAsync(500);
      expect(await run).toMatchObject({
        success: false,
        errorCode: 'timeout',
        result: { members: [{ success: true }, { success: false }] },
      });
    } finally {
      vi.useRealTimers();
    }
  });
});
