// Loading a Symphony configuration: as written (file or object), every problem with its path,
// unknown and unused fields warned by name, nothing half-loaded.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSymphony } from '../../src/entries/symphony.js';
import { DefinitionError } from '../../src/index.js';

const tool = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  description: `the ${name} tool`,
  type: 'utility',
  config: { inputSchema: { type: 'object', properties: { q: { type: 'string' } } } },
  ...extra,
});

async function problems(config: Record<string, unknown>): Promise<string[]> {
  try {
    await loadSymphony({ source: config });
  } catch (error) {
    expect(error).toBeInstanceOf(DefinitionError);
    return (error as DefinitionError).issues
      .filter((i) => i.severity === 'error')
      .map((i) => `${i.path}: ${i.message}`);
  }
  throw new Error('expected a DefinitionError');
}

describe('loadSymphony', () => {
  it('loads a YAML file; tool type is a kept category, inputSchema the parameters', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'symphony-'));
    const file = join(dir, 'config.yaml');
    writeFileSync(
      file,
      'tools:\n  - name: notify\n    type: communication\n    config:\n      inputSchema:\n        properties: { to: { type: string } }\n        required: [to]\nagents:\n  - name: a\n    tools: [notify]\n',
    );
    const config = await loadSymphony({ source: file });
    expect(config.file).toBe(file);
    expect(config.tools.get('notify')).toMatchObject({
      category: 'communication',
      handler: 'notify',
    });
    expect(config.toolSet.tools.get('notify')?.tool.function.parameters).toEqual({
      type: 'object',
      properties: { to: { type: 'string' } },
      required: ['to'],
    });
  });

  it('maps the older `inputs` list when there is no inputSchema', async () => {
    const config = await loadSymphony({ source: { tools: [{ name: 't', inputs: ['a', 'b'] }] } });
    expect(config.tools.get('t')?.parameters).toEqual({
      type: 'object',
      properties: { a: {}, b: {} },
      required: ['a', 'b'],
    });
  });

  it('names the cycle of a pipeline and where it is', async () => {
    const step = (id: string, dependencies: string[]) => ({
      id,
      type: 'tool',
      tool: 't',
      dependencies,
    });
    expect(
      await problems({
        tools: [tool('t')],
        pipelines: [
          { name: 'p', steps: [step('start', []), step('a', ['b', 'start']), step('b', ['a'])] },
        ],
      }),
    ).toEqual(['pipelines[0].steps[1].dependencies: cycle a -> b -> a']);
  });

  it('lists every problem at once, each with its path', async () => {
    const list = await problems({
      tools: [tool('t'), tool('t'), { name: 'bad name!' }],
      agents: [
        { name: 'a', tools: ['t', 'missing'], maxCalls: 0 },
        { name: 'b', tools: ['nope'] },
      ],
      teams: [
        {
          name: 'team',
          agents: ['b', 'ghost'],
          delegationStrategy: {
            type: 'rule-based',
            rules: [{ condition: 'task.contains(', assignTo: 'x' }],
          },
        },
      ],
      pipelines: [
        {
          name: 'p',
          steps: [
            {
              id: 's1',
              type: 'agent',
              agent: 'nobody',
              inputs: { q: '$undeclared', r: '@s2.result' },
            },
            { id: 's2', type: 'tool', tool: 't', dependencies: ['s9'], outputs: { v: 'result' } },
          ],
        },
      ],
    });
    expect(list).toEqual([
      'tools[2].name: must be 1-64 letters, digits, _ or - (a model function name)',
      'agents[0].maxCalls: must be at least 1',
      'tools[1].name: a second tool named "t"',
      'agents[1].tools[0]: no tool named "nope" (tools: t)',
      'teams[0].agents[1]: no agent named "ghost" (agents: b)',
      expect.stringMatching(
        /^teams\[0\]\.delegationStrategy\.rules\[0\]\.condition: invalid CEL expression/,
      ),
      'teams[0].delegationStrategy.rules[0].assignTo: "x" is not a member of team team (members: b, ghost)',
      'pipelines[0].steps[0].agent: no agent named "nobody" (agents: b)',
      'pipelines[0].steps[1].dependencies[0]: no step with id "s9"',
      'pipelines[0].steps[1].outputs.v: "result" is not a path like .result.field',
    ]);
  });

  it('refuses a reference to a step not waited for, and a variable nobody writes', async () => {
    expect(
      await problems({
        tools: [tool('t')],
        pipelines: [
          {
            name: 'p',
            variables: { known: 1 },
            steps: [
              { id: 'a', type: 'tool', tool: 't', outputs: { fromA: '.result.x' } },
              {
                id: 'b',
                type: 'tool',
                tool: 't',
                inputs: { q: '@a.result.x', k: '$known', n: { deep: ['$fromA'] } },
              },
            ],
          },
        ],
      }),
    ).toEqual([
      'pipelines[0].steps[1].inputs.q: @a: step b must list a in its dependencies to read its output',
      'pipelines[0].steps[1].inputs.n.deep[0]: $fromA: written by a, which step b does not depend on',
    ]);
  });

  it('warns unknown fields, and known ones it does not act on, by name', async () => {
    const config = await loadSymphony({
      source: {
        tools: [
          tool('t', {
            nlp: 'send a message',
            apiKey: 'sk-1',
            colour: 'red',
            config: { inputSchema: { type: 'object' }, retries: 2 },
          }),
        ],
        agents: [{ name: 'a', tools: ['t'], llm: { model: 'm', topK: 3 }, mood: 'calm' }],
        pipelines: [
          {
            name: 'p',
            steps: [{ id: 's', type: 'tool', tool: 't', retryConfig: { jitter: true } }],
            owner: 'me',
          },
        ],
        extra: true,
      },
    });
    expect(config.warnings.map((w) => `${w.path}: ${w.code}`)).toEqual([
      'extra: unknown_field',
      'tools[0].colour: unknown_field',
      'tools[0].config.retries: unknown_field',
      'tools[0].nlp: not_acted_on',
      'tools[0].apiKey: not_acted_on',
      'agents[0].mood: unknown_field',
      'agents[0].llm.topK: unknown_field',
      'pipelines[0].owner: unknown_field',
      'pipelines[0].steps[0].retryConfig.jitter: unknown_field',
    ]);
    await expect(
      loadSymphony({ source: { tools: [tool('t', { colour: 1 })] }, strict: true }),
    ).rejects.toThrow(/tools\[0\]\.colour: unknown field "colour"/);
  });

  it('a file that is not JSON or YAML is a DefinitionError naming the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'symphony-'));
    const file = join(dir, 'bad.json');
    writeFileSync(file, '{ "tools": [');
    await expect(loadSymphony({ source: file })).rejects.toThrow(
      /invalid Symphony configuration:\n.*bad\.json: invalid JSON/,
    );
  });

  it('a document with none of tools, agents, teams, pipelines is refused, naming what it has', async () => {
    // A fixture of fixtures/symphony loaded whole: not an empty configuration that fails later.
    const dir = mkdtempSync(join(tmpdir(), 'symphony-'));
    const file = join(dir, 'fixture.yaml');
    writeFileSync(
      file,
      'description: x\nconfig:\n  agents: [{ name: support }]\nrun: { agent: support }\n',
    );
    await expect(loadSymphony({ source: file })).rejects.toThrow(
      'fixture.yaml: has none of tools, agents, teams, pipelines (its keys: description, config, run); a fixture of fixtures/symphony holds its configuration under "config"',
    );
    await expect(loadSymphony({ source: {} })).rejects.toThrow(
      'has none of tools, agents, teams, pipelines (it is empty)',
    );
    await expect(loadSymphony({ source: { agents: [] } })).resolves.toBeDefined();
  });

  it('a configuration nested too deep, or containing itself, is refused before anything walks it', async () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 5000; i++) deep = { a: deep };
    const tooDeep = {
      tools: [tool('t')],
      pipelines: [
        { name: 'p', steps: [{ id: 's', type: 'tool', tool: 't', inputs: { q: deep } }] },
      ],
    };
    await expect(loadSymphony({ source: tooDeep })).rejects.toThrow(
      /pipelines\[0\]\.steps\[0\]\.inputs\.q(\.a)+: nested more than 68 levels deep/,
    );
    const cyclic: Record<string, unknown> = { tools: [] };
    cyclic['agents'] = [{ name: 'a', self: cyclic }];
    await expect(loadSymphony({ source: cyclic })).rejects.toThrow(
      'contains itself (a cycle of references)',
    );
  });

  it('an inputSchema the engine refuses is reported under config.inputSchema', async () => {
    const list = await problems({
      tools: [
        {
          name: 't',
          config: { inputSchema: { type: 'object', properties: { a: { type: 'strnig' } } } },
        },
      ],
    });
    expect(list.length).toBeGreaterThan(0);
    expect(list[0]).toMatch(/^tools\[0\]\.config\.inputSchema/);
  });
});
