/**
 * A port already taken is a usage mistake the person can fix: serve, mcp --http and studio name
 * the address and the option to change, exit 2, and print no stack.
 */
import { createServer, type Server } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';

let taken: Server;
let port: number;
beforeAll(async () => {
  taken = createServer();
  await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
  const address = taken.address();
  port = typeof address === 'object' && address !== null ? address.port : 0;
});
afterAll(() => new Promise((r) => taken.close(r)));

async function run(argv: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = '';
  const code = await runCli(argv, {
    stdout: { write: () => true },
    stderr: { write: (t: string) => (stderr += t) },
    stdin: Readable.from([]),
    env: { NO_COLOR: '1', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' },
  });
  return { code, stderr };
}

describe('a port in use', () => {
  it('serve names the address and --port', async () => {
    const r = await run(['serve', 'fixtures/tools/weather.yaml', '--port', String(port)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `switchboard serve: 127.0.0.1:${port} is already in use (EADDRINUSE): choose another port with --port <n>, or --port 0 for a free one`,
    );
    expect(r.stderr).not.toContain('unexpected error');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('mcp --http names the address and --http', async () => {
    const r = await run(['mcp', 'fixtures/tools/weather.yaml', '--http', `127.0.0.1:${port}`]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `switchboard mcp: 127.0.0.1:${port} is already in use (EADDRINUSE): choose another port with --http 127.0.0.1:<n>`,
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('studio names the address and --port', async () => {
    const r = await run(['studio', 'fixtures/tools/weather.yaml', '--port', String(port)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `switchboard studio: 127.0.0.1:${port} is already in use (EADDRINUSE): choose another port with --port <n>, or --port 0 for a free one`,
    );
  });

  it('serve warns first about a service the tools name and --services misspells', async () => {
    const services =
      '{"clinc":{"auth":{"type":"bearer","token":"t"},"origins":["https://api.clinic.test"]}}';
    const r = await run([
      'serve',
      'fixtures/tools/clinic.json',
      '--services',
      services,
      '--port',
      String(port),
    ]);
    expect(r.stderr).toContain(
      'warning: service "clinic" (named by book_appointment, get_appointment, cancel_appointment) is not configured (did you mean `clinc`?); give it with --services',
    );
  });
});
