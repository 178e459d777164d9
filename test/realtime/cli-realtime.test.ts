/** `switchboard test --realtime` and `simulate --realtime` through the built binary. */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildOnce, cli } from '../cli/build.js';

beforeAll(() => buildOnce(), 120_000);

describe('switchboard --realtime (built binary)', () => {
  it('test --realtime runs the fixtures over the Realtime transport', () => {
    const r = cli([
      'test',
      '--realtime',
      'fixtures/conversations/demo.yaml',
      'fixtures/conversations/hangup-ends-session.yaml',
    ]);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('fixtures: 2 passed, 0 failed');
    expect(r.status).toBe(0);
    const failing = cli(['test', '--realtime', 'fixtures/failing/unused-step.yaml']);
    expect(failing.status).toBe(1);
  });

  it('simulate --realtime narrates the demo keylessly', () => {
    const r = cli(['simulate', '--realtime', '--no-color', 'fixtures/conversations/demo.yaml'], {
      env: { OPENAI_API_KEY: '' },
    });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('transport: Realtime');
    expect(r.stdout).toContain('say     “This call may be recorded for quality purposes.”');
    expect(r.stdout).toContain('✓ passed');
  });
});
