/**
 * The Synapse-style tool set (fixtures/tools/synapse.json) against a real CLI (scripts/synapse.mjs):
 * the same tools the offline fixture runs with the command double, here spawning the program.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTools } from '../../../src/definition/load.js';
import { ScriptedModel } from '../../../src/models/scripted.js';
import { createSession } from '../../../src/session/create-session.js';
import { scriptCommand } from './command-helpers.js';

describe('fixtures/tools/synapse.json against a real synapse CLI', () => {
  it('adds a hostile note, finds it, and reports a failed forget with its exit code and stderr', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sb-synapse-'));
    const tools = await loadTools('fixtures/tools/synapse.json');
    const hostile = '--moved; to $(Elm Street) `now`';
    const s = createSession({
      tools,
      commands: { synapse: scriptCommand('synapse.mjs', { env: { SYNAPSE_HOME: home } }) },
      model: new ScriptedModel([
        { tool_calls: [{ name: 'memory_add', args: { text: hostile, tags: ['health'] } }] },
        { tool_calls: [{ name: 'memory_search', args: { query: 'elm street' } }] },
        { tool_calls: [{ name: 'memory_forget', args: { id: 'n9' } }] },
        { text: 'done' },
      ]),
    });
    const result = await s.run('remember, then look, then forget n9');
    await s.close();
    expect(result.traces.map((t) => t.output)).toEqual([
      'saved n1',
      { notes: [{ id: 'n1', text: hostile, tags: ['health'] }] },
      {
        error: {
          code: 'command_failed',
          message: 'command synapse exited with status 2',
          exit_code: 2,
          stderr: 'error: no note n9',
        },
      },
    ]);
  });
});
