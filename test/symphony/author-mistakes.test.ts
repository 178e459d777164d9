/** A Symphony author's misspelt field (docs/reliability.md, "A tool author's mistakes"). */
import { describe, expect, it } from 'vitest';
import { loadSymphony } from '../../src/entries/symphony.js';

describe('a misspelt Symphony field', () => {
  it('is an unknown_field warning naming the field meant', async () => {
    const config = await loadSymphony({
      source: {
        tools: [{ name: 'lookup', description: 'd', timout: 5000 }],
        agents: [{ name: 'support', systemPrompt: 'p', tools: ['lookup'], maxCals: 3 }],
      },
    });
    expect(
      config.warnings
        .filter((w) => w.code === 'unknown_field')
        .map((w) => `${w.path}: ${w.message}`),
    ).toEqual([
      'tools[0].timout: unknown field "timout" (did you mean `timeout`?) (ignored)',
      'agents[0].maxCals: unknown field "maxCals" (did you mean `maxCalls`?) (ignored)',
    ]);
  });
});

describe('a wrong value inside a field of several forms', () => {
  const issues = async (source: Record<string, unknown>) => {
    try {
      await loadSymphony({ source });
    } catch (error) {
      return (error as { issues: { path: string; message: string }[] }).issues.map(
        (i) => `${i.path}: ${i.message}`,
      );
    }
    throw new Error('expected a load error');
  };
  const agent = (fields: Record<string, unknown>) => ({ name: 'a', systemPrompt: 'p', ...fields });
  const pipeline = (errorStrategy: unknown) => ({
    agents: [agent({})],
    pipelines: [{ name: 'p', steps: [{ id: 's', type: 'agent', agent: 'a' }], errorStrategy }],
  });

  it('is named at the deepest path that is wrong', async () => {
    expect(await issues({ agents: [agent({ llm: { model: 'm', temperature: 'hot' } })] })).toEqual([
      'agents[0].llm.temperature: expected a number',
    ]);
    expect(await issues({ agents: [agent({ llm: { model: 'm', temperature: 5 } })] })).toEqual([
      'agents[0].llm.temperature: must be at most 2',
    ]);
    expect(await issues({ agents: [agent({ directives: ['Be brief', 5] })] })).toEqual([
      'agents[0].directives[1]: expected a string',
    ]);
    expect(
      await issues({
        agents: [agent({})],
        teams: [
          {
            name: 't',
            agents: ['a'],
            delegationStrategy: {
              type: 'rule-based',
              rules: [{ condition: 'true', assignTo: ['a', 3] }],
            },
          },
        ],
      }),
    ).toEqual(['teams[0].delegationStrategy.rules[0].assignTo[1]: expected a string']);
    expect(await issues(pipeline('stp'))).toEqual([
      'pipelines[0].errorStrategy: expected stop, continue or retry',
    ]);
    expect(await issues(pipeline({ type: 'retry', delay: -1 }))).toEqual([
      'pipelines[0].errorStrategy.delay: must be at least 0 ms',
    ]);
  });

  it('a value of no form names the forms', async () => {
    expect(await issues({ agents: [agent({ llm: 5 })] })).toEqual([
      'agents[0].llm: expected a model name or { model, temperature?, maxTokens?, provider? }',
    ]);
  });
});
