/**
 * `switchboard mcp` as an MCP client starts it: the real binary over stdio, driven by the official
 * SDK's `Client` and `StdioClientTransport`. Each kind of tool, errors, cancellation, the start
 * message about action tools.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildOnce, cliInProcess, startInProcess } from '../cli/build.js';
import { startLoopbackApi, textOf, writeToolFiles, type LoopbackApi } from './server-helpers.js';

const PACKAGE_VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;
let api: LoopbackApi;
let files: { tools: string; actions: string };
const open: Client[] = [];

beforeAll(async () => {
  buildOnce();
  api = await startLoopbackApi();
  files = writeToolFiles(api.base);
});
afterAll(() => api.close());
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
});

async function start(
  args: readonly string[],
  allowPrivate = true,
): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [
      'dist/cli/main.js',
      'mcp',
      files.tools,
      ...(allowPrivate ? ['--allow-private-networks'] : []),
      ...args,
    ],
    env: { PATH: process.env['PATH'] ?? '', NO_COLOR: '1' },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const client = new Client({ name: 'conformance', version: '1.0.0' });
  await client.connect(transport);
  open.push(client);
  return { client, stderr: () => stderr };
}

describe('switchboard mcp over stdio (SDK Client)', () => {
  it('serves every kind of tool with --actions', async () => {
    const { client } = await start(['--actions', files.actions]);
    // What the MCP Inspector shows under the server's name: switchboard's version, not 0.0.0.
    expect(client.getServerVersion()).toEqual({ name: 'switchboard', version: PACKAGE_VERSION });
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('transfer');
    const before = api.seen.length;
    const weather = await client.callTool({ name: 'get_weather', arguments: { city: 'Oslo' } });
    expect(JSON.parse(textOf(weather))).toEqual({ summary: 'sunny', temp: 21 });
    expect(api.seen[before]!.url).toBe('/weather?city=Oslo&units=metric');
    const action = await client.callTool({ name: 'transfer', arguments: { to: 'desk' } });
    expect(JSON.parse(textOf(action))).toEqual({ transferred: 'desk' });
    const context = await client.callTool({
      name: 'set_language',
      arguments: { language: 'fr-FR', message: "D'accord." },
    });
    expect(textOf(context, 0)).toContain('fr-FR');
    expect(textOf(context, 1)).toBe("D'accord.");
    const log = await client.callTool({ name: 'note', arguments: { reason: 'question' } });
    expect(log.isError).toBeFalsy();
    const bad = await client.callTool({ name: 'get_weather', arguments: {} });
    expect(bad.isError).toBe(true);
    expect(JSON.parse(textOf(bad)).error.code).toBe('invalid_arguments');
  });

  it('without --actions leaves action tools out and says so on stderr', async () => {
    const { client, stderr } = await start([]);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).not.toContain('transfer');
    expect(names).toContain('note');
    expect(stderr()).toContain('action tools not served');
    expect(stderr()).toContain('transfer');
  });

  it('without --allow-private-networks an endpoint tool cannot reach a loopback address', async () => {
    const { client } = await start([], false);
    const before = api.seen.length;
    const r = await client.callTool({ name: 'get_weather', arguments: { city: 'Oslo' } });
    expect(r.isError).toBe(true);
    expect(api.seen.length).toBe(before);
  });

  it('cancellation stops the running call', async () => {
    const { client } = await start([]);
    const controller = new AbortController();
    const call = client.callTool({ name: 'slow_lookup', arguments: {} }, undefined, {
      signal: controller.signal,
    });
    await api.slowArrived();
    controller.abort('stop');
    await expect(call).rejects.toThrow();
    await api.slowAborted();
    const next = await client.callTool({ name: 'note', arguments: { reason: 'after' } });
    expect(next.isError).toBeFalsy();
  });
});

describe('switchboard mcp --http', () => {
  it('listens on loopback and serves the SDK Client', async () => {
    // In-process: what only a process shows (stdio, its exit) is covered above.
    const run = startInProcess(['mcp', files.tools, '--http', '127.0.0.1:0']);
    try {
      const url = (await run.waitFor(/listening on (\S+)/))[1] ?? '';
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      const client = new Client({ name: 'conformance', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      open.push(client);
      const r = await client.callTool({ name: 'note', arguments: { reason: 'over http' } });
      expect(r.isError).toBeFalsy();
    } finally {
      for (const c of open.splice(0)) await c.close();
      expect(await run.stop()).toBe(0);
    }
  });

  it('refuses a non-loopback bind without a token', async () => {
    const r = await cliInProcess(['mcp', files.tools, '--http', '0.0.0.0:0']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('needs a bearer token (--token)');
  });

  it('refuses an --actions module with both a default object and named exports', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-actions-'));
    const module = join(dir, 'mixed.mjs');
    writeFileSync(
      module,
      'export function transfer() { return {}; }\nexport default { hangup: () => ({}) };\n',
    );
    try {
      const r = await cliInProcess(['mcp', files.tools, '--actions', module]);
      expect(r.status).toBe(2);
      expect(r.stderr).toContain(
        `--actions: ${module} has a default export object and named exports (transfer)`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses --token without --http and a malformed --http', async () => {
    expect((await cliInProcess(['mcp', files.tools, '--token', 't'])).stderr).toContain(
      '--http only',
    );
    expect((await cliInProcess(['mcp', files.tools, '--http', 'nowhere'])).stderr).toContain(
      'HOST:PORT',
    );
    // A port past 65535 is the user's typo, named as such (not a failure to listen).
    const port = await cliInProcess(['mcp', files.tools, '--http', '127.0.0.1:70000']);
    expect(port.stderr).toContain('--http must be HOST:PORT');
  });
});
