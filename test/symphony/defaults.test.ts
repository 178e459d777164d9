// Documented defaults and refusals of Symphony that seeded faults showed untested: the default
// of maxParallelTasks and of retry attempts, load errors for a rule-based team without rules, a
// step depending on itself and a bad output variable name, and how `continue` treats a chain of
// skipped steps and a stopped run.
import { describe, expect, it, vi } from 'vitest';
import { createSymphony, loadSymphony } from '../../src/entries/symphony.js';
import { DefinitionError, type ActionHandler, type Model } from '../../src/index.js';
import { ScriptedModel } from '../../src/testing.js';

const tool = (name: string) => ({ name, config: { inputSchema: { type: 'object' } } });

async function problems(config: Record<string, unknown>): Promise<string[]> {
  const error = await loadSymphony({ source: config }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DefinitionError);
  return (error as DefinitionError).issues
    .filter((i) => i.severity === 'error')
    .map((i) => `${i.path}: ${i.message}`);
}

async function pipeline(
  steps: unknown[],
  actions: Record<string, ActionHandler>,
  extra: Record<string, unknown> = {},
) {
  const config = await loadSymphony({
    source: { tools: Object.keys(actions).map(tool), pipelines: [{ name: 'p', steps, ...extra }] },
  });
  return createSymphony({
    config,
    model: new ScriptedModel([]),
    actions,
    _internal: { sleep: async () => undefined },
  });
}

describe('Symphony defaults', () => {
  it('a team runs at most 4 members at once without maxParallelTasks', async () => {
    const names = ['a', 'b', 'c', 'd', 'e'];
    let inFlight = 0;
    let most = 0;
    const counting = (text: string): Model => ({
      name: text,
      async *stream() {
        most = Math.max(most, ++inFlight);
        // Several turns of the event loop, so every member that may start has started.
        for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
        inFlight--;
        yield { type: 'text-delta', text };
        yield { type: 'finish' };
      },
    });
    const config = await loadSymphony({
      source: {
        agents: names.map((name) => ({ name })),
        teams: [{ name: 't', agents: names }],
      },
    });
    const r = await createSymphony({ config, model: ({ agent }) => counting(agent) }).runTeam({
      team: 't',
      task: 'go',
    });
    expect(r.success).toBe(true);
    expect(most).toBe(4);
  });

  it('retries default to 3 attempts, from retryConfig and from errorStrategy retry', async () => {
    const failing = vi.fn(() => ({ success: false, error: 'busy' }));
    const s = await pipeline(
      [
        { id: 'a', type: 'tool', tool: 'f', retryConfig: {} },
        { id: 'b', type: 'tool', tool: 'f', retryConfig: { enabled: true } },
      ],
      { f: failing },
      { errorStrategy: 'continue' },
    );
    expect((await s.runPipeline({ pipeline: 'p' })).steps.map((x) => x.attempts)).toEqual([3, 3]);
    const r = await pipeline(
      [{ id: 'a', type: 'tool', tool: 'f' }],
      { f: failing },
      {
        errorStrategy: { type: 'retry' },
      },
    );
    expect((await r.runPipeline({ pipeline: 'p' })).steps[0]?.attempts).toBe(3);
  });
});

describe('Symphony load refusals', () => {
  it('a rule-based team with an empty rule list is refused', async () => {
    expect(
      await problems({
        agents: [{ name: 'a' }],
        teams: [
          { name: 't', agents: ['a'], delegationStrategy: { type: 'rule-based', rules: [] } },
        ],
      }),
    ).toEqual(['teams[0].delegationStrategy.rules: a rule-based team needs at least one rule']);
  });

  it('a step depending on itself, and an output variable that is no name, are refused', async () => {
    expect(
      await problems({
        tools: [tool('t')],
        pipelines: [
          {
            name: 'p',
            steps: [
              { id: 'a', type: 'tool', tool: 't', dependencies: ['a'] },
              { id: 'b', type: 'tool', tool: 't', outputs: { 'not-a-name': '.result' } },
            ],
          },
        ],
      }),
    ).toEqual([
      'pipelines[0].steps[0].dependencies[0]: a step cannot depend on itself',
      'pipelines[0].steps[1].outputs.not-a-name: a variable name is letters, digits and _',
    ]);
  });
});

describe('Symphony errorStrategy continue', () => {
  it('skips the steps depending on a failed one indirectly too; the others run', async () => {
    const ran: string[] = [];
    const s = await pipeline(
      [
        { id: 'a', type: 'tool', tool: 'bad' },
        { id: 'b', type: 'tool', tool: 'good', dependencies: ['a'] },
        { id: 'c', type: 'tool', tool: 'good', dependencies: ['b'] },
        { id: 'd', type: 'tool', tool: 'good' },
      ],
      {
        bad: () => ({ success: false, error: 'no' }),
        good: () => {
          ran.push('good');
          return 'ok';
        },
      },
      { errorStrategy: 'continue' },
    );
    const r = await s.runPipeline({ pipeline: 'p' });
    expect(r.steps.map((x) => x.status)).toEqual(['failed', 'skipped', 'skipped', 'succeeded']);
    expect(ran).toHaveLength(1);
  });

  it('a stopped run stops even under continue: the rest is skipped as stopped, not as failed', async () => {
    const controller = new AbortController();
    const later = vi.fn(() => 'ok');
    const s = await pipeline(
      [
        { id: 'a', type: 'tool', tool: 'hold' },
        { id: 'b', type: 'tool', tool: 'later', dependencies: ['a'] },
      ],
      {
        hold: (_args, ctx) =>
          new Promise((_, reject) => {
            ctx.signal.addEventListener('abort', () => reject(new Error('stopped')));
            controller.abort();
          }),
        later,
      },
      { errorStrategy: 'continue' },
    );
    const r = await s.runPipeline({ pipeline: 'p', signal: controller.signal });
    expect(r.steps.map((x) => [x.status, x.errorCode])).toEqual([
      ['failed', 'cancelled'],
      ['skipped', 'skipped'],
    ]);
    expect(r.steps[1]?.error).toBe('not run: the pipeline stopped at step a');
    expect(later).not.toHaveBeenCalled();
  });
});

describe('Symphony team edges', () => {
  it("the shorter of an agent's timeout and the team's taskTimeout is the member's deadline", async () => {
    vi.useFakeTimers();
    try {
      const config = await loadSymphony({
        source: {
          agents: [{ name: 'a', timeout: 60_000 }],
          teams: [
            { name: 't', agents: ['a'], strategy: { coordinationRules: { taskTimeout: 500 } } },
          ],
        },
      });
      const s = createSymphony({
        config,
        model: new ScriptedModel([{ text: 'A', delayMs: 2000 }]),
      });
      const run = s.runTeam({ team: 't', task: 'go' });
      await vi.advanceTimersByTimeAsync(500);
      expect(await run).toMatchObject({ success: false, errorCode: 'timeout' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('a delegator that assigns no member is bad_assignment, not an empty success', async () => {
    const config = await loadSymphony({
      source: {
        agents: [{ name: 'a' }],
        teams: [
          { name: 't', agents: ['a'], delegationStrategy: { type: 'custom', handler: 'pick' } },
        ],
      },
    });
    const s = createSymphony({
      config,
      model: new ScriptedModel([{ text: 'A' }]),
      delegators: { pick: () => [] },
    });
    expect(await s.runTeam({ team: 't', task: 'go' })).toMatchObject({
      success: false,
      errorCode: 'bad_assignment',
      error: 'delegator pick assigned no member',
    });
  });
});

describe('Symphony teams: rules, managers, errors', () => {
  const members = [{ name: 'a' }, { name: 'b' }];

  async function ruleTeam(extra: Record<string, unknown>, condition: string) {
    const config = await loadSymphony({
      source: {
        agents: members,
        teams: [
          {
            name: 't',
            agents: ['a', 'b'],
            delegationStrategy: { type: 'rule-based', rules: [{ condition, assignTo: 'b' }] },
            ...extra,
          },
        ],
      },
    });
    return createSymphony({
      config,
      model: ({ agent }) => new ScriptedModel([{ text: agent.toUpperCase() }]),
    });
  }

  it('a condition whose value is truthy but not a boolean assigns the task', async () => {
    const s = await ruleTeam({}, 'task');
    expect(await s.runTeam({ team: 't', task: 'go' })).toMatchObject({
      success: true,
      result: { response: 'B' },
    });
  });

  it('manager: false is no manager: an unmatched task is no_rule_matched', async () => {
    const s = await ruleTeam({ manager: false }, 'task == "other"');
    expect(await s.runTeam({ team: 't', task: 'go' })).toMatchObject({
      success: false,
      errorCode: 'no_rule_matched',
    });
  });

  it("a failed manager's team failure carries the manager's own error code", async () => {
    const config = await loadSymphony({
      source: {
        agents: members,
        teams: [
          {
            name: 't',
            agents: ['a', 'b'],
            manager: true,
            delegationStrategy: { type: 'llm_driven' },
          },
        ],
      },
    });
    const r = await createSymphony({
      config,
      model: new ScriptedModel([{ error: 'upstream down' }]),
    }).runTeam({ team: 't', task: 'go' });
    expect(r).toMatchObject({ success: false, errorCode: 'model_error' });
  });

  it('a tracing.recordUrlValues that is not a boolean is refused at createSymphony', async () => {
    const config = await loadSymphony({ source: { agents: members } });
    expect(() =>
      createSymphony({
        config,
        model: new ScriptedModel([]),
        tracing: { recordUrlValues: 'yes' as never },
      }),
    ).toThrow(/createSymphony: tracing\.recordUrlValues: expected true or false/);
  });
});

describe('Symphony pipeline result', () => {
  it('error names the first failed step in written order', async () => {
    const s = await pipeline(
      [
        { id: 'first', type: 'tool', tool: 'bad' },
        { id: 'second', type: 'tool', tool: 'bad' },
      ],
      { bad: () => ({ success: false, error: 'no' }) },
      { errorStrategy: 'continue' },
    );
    const r = await s.runPipeline({ pipeline: 'p' });
    expect(r.steps.map((x) => x.status)).toEqual(['failed', 'failed']);
    expect(r.error).toMatch(/^step first: /);
  });
});
