/** Workflow tools through the CLI, in-process through `runCli` (what the binary runs). */
import { describe, expect, it } from 'vitest';
import { cliInProcess } from '../cli/build.js';

describe('workflows on the command line', () => {
  it('repl: /step shows the current step; the narrator shows step changes', async () => {
    const input = [
      '/step',
      'Hi, I am Ada',
      '/step',
      '/call submit_contact_info {"user_name":"Ada"}',
      '/reply Your email?',
      '/step',
      '/quit',
    ].join('\n');
    const r = await cliInProcess(
      ['repl', 'fixtures/syllable/workflows/ex04-lifecycle.tools.json', '--model', 'manual'],
      {
        input,
      },
    );
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const out = r.stdout;
    expect(out).toContain(
      'contact-form-with-lifecycle [steps, submit tool submit_contact_info]: not started (starts at the next user input)',
    );
    expect(out).toContain(
      'contact-form-with-lifecycle [steps, submit tool submit_contact_info]: active, step COLLECT_NAME',
    );
    expect(out).toContain("goal: Collect the user's name");
    expect(out).toContain('step    contact-form-with-lifecycle: step COLLECT_EMAIL');
    expect(out).toContain('active, step COLLECT_EMAIL');
    expect(out).toContain('local: {"steps_completed":1}');
  });

  it('test and validate run the tutorial fixtures and tools', async () => {
    const t = await cliInProcess(['test', 'fixtures/syllable/workflows']);
    expect(t.stdout).toContain('8 passed');
    expect(t.status).toBe(0);
    const v = await cliInProcess(['validate', 'fixtures/syllable/workflows/ex06-retry.tools.json']);
    expect(v.status).toBe(0);
  });
});
