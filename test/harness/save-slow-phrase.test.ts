// A live turn whose lookup was slow enough for its `if_slow` pre-tool phrase ("One moment…"),
// saved as the REPL's `/save` and the studio save it: the replay answers at once, so the phrase
// is timing, like a bridge phrase, and is left out of `say`; an `always` phrase is kept.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { RecordingModel } from '../../src/harness/recording-model.js';
import { runFixture } from '../../src/harness/run-fixture.js';
import { recordTurn, saveFixture, type EndedTurn } from '../../src/harness/session-recording.js';
import { createSession } from '../../src/session/create-session.js';
import { ScriptedModel } from '../../src/testing.js';

const action = (name: string, mode: 'always' | 'if_slow', phrase: string): unknown => ({
  type: 'action',
  tool: { type: 'function', function: { name, parameters: { type: 'object' } } },
  result: { ok: true },
  options: {
    speech: { after_speech: false, before: { mode, delay_ms: 50, phrases: { '*': phrase } } },
  },
});

describe('saving a turn with a slow call', () => {
  it('leaves the if_slow phrase out of say, keeps the always one, and the fixture replays', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sb-save-slow-'));
    const toolsFile = join(dir, 'tools.json');
    await writeFile(
      toolsFile,
      JSON.stringify([
        action('lookup', 'if_slow', 'One moment while I check.'),
        action('transfer', 'always', 'Let me transfer you.'),
      ]),
    );
    const tools = await loadTools(toolsFile);
    const model = new RecordingModel(
      new ScriptedModel([
        { tool_calls: [{ name: 'lookup', args: {} }] },
        { tool_calls: [{ name: 'transfer', args: {} }] },
        { text: 'Transferring.' },
      ]),
    );
    // The lookup answers only once its "slow" phrase was spoken: no race with the clock.
    let phraseSpoken: () => void = () => {};
    const spoken = new Promise<void>((r) => (phraseSpoken = r));
    const session = createSession({
      tools,
      model,
      id: 'repl',
      actions: {
        lookup: async () => {
          await spoken;
          return { ok: true };
        },
        transfer: () => ({ ok: true }),
      },
      onEvent: (e) => {
        if (e.type === 'say' && e.source === 'pre-tool' && e.tool === 'lookup') phraseSpoken();
      },
    });
    const stream = session.send('extension 204, then transfer me');
    const says: string[] = [];
    for await (const e of stream) if (e.type === 'say') says.push(e.text);
    expect(says).toEqual(['One moment while I check.', 'Let me transfer you.']);
    const ended: EndedTurn = {
      user: 'extension 204, then transfer me',
      steps: model.steps.slice(),
      exchanges: [],
      runs: [],
      result: await stream.result,
      modelError: undefined,
      state: session.toJSON(),
      spoken: [],
      before: undefined,
    };
    await session.close();
    const file = join(dir, 'saved.yaml');
    const saved = await saveFixture({
      file,
      tools,
      toolsFile,
      sessionId: 'repl',
      startedAt: new Date('2026-11-27T06:00:00Z'),
      language: 'en-US',
      languages: undefined,
      vars: {},
      services: undefined,
      speechAck: undefined,
      actions: undefined,
      turns: [recordTurn(ended)],
      exchanges: [],
      commandRuns: [],
    });
    expect(saved.ok).toBe(true);
    const text = await readFile(file, 'utf8');
    expect(text).toContain('say:\n        - Let me transfer you.\n');
    expect(text).not.toContain('One moment while I check.');
    const replay = await runFixture(file);
    expect(replay.failures).toEqual([]);
    expect(replay.status).toBe('passed');
  });
});
