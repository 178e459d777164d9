import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { buildOnce } from './build.js';

describe('a reader that closes the pipe early (`| head`)', () => {
  it('ends the binary quietly: no EPIPE crash, no stack trace', async () => {
    buildOnce();
    const child = spawn(
      process.execPath,
      ['dist/cli/main.js', 'simulate', 'fixtures/conversations/demo.yaml'],
      { env: { PATH: process.env['PATH'] ?? '', NO_COLOR: '1' } },
    );
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    // Read the first chunk, then close our end, as `head -1` does.
    child.stdout.once('data', () => child.stdout.destroy());
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).not.toMatch(/EPIPE|Unhandled 'error' event|at /);
    expect(status).toBe(0);
  });
});
