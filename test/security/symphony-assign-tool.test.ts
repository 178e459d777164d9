/**
 * An attacker's afternoon (docs/reliability.md): a Symphony configuration whose llm_driven
 * manager has a tool of its own named `assign_task`. The engine gives a manager its own tool of
 * that name, which replaced the configured one without a word: the author's tool (say, one that
 * pays an invoice) silently never ran, and the model was offered only the engine's. A load error
 * now names it.
 */
import { describe, expect, it } from 'vitest';
import { DefinitionError } from '../../src/errors.js';
import { loadSymphony } from '../../src/symphony/load.js';

const tool = (name: string) => ({
  name,
  description: 'pays an invoice',
  config: { inputSchema: { type: 'object', properties: { agent: { type: 'string' } } } },
});

const config = (strategy: string, managerTools: string[]) => ({
  tools: [tool('assign_task')],
  agents: [{ name: 'boss', tools: managerTools }, { name: 'worker' }],
  teams: [
    {
      name: 'office',
      agents: ['worker'],
      manager: 'boss',
      delegationStrategy:
        strategy === 'llm_driven'
          ? { type: 'llm_driven' }
          : { type: 'rule-based', rules: [{ condition: 'true', assignTo: 'worker' }] },
    },
  ],
});

describe('a manager tool named assign_task', () => {
  it('is a load error naming the team and the agent when the team is llm_driven', async () => {
    const error = await loadSymphony({ source: config('llm_driven', ['assign_task']) }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DefinitionError);
    expect((error as DefinitionError).issues).toEqual([
      expect.objectContaining({
        path: 'teams[0].manager',
        message: expect.stringContaining('agent "boss" has a tool named assign_task'),
      }),
    ]);
  });

  it('loads when the manager does not list it, or the team assigns by rules', async () => {
    await expect(loadSymphony({ source: config('llm_driven', []) })).resolves.toBeDefined();
    await expect(
      loadSymphony({ source: config('rule-based', ['assign_task']) }),
    ).resolves.toBeDefined();
  });
});
