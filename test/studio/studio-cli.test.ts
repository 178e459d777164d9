/**
 * `switchboard studio` as a user starts it: help and usage mistakes (in-process through `runCli`),
 * and a clean stop on SIGTERM (the built binary: only a process shows it).
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { buildOnce, cliInProcess, startInProcess } from '../cli/build.js';

describe('switchboard studio (the command)', () => {
  buildOnce();

  it('is listed, and has help', async () => {
    expect((await cliInProcess(['--help'])).stdout).toMatch(/studio\s+a local web app/);
    const help = await cliInProcess(['studio', '--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('--fixtures <dir>');
    expect(help.stdout).toContain('127.0.0.1');
  });

  it('exits 2 naming the mistake', async () => {
    const port = await cliInProcess(['studio', '--port', 'eighty']);
    expect(port.status).toBe(2);
    expect(port.stderr).toContain('--port must be an integer 0-65535, got "eighty"');
    expect((await cliInProcess(['studio', '--model', 'gpt'])).stderr).toContain(
      '--model must be manual or openai',
    );
    const openai = await cliInProcess(['studio', '--model', 'openai']);
    expect(openai.status).toBe(2);
    expect(openai.stderr).toContain('needs OPENAI_API_KEY or OPENAI_BASE_URL');
    const missing = await cliInProcess(['studio', 'no-such-tools.json']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('no-such-tools.json');
    const empty = await cliInProcess(['studio', '--token', ' ']);
    expect(empty.status).toBe(2);
    expect(empty.stderr).toContain('--token must not be empty');
  });

  it('a blank SWITCHBOARD_STUDIO_TOKEN counts as unset: on loopback it starts without a token', async () => {
    const run = startInProcess(['studio', 'test/studio/e2e/tools.json', '--port', '0'], {
      env: { SWITCHBOARD_STUDIO_TOKEN: '  ' },
    });
    const url = await Promise.race([run.waitFor(/open (\S+)/), run.exit]).then((m) =>
      typeof m === 'number' ? `exited ${m}` : (m[1] ?? ''),
    );
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(await run.stop()).toBe(0);
  });

  it('prints its address, and stops cleanly on SIGTERM', async () => {
    const child = spawn(
      process.execPath,
      ['dist/cli/main.js', 'studio', 'test/studio/e2e/tools.json', '--port', '0'],
      { env: { PATH: process.env['PATH'] ?? '' } },
    );
    let out = '';
    await new Promise<void>((ok) =>
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        if (out.includes('\n')) ok();
      }),
    );
    expect(out).toMatch(/^switchboard studio: open http:\/\/127\.0\.0\.1:\d+\/\n$/);
    const code = new Promise((ok) => child.on('exit', (c, s) => ok(c ?? s)));
    child.kill('SIGTERM');
    expect(await code).toBe(0);
  });
});
