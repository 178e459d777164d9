/**
 * `command` in a definition (docs/definitions.md, docs/handlers.md "Command tools") and the host's
 * `commands` at createSession: a definition names a registered command, never a path; a command
 * nothing registers, or a bad setting, is refused before the first call, with its path.
 */
import { describe, expect, it } from 'vitest';
import { loadTools } from '../../../src/definition/load.js';
import { DefinitionError } from '../../../src/errors.js';
import { ScriptedModel } from '../../../src/models/scripted.js';
import { createSession } from '../../../src/session/create-session.js';
import type { SessionOptions } from '../../../src/session/types.js';

const fn = {
  type: 'function',
  function: {
    name: 'search',
    parameters: { type: 'object', properties: { q: { type: 'string' } } },
  },
};

async function loadError(definition: Record<string, unknown>): Promise<string> {
  try {
    await loadTools([definition]);
  } catch (err) {
    if (err instanceof DefinitionError) return err.message;
    throw err;
  }
  throw new Error('loaded');
}

describe('command definitions', () => {
  it('resolves a command tool with its defaults', async () => {
    const set = await loadTools([
      { tool: fn, command: { name: 'synapse', subcommand: ['memory', 'search'] } },
    ]);
    const tool = set.tools.get('search');
    expect(tool?.type).toBe('command');
    expect(tool?.command).toEqual({
      name: 'synapse',
      subcommand: ['memory', 'search'],
      positional: [],
      flagCase: 'as_written',
      timeoutSecs: 20,
    });
    expect(tool?.options.sideEffects).toBe('unsafe');
  });

  it('refuses type command without a command object', async () => {
    expect(await loadError({ type: 'command', tool: fn })).toMatch(
      /tools\[0\]\.type: type "command" needs a "command" object/,
    );
  });

  it('refuses a path where a registered name belongs', async () => {
    expect(
      await loadError({ type: 'command', tool: fn, command: { name: '/usr/bin/rm' } }),
    ).toMatch(/tools\[0\]\.command\.name: must be 1-64 characters .*not a path/);
  });

  it('refuses an unknown key (a typo) and a bad flag_case, naming them', async () => {
    const typo = await loadError({
      type: 'command',
      tool: fn,
      command: { name: 'synapse', subcommands: ['x'] },
    });
    expect(typo).toMatch(
      /tools\[0\]\.command: "subcommands" is not a setting of a command \(did you mean "subcommand"\?\)/,
    );
    const message = await loadError({
      type: 'command',
      tool: fn,
      command: { name: 'synapse', flag_case: 'camel' },
    });
    expect(message).toMatch(
      /tools\[0\]\.command\.flag_case: expected one of as_written\|snake_case\|kebab-case/,
    );
  });

  it('refuses a subcommand word with a NUL and a listed-twice positional', async () => {
    expect(
      await loadError({
        type: 'command',
        tool: fn,
        command: { name: 's', subcommand: ['a\u0000b'] },
      }),
    ).toMatch(/command\.subcommand\[0\]: must not contain a NUL character/);
    expect(
      await loadError({
        type: 'command',
        tool: fn,
        command: { name: 's', positional: ['q', 'q'] },
      }),
    ).toMatch(/command\.positional\[1\]: "q" is listed twice/);
  });

  it('warns about a positional that is no parameter, and a command on another type', async () => {
    const set = await loadTools([
      { type: 'command', tool: fn, command: { name: 's', positional: ['nope'] } },
      {
        type: 'action',
        tool: { type: 'function', function: { name: 'other' } },
        command: { name: 's' },
      },
    ]);
    expect(set.warnings.map((w) => `${w.code} ${w.path}`)).toEqual([
      'unknown_positional tools[0].command.positional[0]',
      'unused_command tools[1].command',
    ]);
  });
});

describe('commands at createSession', () => {
  const model = new ScriptedModel([{ text: 'ok' }]);
  async function options(commands: unknown): Promise<SessionOptions> {
    const tools = await loadTools([{ tool: fn, command: { name: 'synapse' } }]);
    return { tools, model, commands } as SessionOptions;
  }
  const problems = async (commands: unknown): Promise<string> => {
    try {
      createSession(await options(commands));
    } catch (err) {
      if (err instanceof DefinitionError) return err.message;
      throw err;
    }
    throw new Error('created');
  };

  it('refuses a command tool naming a command the host does not register', async () => {
    expect(await problems(undefined)).toMatch(
      /tools\.search\.command\.name: tool search runs command "synapse", which the host does not register; commands: none/,
    );
    expect(await problems({ synaps: { path: '/bin/true' } })).toMatch(/did you mean `synaps`\?/);
  });

  it('names every bad setting of a command', async () => {
    const message = await problems({
      synapse: {
        path: 'synapse',
        cwd: 'rel',
        env: { 'A-B': 'x', OK: 1 },
        args: [1],
        maxStdoutBytes: 0,
        shell: true,
      },
    });
    for (const path of ['path', 'cwd', 'env.A-B', 'env.OK', 'args', 'maxStdoutBytes', 'shell'])
      expect(message).toContain(`commands.synapse.${path}:`);
    expect(message).toMatch(/never looked up in PATH/);
  });

  it('accepts a registered command', async () => {
    const s = createSession(
      await options({ synapse: { path: '/usr/bin/synapse', env: { A: 'b' } } }),
    );
    await s.close();
  });
});
