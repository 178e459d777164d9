/**
 * The studio's conversation object on its own (no server, no browser): what the page may do and
 * when (between turns only), the language it starts and switches to, and what "save as fixture"
 * keeps of those switches. The turn runs on the event loop; `until` waits for it without a clock.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadTools } from '../../src/definition/load.js';
import { runFixture } from '../../src/harness/run-fixture.js';
import type { Model } from '../../src/models/types.js';
import { StudioSession, type StudioSessionOptions } from '../../src/studio/studio-session.js';

const TOOLS = resolve('test/studio/e2e/tools.json');
const dir = mkdtempSync(join(tmpdir(), 'studio-session-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const tools = await loadTools(TOOLS, { file: TOOLS });

function studio(options: Partial<StudioSessionOptions> = {}): StudioSession {
  return new StudioSession({
    tools,
    toolsFile: TOOLS,
    model: 'manual',
    fixturesDir: dir,
    onChange: () => undefined,
    ...options,
  });
}

/** Lets the turn run until `done` (event-loop turns only, no clock). */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 2000 && !done(); i++) await new Promise((r) => setImmediate(r));
  expect(done()).toBe(true);
}

/** One manual turn: the caller says `user`, the page answers `reply` as the model. */
async function turn(s: StudioSession, user: string, reply: string): Promise<void> {
  s.send(user);
  await until(() => s.state().awaitingModel);
  s.modelStep({ type: 'reply', text: reply });
  await until(() => !s.state().busy);
}

/**
 * The status and code of the StudioProblem `act` throws, or rejects with at once; `accepted` when
 * it is not refused within one event-loop turn (an accepted change may wait on the running turn).
 */
async function problemOf(act: () => unknown): Promise<unknown> {
  const refused = (error: unknown) => ({
    status: (error as { status?: number }).status,
    code: (error as { code?: string }).code,
  });
  let outcome: Promise<unknown>;
  try {
    outcome = Promise.resolve(act()).then(() => 'accepted', refused);
  } catch (error) {
    return refused(error);
  }
  return Promise.race([outcome, new Promise((r) => setImmediate(() => r('accepted')))]);
}

describe('StudioSession: what the page may change, and when', () => {
  it('refuses a language, action answers or a second line while a turn runs, and a blank line', async () => {
    const s = studio({ languages: ['en-US', 'es-US'] });
    try {
      expect(await problemOf(() => s.send('   '))).toEqual({ status: 400, code: 'empty_line' });
      s.send('hello');
      await until(() => s.state().awaitingModel);
      const running = { status: 409, code: 'turn_running' };
      expect(await problemOf(() => s.send('again'))).toEqual(running);
      expect(await problemOf(() => s.setLanguage('es-US'))).toEqual(running);
      expect(await problemOf(() => s.setActions(new Map([['end_call', {}]])))).toEqual(running);
      expect(await problemOf(() => s.setHttp('double', []))).toEqual(running);
      expect(await problemOf(() => s.reset())).toEqual(running);
      // Nothing the refusals touched changed the turn: it ends as the page answers.
      expect(s.state().language).toBe('en-US');
      s.modelStep({ type: 'reply', text: 'Hi!' });
      await until(() => !s.state().busy);
      expect(s.state().turns).toHaveLength(1);
      // One move per model call: a second move has no call to answer.
      expect(await problemOf(() => s.modelStep({ type: 'reply', text: 'twice' }))).toEqual({
        status: 409,
        code: 'not_awaiting_model',
      });
    } finally {
      await s.close();
    }
  });

  it('refuses a line after the session ended', async () => {
    const s = studio();
    try {
      s.setActions(new Map([['end_call', { end_session: true }]]));
      s.send('bye');
      await until(() => s.state().awaitingModel);
      s.modelStep({ type: 'call', name: 'end_call', arguments: '{}' });
      // That move answered the model's call: a second one, before it asks again, has none.
      expect(await problemOf(() => s.modelStep({ type: 'reply', text: 'twice' }))).toEqual({
        status: 409,
        code: 'not_awaiting_model',
      });
      await until(() => s.state().awaitingModel || !s.state().busy);
      if (s.state().awaitingModel) s.modelStep({ type: 'reply', text: 'Goodbye.' });
      await until(() => !s.state().busy);
      expect(s.state().ended).toBe(true);
      expect(await problemOf(() => s.send('hello?'))).toEqual({
        status: 409,
        code: 'session_ended',
      });
    } finally {
      await s.close();
    }
  });

  it('answers endpoint calls from the double only in double mode', async () => {
    const s = studio();
    try {
      const exchanges = [
        { method: 'GET', url: 'https://api.clinic.test/v1/x', status: 200, body: '{}' },
      ];
      await s.setHttp('double', exchanges);
      expect(s.state()).toMatchObject({ http: 'double', double: exchanges });
      await s.setHttp('real', exchanges);
      expect(s.state()).toMatchObject({ http: 'real', double: exchanges });
    } finally {
      await s.close();
    }
  });
});

describe('StudioSession: the language', () => {
  it('takes an allowed language in any case, as the page or --languages spells it', async () => {
    // --languages is kept as typed; the page sends a canonical tag.
    const s = studio({ language: 'en-us', languages: ['en-us', 'es-us'] });
    try {
      await s.setLanguage('es-US');
      expect(s.state().language).toBe('es-US');
      expect(await problemOf(() => s.setLanguage('fr-FR'))).toEqual({
        status: 400,
        code: 'bad_language',
      });
    } finally {
      await s.close();
    }
  });

  it('a switch before the first turn is the starting language; a new conversation starts with the original one', async () => {
    const s = studio({ language: 'en-US', languages: ['en-US', 'es-US'] });
    try {
      await s.setLanguage('es-US');
      await turn(s, 'Hola', '¡Hola!');
      const saved = parse(readFileSync(await s.save('start-es'), 'utf8')) as {
        session: { language: string };
        turns: Record<string, unknown>[];
      };
      expect(saved.session.language).toBe('es-US');
      expect(saved.turns[0]).not.toHaveProperty('before');
      await s.reset();
      expect(s.state().language).toBe('en-US');
      await turn(s, 'Hello', 'Hi!');
      const fresh = parse(readFileSync(await s.save('start-en'), 'utf8')) as {
        session: { language: string };
      };
      expect(fresh.session.language).toBe('en-US');
    } finally {
      await s.close();
    }
  });

  it('a switch between turns is saved before the next turn only, and the fixture replays', async () => {
    const s = studio({ languages: ['en-US', 'es-US'] });
    try {
      await turn(s, 'Hello', 'Hi!');
      await s.setLanguage('es-US');
      await turn(s, 'Hola', '¡Hola!');
      await turn(s, 'Gracias', 'De nada.');
      const file = await s.save('switch-once');
      const saved = parse(readFileSync(file, 'utf8')) as { turns: Record<string, unknown>[] };
      expect(saved.turns.map((t) => t['before'])).toEqual([
        undefined,
        { language: 'es-US' },
        undefined,
      ]);
      const replay = await runFixture(file);
      expect(replay.failures).toEqual([]);
    } finally {
      await s.close();
    }
  });
});

describe('StudioSession: a turn that fails', () => {
  it("shows an error the session threw as the turn's own error; a model error only as its event", async () => {
    const failing = (message: string): Model => ({
      name: 'failing',
      stream: () => ({
        async *[Symbol.asyncIterator]() {
          throw new Error(message);
        },
      }),
    });
    const s = studio({ model: failing('provider down') });
    try {
      s.send('hi');
      await until(() => !s.state().busy);
      const items = s.state().turns[0]?.items ?? [];
      expect(items.filter((i) => i.kind === 'error' && i.id === 'turn-error')).toEqual([]);
      expect(items.some((i) => /provider down/.test(i.label))).toBe(true);
    } finally {
      await s.close();
    }
  });
});

describe('StudioSession: "mark spoken" (--speech-ack host)', () => {
  it('"all" marks every utterance waiting for playback, as no id does; an unknown id is refused', async () => {
    const s = studio({ speechAck: 'host' });
    try {
      await turn(s, 'hello', 'Hello there.');
      // "all" means every utterance waiting (here the reply), never an utterance of that id.
      expect(await problemOf(() => s.spoken('all'))).toBe('accepted');
      expect(await problemOf(() => s.spoken('sp_99'))).toEqual({
        status: 404,
        code: 'unknown_speech',
      });
    } finally {
      await s.close();
    }
  });
});
