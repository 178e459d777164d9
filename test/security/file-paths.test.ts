/**
 * A security reviewer's file-path attacks (docs/reliability.md, "Incidents and attacks kept as
 * tests"). A fixture's `tools` naming a file outside the project (`../../…`, an absolute path, a
 * symbolic link out of the fixtures folder): read as the user's own files are (decision: a
 * fixture may name any readable tools file, as a tools path on the command line may), and what
 * is not a tools file is named, never shown. The studio's "save as fixture" over a symbolic link
 * already in the fixtures folder: it wrote wherever the link pointed; it now refuses a link out.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { humanReport, runFixture, summarize } from '../../src/testing.js';
import { startStudio, type Studio } from '../../src/studio/studio-server.js';
import type { StudioState } from '../../src/studio/protocol.js';

const SECRET = 'sk-live-7f3a9c2e5b';
let base: string;
let project: string;
let outside: string;

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'file-paths-'));
  project = join(base, 'project', 'fixtures');
  outside = join(base, 'outside');
  mkdirSync(project, { recursive: true });
  mkdirSync(outside);
  // What an attacker would like shown: a .env, a config holding a key, a JSON file cut short.
  writeFileSync(join(outside, 'secret.env'), `API_KEY=${SECRET}\nDB_PASSWORD=hunter2\n`);
  writeFileSync(join(outside, 'config.yaml'), `api_key: ${SECRET}\n`);
  writeFileSync(join(outside, 'broken.json'), `{"key": "${SECRET}", oops}`);
  writeFileSync(
    join(outside, 'tools.json'),
    JSON.stringify([
      {
        type: 'log',
        tool: { type: 'function', function: { name: 'note', description: 'd', parameters: {} } },
      },
    ]),
  );
  symlinkSync(join(outside, 'secret.env'), join(project, 'linked.env'));
  symlinkSync(join(outside, 'tools.json'), join(project, 'linked-tools.json'));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** Runs a fixture naming `tools`; its printed report. */
async function reportOf(tools: string): Promise<{ status: string; printed: string }> {
  const file = join(project, 'f.yaml');
  writeFileSync(
    file,
    `name: f\ntools: ${JSON.stringify(tools)}\nturns:\n  - user: hi\n    model: [{ text: ok }]\n`,
  );
  const result = await runFixture(file);
  return { status: result.status, printed: humanReport(summarize([result], 1)) };
}

describe("a fixture's tools naming a file outside the project", () => {
  it.each([
    [
      '../../outside/secret.env (..)',
      '../../outside/secret.env',
      /expected a list of tool definitions/,
    ],
    ['an absolute path', 'ABS/config.yaml', /expected a list of tool definitions/],
    [
      'a symbolic link out of the fixtures folder',
      'linked.env',
      /expected a list of tool definitions/,
    ],
    ['a JSON file cut short', '../../outside/broken.json', /invalid JSON at line 1, column \d+/],
  ])('%s: unusable, the file named, its content never shown', async (_, tools, message) => {
    const { status, printed } = await reportOf(tools.replace('ABS', outside));
    expect(status).toBe('error');
    expect(printed).toMatch(message);
    expect(printed).not.toContain(SECRET);
    expect(printed).not.toContain('hunter2');
  });

  it('reads a real tools file there (the decision: it is the user’s own file)', async () => {
    expect((await reportOf('linked-tools.json')).status).toBe('passed');
    expect((await reportOf(relative(project, join(outside, 'tools.json')))).status).toBe('passed');
  });
});

describe('the studio saving a fixture over a symbolic link', () => {
  let studio: Studio;
  let origin: string;
  const post = async (path: string, body: unknown): Promise<{ status: number; json: unknown }> => {
    const res = await fetch(`${origin}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, json: await res.json() };
  };
  const state = async (): Promise<StudioState> =>
    (await (await fetch(`${origin}/api/state`)).json()) as StudioState;
  async function until(done: (s: StudioState) => boolean): Promise<void> {
    while (!done(await state())) await new Promise((r) => setTimeout(r, 5));
  }

  beforeAll(async () => {
    const folder = join(base, 'studio-fixtures');
    mkdirSync(join(folder, 'ui'), { recursive: true });
    writeFileSync(join(folder, 'ui', 'index.html'), '<!doctype html><title>studio</title>');
    writeFileSync(join(outside, '.bashrc'), 'export PATH=/usr/bin\n');
    symlinkSync(join(outside, '.bashrc'), join(folder, 'planted.yaml'));
    symlinkSync(join(outside, 'not-yet'), join(folder, 'dangling.yaml'));
    writeFileSync(join(folder, 'v1.yaml'), '');
    symlinkSync('v1.yaml', join(folder, 'latest.yaml'));
    const toolsFile = resolve('test/studio/e2e/tools.json');
    studio = await startStudio({
      tools: await loadTools(toolsFile, { file: toolsFile }),
      toolsFile,
      model: 'manual',
      fixturesDir: folder,
      assetsDir: join(folder, 'ui'),
    });
    origin = new URL(studio.url).origin;
    await post('/api/say', { text: 'hi' });
    await until((s) => s.awaitingModel);
    await post('/api/model', { type: 'reply', text: 'hello' });
    await until((s) => !s.busy);
  });
  afterAll(() => studio?.close());

  it('refuses a link leading out of the fixtures folder, and leaves its target alone', async () => {
    const answer = await post('/api/save', { name: 'planted' });
    expect(answer.status).toBe(409);
    expect(answer.json).toMatchObject({
      error: {
        code: 'outside_fixtures',
        message: expect.stringContaining('is a symbolic link leading outside the fixtures folder'),
      },
    });
    expect(readFileSync(join(outside, '.bashrc'), 'utf8')).toBe('export PATH=/usr/bin\n');
  });

  it('refuses a dangling link (writing would create its target), creating nothing', async () => {
    const answer = await post('/api/save', { name: 'dangling' });
    expect(answer.json).toMatchObject({ error: { code: 'outside_fixtures' } });
    expect(existsSync(join(outside, 'not-yet'))).toBe(false);
  });

  it('writes through a link that stays inside the folder', async () => {
    expect((await post('/api/save', { name: 'latest' })).status).toBe(200);
    expect(readFileSync(join(base, 'studio-fixtures', 'v1.yaml'), 'utf8')).toContain('hello');
  });
});
