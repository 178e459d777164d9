/**
 * `switchboard repl --commands`: command tools run their real program, the run is narrated, and
 * `/save` writes a fixture whose command runs replay offline through the command double.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cliInProcess } from './build.js';

const synapse = fileURLToPath(new URL('../handlers/command/scripts/synapse.mjs', import.meta.url));

describe('repl --commands', () => {
  it('runs the program, narrates the argv, and saves a fixture that replays offline', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-repl-cmd-'));
    const saved = join(dir, 'saved.yaml');
    const commands = JSON.stringify({
      synapse: { path: process.execPath, args: [synapse], env: { SYNAPSE_HOME: dir } },
    });
    const input = [
      'remember the dentist',
      '/call memory_add {"text":"dentist on Tuesdays; $(rm -rf ~)"}',
      '/call memory_forget {"id":"n7"}',
      '/reply Saved; n7 was not there.',
      `/save ${saved}`,
      '/quit',
    ].join('\n');
    const r = await cliInProcess(
      [
        'repl',
        'fixtures/tools/synapse.json',
        '--model',
        'manual',
        '--no-color',
        '--commands',
        commands,
      ],
      { input },
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("$ synapse memory add -- 'dentist on Tuesdays; $(rm -rf ~)'");
    expect(r.stdout).toContain('saved n1');
    expect(r.stdout).toContain('command_failed');
    const text = readFileSync(saved, 'utf8');
    expect(text.split('\n')[0]).toBe('# Recorded by `switchboard repl`.');
    // The host's args (the script path) and env are never written.
    expect(text).not.toContain(synapse);
    expect(text).not.toContain(dir);
    expect(text).toContain('exit_code: 2');
    const t = await cliInProcess(['test', saved]);
    expect(t.stdout).toContain('1 passed');
  });

  it('refuses a tools file whose command tools have no registered program', async () => {
    const r = await cliInProcess(['repl', 'fixtures/tools/synapse.json', '--model', 'manual'], {
      input: '/quit\n',
    });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('runs command "synapse", which the host does not register');
    expect(r.stderr).toContain('--commands');
  });
});
