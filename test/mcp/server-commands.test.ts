/**
 * `switchboard mcp --commands`: command tools served over stdio run the program the host
 * registers (here the Synapse-style test CLI); without --commands the server refuses to start and
 * says which option registers them.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOnce } from '../cli/build.js';
import { textOf } from './server-helpers.js';

const SYNAPSE = resolve(__dirname, '../handlers/command/scripts/synapse.mjs');
let home: string;

beforeAll(() => {
  buildOnce();
  home = mkdtempSync(join(tmpdir(), 'sb-mcp-synapse-'));
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('switchboard mcp with command tools', () => {
  it('runs the registered program for each call, argv built from the arguments', async () => {
    const commands = JSON.stringify({
      synapse: { path: process.execPath, args: [SYNAPSE], env: { SYNAPSE_HOME: home } },
    });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['dist/cli/main.js', 'mcp', 'fixtures/tools/synapse.json', '--commands', commands],
      env: { PATH: process.env['PATH'] ?? '', NO_COLOR: '1' },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'conformance', version: '1.0.0' });
    await client.connect(transport);
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(['memory_search', 'memory_add']));
      const add = await client.callTool({
        name: 'memory_add',
        arguments: { text: 'likes window seats; --not-a-flag $(true)', tags: ['travel'] },
      });
      expect(add.isError).toBeFalsy();
      const found = await client.callTool({
        name: 'memory_search',
        arguments: { query: 'window' },
      });
      expect(found.isError).toBeFalsy();
      const notes = (JSON.parse(textOf(found)) as { notes: { text: string }[] }).notes;
      expect(notes.map((n) => n.text)).toEqual(['likes window seats; --not-a-flag $(true)']);
    } finally {
      await client.close();
    }
  });

  it('without --commands refuses to start and names the option', () => {
    const run = spawnSync(
      process.execPath,
      ['dist/cli/main.js', 'mcp', 'fixtures/tools/synapse.json'],
      { input: '', encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '', NO_COLOR: '1' } },
    );
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('runs command "synapse", which the host does not register');
    expect(run.stderr).toContain('--commands');
  });
});
