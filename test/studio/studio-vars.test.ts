/**
 * `switchboard studio --vars`: the conversation starts with the host's variables (inline JSON or a
 * JSON/YAML file, read by the same loader as repl and serve), a new conversation starts with them
 * again, and a saved fixture carries them, so it replays as it was played.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readVars } from '../../src/cli/commands/repl.js';
import { UsageError } from '../../src/cli/io.js';
import { loadTools } from '../../src/definition/load.js';
import { runFixture } from '../../src/harness/run-fixture.js';
import { ScriptedModel } from '../../src/models/scripted.js';
import { StudioSession } from '../../src/studio/studio-session.js';

const TOOLS = resolve('test/studio/e2e/tools.json');
const dir = mkdtempSync(join(tmpdir(), 'studio-vars-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('studio --vars', () => {
  it('reads inline JSON or a JSON/YAML file, and names a value that is not an object', async () => {
    writeFileSync(join(dir, 'vars.yaml'), 'patient:\n  name: Ada\nclinic: Queens\n');
    expect(await readVars(join(dir, 'vars.yaml'))).toEqual({
      patient: { name: 'Ada' },
      clinic: 'Queens',
    });
    expect(await readVars('{"clinic":"Bronx"}')).toEqual({ clinic: 'Bronx' });
    expect(await readVars(undefined)).toEqual({});
    await expect(readVars('[1]')).rejects.toThrow(UsageError);
    await expect(readVars('[1]')).rejects.toThrow(/--vars must be a JSON object, got a list/);
    await expect(readVars(join(dir, 'missing.yaml'))).rejects.toThrow(/--vars: .*missing\.yaml/);
  });

  it('starts the conversation (and a new one) with them, and saves them in the fixture', async () => {
    const vars = { patient: { name: 'Ada' }, clinic: 'Queens' };
    const session = new StudioSession({
      tools: await loadTools(TOOLS, { file: TOOLS }),
      toolsFile: TOOLS,
      model: new ScriptedModel([{ text: 'Hello Ada.' }]),
      vars,
      fixturesDir: dir,
      onChange: () => undefined,
    });
    try {
      expect(session.state().vars).toEqual(vars);
      session.send('hi');
      for (let i = 0; i < 1000 && session.state().busy; i++)
        await new Promise((r) => setImmediate(r));
      expect(session.state().busy).toBe(false);
      const file = await session.save('with-vars');
      expect(readFileSync(file, 'utf8')).toMatch(/clinic: Queens/);
      const replay = await runFixture(file);
      expect(replay.failures).toEqual([]);
      expect(replay.status).toBe('passed');
      await session.reset();
      expect(session.state().vars).toEqual(vars);
    } finally {
      await session.close();
    }
  });

  it('--system-values: the session reads them and the saved fixture carries them', async () => {
    const session = new StudioSession({
      tools: await loadTools(TOOLS, { file: TOOLS }),
      toolsFile: TOOLS,
      model: new ScriptedModel([{ text: 'Hello.' }]),
      systemValues: { source: '+15551234', timezone: 'Europe/Paris' },
      fixturesDir: dir,
      onChange: () => undefined,
    });
    try {
      session.send('hi');
      for (let i = 0; i < 1000 && session.state().busy; i++)
        await new Promise((r) => setImmediate(r));
      const file = await session.save('with-system-values');
      expect(readFileSync(file, 'utf8')).toMatch(
        /system_values:\n\s+source: "\+15551234"\n\s+timezone: Europe\/Paris/,
      );
      const replay = await runFixture(file);
      expect(replay.status).toBe('passed');
    } finally {
      await session.close();
    }
  });
});
