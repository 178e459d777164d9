/**
 * `switchboard studio --speech-ack host`, as the REPL's: the page is the host's player. A
 * speak-then-act call (hangup) waits until the page marks the farewell spoken; the saved fixture
 * carries `speech_ack: host` and the `spoken` point, and replays.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { runFixture } from '../../src/harness/run-fixture.js';
import { ScriptedModel } from '../../src/models/scripted.js';
import { StudioSession } from '../../src/studio/studio-session.js';

const dir = mkdtempSync(join(tmpdir(), 'studio-speech-'));
const TOOLS = join(dir, 'tools.json');
writeFileSync(
  TOOLS,
  JSON.stringify([
    {
      type: 'action',
      tool: {
        type: 'function',
        function: { name: 'hangup', parameters: { type: 'object', properties: {} } },
      },
      result: { status: 'ended' },
    },
  ]),
);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function studio(speechAck: 'host' | 'auto' | undefined) {
  return new StudioSession({
    tools: await loadTools(TOOLS, { file: TOOLS }),
    toolsFile: TOOLS,
    model: new ScriptedModel([
      { text: 'Goodbye!', tool_calls: [{ name: 'hangup', args: {} }] },
      { text: 'Line closed.' },
    ]),
    ...(speechAck === undefined ? {} : { speechAck }),
    fixturesDir: dir,
    onChange: () => undefined,
  });
}

/** Lets the turn run until `done` (no clock: event-loop turns only). */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 2000 && !done(); i++) await new Promise((r) => setImmediate(r));
  expect(done()).toBe(true);
}

describe('studio --speech-ack host', () => {
  it('a speak-then-act call waits for "mark spoken"; the fixture saves the spoken point and replays', async () => {
    const s = await studio('host');
    try {
      expect(s.state().speechAck).toBe('host');
      s.send('bye');
      await until(() => s.state().turns[0]?.items.some((i) => i.kind === 'tool') === true);
      // Many loop turns later, hangup still waits for playback.
      for (let i = 0; i < 50; i++) await new Promise((r) => setImmediate(r));
      expect(s.state().busy).toBe(true);
      // The page shows the farewell waiting for playback and the hang-up held by it.
      const item = (kind: string) => s.state().turns[0]?.items.find((i) => i.kind === kind);
      expect(item('reply')).toMatchObject({ label: 'Goodbye!', playback: 'waiting' });
      expect(item('tool')).toMatchObject({ label: 'hangup', heldBySpeech: true });
      expect(() => s.spoken('no-such-id')).toThrow(/no utterance waits for playback/);
      s.spoken(undefined);
      await until(() => !s.state().busy);
      // "Mark spoken" acknowledges each utterance, so the timeline shows it played.
      expect(item('reply')?.playback).toBe('played');
      expect(item('tool')?.heldBySpeech).toBeUndefined();
      expect(s.state().ended).toBe(false);
      const file = await s.save('speech-host');
      const text = readFileSync(file, 'utf8');
      expect(text.split('\n')[0]).toBe('# Recorded by `switchboard studio`.');
      expect(text).toMatch(/speech_ack: host/);
      expect(text).toMatch(/spoken:/);
      const replay = await runFixture(file);
      expect(replay.failures).toEqual([]);
      expect(replay.status).toBe('passed');
    } finally {
      await s.close();
    }
  });

  it('without it, speech counts as played when emitted and "mark spoken" is refused', async () => {
    const s = await studio(undefined);
    try {
      expect(s.state().speechAck).toBe('auto');
      s.send('bye');
      await until(() => !s.state().busy);
      expect(() => s.spoken(undefined)).toThrow(/--speech-ack host/);
    } finally {
      await s.close();
    }
  });
});
