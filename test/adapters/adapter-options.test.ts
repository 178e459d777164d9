/** Each framework adapter checks its own options (tools, onSay) when it is created. */
import { describe, expect, it } from 'vitest';
import { createAiTools } from '../../src/adapters/ai.js';
import { createLiveKitTools } from '../../src/adapters/livekit.js';
import { createAgentsTools } from '../../src/adapters/openai-agents.js';
import { loadTools } from '../../src/definition/load.js';
import { DefinitionError } from '../../src/errors.js';

type Loose = Record<string, unknown>;
type Create = (options: never) => { close(): Promise<void>; tools: unknown };

const tools = await loadTools([
  {
    type: 'log',
    tool: {
      type: 'function',
      function: { name: 'note', description: 'n', parameters: { type: 'object', properties: {} } },
    },
  },
]);

const adapters: [string, Create][] = [
  ['createAiTools', createAiTools as Create],
  ['createAgentsTools', createAgentsTools as Create],
  ['createLiveKitTools', createLiveKitTools as Create],
];

function issuesOf(create: Create, options: Loose): string[] {
  try {
    create(options as never);
  } catch (error) {
    expect(error).toBeInstanceOf(DefinitionError);
    return (error as DefinitionError).issues.map((i) => `${i.path}: ${i.message}`);
  }
  throw new Error(`expected ${JSON.stringify(Object.keys(options))} to be refused`);
}

describe.each(adapters)('%s checks its own options at creation', (caller, create) => {
  it('a tool set still a Promise (was a TypeError reading `values`)', () => {
    expect(issuesOf(create, { tools: loadTools([]) })).toEqual([
      'tools: expected a ToolSet, got a Promise (missing `await`?): `await` the loadTools(...) call',
    ]);
  });

  it('no tools, and an onSay that is not a function (was a TypeError at the first line said)', () => {
    expect(issuesOf(create, { onSay: 'console' })).toEqual([
      'tools: is required',
      'onSay: expected a function, got a string',
    ]);
  });

  it('the heading names the adapter; session options are still checked as createSession does', () => {
    expect(() => create({ tools: loadTools([]) } as never)).toThrow(`invalid ${caller} options:\n`);
    expect(issuesOf(create, { tools, language: 7 })).toEqual([
      'language: expected a string, got a number',
    ]);
  });

  it("an unknown key is one warning naming the nearest option, the adapter's or the session's", async () => {
    const warnings: string[] = [];
    const made = create({
      tools,
      onsay: () => undefined,
      langauge: 'en-US',
      onWarning: (w: { code: string; path: string; message: string }) =>
        warnings.push(`${w.code} ${w.path}: ${w.message}`),
    } as never);
    expect(warnings).toEqual([
      'unknown_option onsay: is not a known option (did you mean `onSay`?); it is ignored',
      'unknown_option langauge: is not a known option (did you mean `language`?); it is ignored',
    ]);
    await made.close();
  });

  it('a session option that steers a model is an ignored_option warning saying why', async () => {
    const warnings: string[] = [];
    const made = create({
      tools,
      maxCalls: 2,
      prompt: 'You are the clinic.',
      agents: { front: { prompt: 'p', model: { name: 'm', stream: async function* () {} } } },
      onWarning: (w: { code: string; path: string; message: string }) =>
        warnings.push(`${w.code} ${w.path}: ${w.message}`),
    } as never);
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toMatch(
      new RegExp(`^ignored_option maxCalls: has no effect in ${caller}: every call .+ makes runs`),
    );
    expect(warnings[1]).toContain(`ignored_option prompt: has no effect in ${caller}:`);
    expect(warnings[2]).toContain('ignored_option agents.front.model:');
    expect(warnings.every((w) => w.endsWith('; it is ignored'))).toBe(true);
    expect(made.tools).toBeDefined();
    await made.close();
  });

  it('correct options still make the tools', async () => {
    const made = create({ tools, onSay: () => undefined } as never);
    expect(made.tools).toBeDefined();
    await made.close();
  });
});
