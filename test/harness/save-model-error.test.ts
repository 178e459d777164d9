// A live turn whose model call failed (a 500 from the team's own server), saved as the REPL's
// `/save` and the studio save it: the fixture scripts the failure, so it replays and passes.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { RecordingModel } from '../../src/harness/recording-model.js';
import { runFixture } from '../../src/harness/run-fixture.js';
import { recordTurn, saveFixture, type EndedTurn } from '../../src/harness/session-recording.js';
import { ModelError } from '../../src/models/errors.js';
import type { Model, ModelStreamPart } from '../../src/models/types.js';
import { createSession } from '../../src/session/create-session.js';

const KEY = 'sk-live-5e6f7a8b9c0d';

/** Answers the first call with text, fails the second with the key in the server's message. */
function liveModel(): Model {
  let calls = 0;
  return {
    name: 'live',
    credentials: () => [KEY],
    async *stream(): AsyncGenerator<ModelStreamPart> {
      calls++;
      if (calls === 2)
        throw new ModelError({
          code: 'http_status',
          status: 500,
          model: 'live',
          message: `model live answered HTTP 500: boom for key ${KEY}`,
        });
      yield { type: 'text-delta', text: 'Hello.' };
      yield { type: 'finish' };
    },
  };
}

describe('saving a turn whose model call failed', () => {
  it('scripts the failure (scrubbed), and the saved fixture replays and passes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sb-save-error-'));
    const toolsFile = join(dir, 'tools.json');
    await writeFile(toolsFile, '[]');
    const tools = await loadTools(toolsFile);
    const model = new RecordingModel(liveModel());
    const session = createSession({ tools, model, id: 'repl' });
    const turns = [];
    for (const user of ['hi', 'again']) {
      const before = model.steps.length;
      let modelError: string | undefined;
      const stream = session.send(user);
      for await (const e of stream) if (e.type === 'model-error') modelError = e.message;
      const result = await stream.result.catch(() => undefined);
      const ended: EndedTurn = {
        user,
        steps: model.steps.slice(before),
        exchanges: [],
        runs: [],
        result,
        modelError,
        state: session.toJSON(),
        spoken: [],
        before: undefined,
      };
      turns.push(recordTurn(ended));
    }
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
      turns,
      exchanges: [],
      commandRuns: [],
    });
    expect(saved.ok).toBe(true);
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain(KEY);
    expect(text).toContain('- error: "model live answered HTTP 500: boom for key [redacted]"');
    const replay = await runFixture(file);
    expect(replay.failures).toEqual([]);
    expect(replay.status).toBe('passed');
  });
});
