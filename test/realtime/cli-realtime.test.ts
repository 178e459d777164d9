/** `switchboard test --realtime` and `simulate --realtime`, in-process through `runCli`. */
import { describe, expect, it } from 'vitest';
import { cliInProcess } from '../cli/build.js';

describe('switchboard --realtime (in-process)', () => {
  it('test --realtime runs the fixtures over the Realtime transport', async () => {
    const r = await cliInProcess([
      'test',
      '--realtime',
      'fixtures/conversations/demo.yaml',
      'fixtures/conversations/hangup-ends-session.yaml',
    ]);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('fixtures: 2 passed, 0 failed');
    expect(r.status).toBe(0);
    const failing = await cliInProcess(['test', '--realtime', 'fixtures/failing/unused-step.yaml']);
    expect(failing.status).toBe(1);
  });

  it('simulate --realtime narrates the demo keylessly', async () => {
    const r = await cliInProcess(
      ['simulate', '--realtime', '--no-color', 'fixtures/conversations/demo.yaml'],
      {
        env: { OPENAI_API_KEY: '' },
      },
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('transport: Realtime');
    expect(r.stdout).toContain('say     “This call may be recorded for quality purposes.”');
    expect(r.stdout).toContain('✓ passed');
  });
});
