/**
 * Command tools in the studio: the program the host registers (`--commands`) runs for a call the
 * page makes, the run is drawn on the timeline, and a saved fixture replays it offline (its
 * command double) and passes.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { runFixture } from '../../src/harness/run-fixture.js';
import type { StudioState } from '../../src/studio/protocol.js';
import { startStudio, type Studio } from '../../src/studio/studio-server.js';

const TOOLS = resolve('fixtures/tools/synapse.json');
const SYNAPSE = resolve('test/handlers/command/scripts/synapse.mjs');
let dir: string;
let studio: Studio;
let base: string;

async function call(path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${base}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return res.json();
}

async function stateWhen(done: (s: StudioState) => boolean): Promise<StudioState> {
  for (let i = 0; i < 2000; i++) {
    const s = (await call('/api/state')) as StudioState;
    if (done(s)) return s;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error('the state never got there');
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'studio-commands-'));
  mkdirSync(join(dir, 'ui'));
  mkdirSync(join(dir, 'home'));
  writeFileSync(join(dir, 'ui', 'index.html'), '<!doctype html><title>studio</title>');
  studio = await startStudio({
    tools: await loadTools(TOOLS, { file: TOOLS }),
    toolsFile: TOOLS,
    model: 'manual',
    commands: {
      synapse: {
        path: process.execPath,
        args: [SYNAPSE],
        env: { SYNAPSE_HOME: join(dir, 'home') },
      },
    },
    fixturesDir: dir,
    assetsDir: join(dir, 'ui'),
  });
  base = studio.url.replace(/\/$/, '');
});

afterAll(async () => {
  await studio?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('command tools in the studio', () => {
  it('runs the registered program, draws the run, and saves a fixture that replays it', async () => {
    await call('/api/say', { text: 'Remember that I like window seats' });
    await stateWhen((s) => s.awaitingModel);
    await call('/api/model', {
      type: 'call',
      name: 'memory_add',
      arguments: '{"text":"likes window seats","tags":["travel"]}',
    });
    await stateWhen((s) => s.awaitingModel && s.turns[0]!.items.some((i) => i.kind === 'command'));
    await call('/api/model', { type: 'reply', text: 'Noted.' });
    const state = await stateWhen((s) => !s.busy);
    const command = state.turns[0]!.items.find((i) => i.kind === 'command')!;
    expect(command.label).toContain('$ synapse memory add');
    expect(command.label).toContain('likes window seats');
    const tool = state.turns[0]!.items.find((i) => i.kind === 'tool')!;
    expect(JSON.stringify(tool.detail)).not.toContain('command_failed');

    const saved = (await call('/api/save', { name: 'remembered' })) as { file: string };
    expect(readFileSync(saved.file, 'utf8')).toContain('commands:');
    const replay = await runFixture(saved.file);
    expect(replay.failures).toEqual([]);
    expect(replay.status).toBe('passed');
  });
});
