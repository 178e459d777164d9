/**
 * The studio's server without a browser: who may talk to it (Host, Origin, JSON only), the
 * manual conversation over its API, saving a fixture that then passes, and every refusal with
 * its code.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { runFixture } from '../../src/harness/run-fixture.js';
import { ScriptedModel } from '../../src/models/scripted.js';
import type { StudioState } from '../../src/studio/protocol.js';
import { startStudio, type Studio } from '../../src/studio/studio-server.js';

const TOOLS = resolve('test/studio/e2e/tools.json');
const TOKEN = 'tok-5e3d';
let dir: string;
let studio: Studio;
let port: number;

/** A request with any headers (fetch may not set Host). */
function raw(o: {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Default: the first studio's. */
  port?: number;
}): Promise<{ status: number; json: unknown; text: string }> {
  return new Promise((ok, fail) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: o.port ?? port,
        method: o.method ?? 'GET',
        path: o.path,
        headers: o.headers,
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => {
          text += c.toString();
          // The event stream never ends: its first event is enough.
          if (res.headers['content-type'] === 'text/event-stream' && text.includes('\n\n')) {
            res.destroy();
            ok({ status: res.statusCode ?? 0, json: undefined, text });
          }
        });
        res.on('end', () => {
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          ok({ status: res.statusCode ?? 0, json, text });
        });
      },
    );
    req.on('error', fail);
    req.end(o.body);
  });
}

const post = (path: string, body: unknown) =>
  raw({
    method: 'POST',
    path,
    headers: { host: `127.0.0.1:${port}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const get = (path: string) => raw({ path, headers: { host: `localhost:${port}` } });

/** Polls the state until it satisfies `done` (the turn runs in the server, asynchronously). */
async function stateWhen(done: (s: StudioState) => boolean): Promise<StudioState> {
  for (let i = 0; i < 2000; i++) {
    const s = (await get('/api/state')).json as StudioState;
    if (done(s)) return s;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error('the state never got there');
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'studio-server-'));
  mkdirSync(join(dir, 'ui'));
  writeFileSync(join(dir, 'ui', 'index.html'), '<!doctype html><title>studio</title>');
  studio = await startStudio({
    tools: await loadTools(TOOLS, { file: TOOLS }),
    toolsFile: TOOLS,
    model: 'manual',
    services: {
      clinic: { auth: { type: 'bearer', token: TOKEN }, origins: ['https://api.clinic.test'] },
    },
    languages: ['en-US', 'es-US'],
    fixturesDir: dir,
    assetsDir: join(dir, 'ui'),
  });
  port = Number(new URL(studio.url).port);
});

afterAll(async () => {
  await studio?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('who may talk to the studio', () => {
  it('serves its own page on loopback', async () => {
    expect(studio.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const page = await get('/');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<title>studio</title>');
    // Host names are case-insensitive.
    const upper = await raw({ path: '/api/state', headers: { host: `LocalHost:${port}` } });
    expect(upper.status).toBe(200);
  });

  it('refuses a Host that is not the studio (DNS rebinding)', async () => {
    const answer = await raw({ path: '/api/state', headers: { host: `attacker.example:${port}` } });
    expect(answer.status).toBe(403);
    expect(answer.json).toMatchObject({ error: { code: 'foreign_host' } });
  });

  it('refuses another Origin, and an opaque one', async () => {
    for (const origin of ['http://attacker.example', 'null', `https://127.0.0.1:${port}`]) {
      const answer = await raw({
        method: 'POST',
        path: '/api/say',
        headers: { host: `127.0.0.1:${port}`, origin, 'content-type': 'application/json' },
        body: '{"text":"hi"}',
      });
      expect(answer.status, origin).toBe(403);
      expect(answer.json).toMatchObject({ error: { code: 'foreign_origin' } });
    }
  });

  it('refuses a body that is not JSON (what a cross-site form sends)', async () => {
    const answer = await raw({
      method: 'POST',
      path: '/api/say',
      headers: { host: `127.0.0.1:${port}`, 'content-type': 'text/plain' },
      body: '{"text":"hi"}',
    });
    expect(answer.status).toBe(415);
    expect(answer.json).toMatchObject({ error: { code: 'not_json' } });
  });

  it('refuses a body over its limit (8 MiB) with 413 before parsing it', async () => {
    const answer = await raw({
      method: 'POST',
      path: '/api/say',
      // Chunked: the limit is met while reading, not from a declared length.
      headers: {
        host: `127.0.0.1:${port}`,
        'content-type': 'application/json',
        'transfer-encoding': 'chunked',
      },
      body: `{"text":"${'x'.repeat(8 * 1024 * 1024)}"}`,
    });
    expect(answer.status).toBe(413);
    expect(answer.json).toMatchObject({ error: { code: 'body_too_large' } });
  });

  it('streams the state as server-sent events', async () => {
    const answer = await get('/api/events');
    expect(answer.text).toMatch(/^event: state\ndata: \{/);
  });
});

describe('a conversation over the API', () => {
  it('refuses a model move when none is asked, and a bad file name', async () => {
    expect((await post('/api/model', { type: 'reply', text: 'x' })).json).toMatchObject({
      error: { code: 'not_awaiting_model' },
    });
    expect((await post('/api/save', { name: '../escape' })).json).toMatchObject({
      error: { code: 'bad_file_name' },
    });
    expect((await post('/api/save', { name: 'early' })).json).toMatchObject({
      error: { code: 'nothing_to_save' },
    });
    expect(
      (
        await post('/api/http', {
          mode: 'double',
          exchanges: [{ method: 'GET', url: 'not a url', status: 200, body: '' }],
        })
      ).json,
    ).toMatchObject({
      error: { code: 'bad_exchange' },
    });
  });

  it('refuses a file name that leaves the fixtures folder or hides the file', async () => {
    // Checked before "nothing to save": a bad name is refused whatever the conversation.
    for (const name of ['sub/../../escape', 'sub/x', '.hidden', '..']) {
      const answer = await post('/api/save', { name });
      expect(answer.status, name).toBe(400);
      expect(answer.json, name).toMatchObject({ error: { code: 'bad_file_name' } });
    }
  });

  it('refuses fields of the wrong type, naming them', async () => {
    const say = await post('/api/say', { text: 5 });
    expect(say.status).toBe(400);
    expect(say.json).toMatchObject({
      error: { code: 'bad_request', message: 'text: expected a string' },
    });
    const status = await post('/api/http', {
      mode: 'double',
      exchanges: [{ method: 'GET', url: 'https://api.clinic.test/x', status: '200', body: '' }],
    });
    expect(status.json).toMatchObject({
      error: { code: 'bad_exchange', message: 'HTTP double answer 1: status: expected a number' },
    });
  });

  it('refuses "mark spoken" of the wrong shape, and when speech counts as played on emission', async () => {
    const bad = await post('/api/spoken', { speechId: 7 });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ error: { code: 'bad_request' } });
    const auto = await post('/api/spoken', {});
    expect(auto.status).toBe(409);
    expect(auto.json).toMatchObject({ error: { code: 'speech_ack_auto' } });
  });

  it('plays a turn with the double, draws it, and saves a fixture that passes', async () => {
    await post('/api/http', {
      mode: 'double',
      exchanges: [
        {
          method: 'POST',
          url: 'https://api.clinic.test/v1/appointments',
          status: 201,
          body: '{"id":"A-7"}',
        },
      ],
    });
    expect((await post('/api/say', { text: 'Book Ana in the Bronx' })).status).toBe(200);
    await stateWhen((s) => s.awaitingModel);
    expect((await post('/api/say', { text: 'again' })).json).toMatchObject({
      error: { code: 'turn_running' },
    });
    await post('/api/model', {
      type: 'call',
      name: 'book_appointment',
      arguments: '{"patient_name":"Ana","city":"Bronx","date":"2025-03-20"}',
    });
    await stateWhen((s) => s.awaitingModel && s.turns[0]!.items.some((i) => i.kind === 'http'));
    await post('/api/model', { type: 'reply', text: 'Booked: A-7.' });
    const state = await stateWhen((s) => !s.busy);
    expect(state.vars).toEqual({ appointment_id: 'A-7' });
    const items = state.turns[0]!.items;
    expect(items.map((i) => i.kind)).toEqual(['caller', 'model', 'tool', 'http', 'model', 'reply']);
    const tool = items.find((i) => i.kind === 'tool')!;
    expect(tool.detail['transform']).toEqual([
      { key: 'city', action: 'override', outcome: 'applied', value: 'The Bronx' },
      { key: 'channel', action: 'default', outcome: 'applied', value: 'voice' },
    ]);
    const http = items.find((i) => i.kind === 'http')!;
    expect(http.detail['response']).toMatchObject({ status: 201, body: '{"id":"A-7"}' });
    expect(JSON.stringify(state)).not.toContain(TOKEN);

    const saved = (await post('/api/save', { name: 'booked' })).json as { file: string };
    expect(saved.file).toBe(join(dir, 'booked.yaml'));
    expect(readFileSync(saved.file, 'utf8')).not.toContain(TOKEN);
    const replay = await runFixture(saved.file);
    expect(replay.failures).toEqual([]);
    expect(replay.status).toBe('passed');
  });

  it('runs the fixtures folder, and refuses a file that is not one of them', async () => {
    const run = (await post('/api/fixtures/run', {})).json as { results: { status: string }[] };
    expect(run.results.map((r) => r.status)).toEqual(['passed']);
    expect((await post('/api/fixtures/run', { file: '/etc/passwd' })).json).toMatchObject({
      error: { code: 'unknown_fixture' },
    });
  });

  it('opens a saved session, and says what is wrong with something else', async () => {
    const session = (await get('/api/session')).json;
    const opened = (await post('/api/open-session', { session })).json as {
      turns: { items: { kind: string; code?: string }[] }[];
    };
    expect(opened.turns[0]!.items.map((i) => i.kind)).toEqual(['caller', 'tool', 'reply']);
    expect((await post('/api/open-session', { session: { history: 3 } })).json).toMatchObject({
      error: { code: 'not_a_session' },
    });
  });

  it('explains a call rule by rule, and names bad variables', async () => {
    const explained = (
      await post('/api/explain', {
        tool: 'book_appointment',
        args: '{"patient_name":"Ana","city":"Bronx","date":"2025-03-20"}',
        vars: '',
        language: '',
      })
    ).json;
    expect(explained).toMatchObject({
      ok: true,
      args: { city: 'The Bronx', channel: 'voice' },
      steps: [{ key: 'city', outcome: 'applied' }, { key: 'channel' }],
    });
    expect(
      (await post('/api/explain', { tool: 'nope', args: '{}', vars: '', language: '' })).json,
    ).toMatchObject({ ok: false, code: 'unknown_tool' });
    expect(
      (
        await post('/api/explain', {
          tool: 'book_appointment',
          args: '{}',
          vars: '[1]',
          language: '',
        })
      ).json,
    ).toMatchObject({ error: { code: 'bad_vars' } });
  });
  it('switches the language between turns, and refuses one that is not allowed', async () => {
    expect((await post('/api/language', { language: 'fr-FR' })).json).toMatchObject({
      error: { code: 'bad_language', message: expect.stringContaining('en-US, es-US') },
    });
    expect((await post('/api/language', { language: 'es-us' })).status).toBe(200);
    expect((await get('/api/state')).json).toMatchObject({ language: 'es-US' });
    // A switch after the first turn is replayed by the saved fixture before the next turn.
    await post('/api/say', { text: 'Hola' });
    await stateWhen((s) => s.awaitingModel);
    await post('/api/model', { type: 'reply', text: '¡Hola!' });
    await stateWhen((s) => !s.busy);
    // A name with its own extension keeps it (no "switched.yml.yaml").
    const saved = (await post('/api/save', { name: 'switched.yml' })).json as { file: string };
    expect(saved.file).toBe(join(dir, 'switched.yml'));
    expect(readFileSync(saved.file, 'utf8')).toContain('language: es-US');
    expect((await runFixture(saved.file)).failures).toEqual([]);
    await post('/api/language', { language: 'en-US' });
  });

  it('lets the caller barge in while the model is being asked', async () => {
    expect((await post('/api/interrupt', {})).json).toMatchObject({
      error: { code: 'no_turn_running' },
    });
    await post('/api/say', { text: 'Hmm, let me think' });
    await stateWhen((s) => s.awaitingModel);
    expect((await post('/api/interrupt', {})).status).toBe(200);
    const state = await stateWhen((s) => !s.busy);
    expect(state.turns.at(-1)!.items.map((i) => i.kind)).toContain('interrupted');
    expect(state.awaitingModel).toBe(false);
    await post('/api/reset', {});
    await stateWhen((s) => s.turns.length === 0);
  });
});

describe('a model that answers by itself, and actions answered as the page declared', () => {
  let other: Studio;
  let otherDir: string;
  const otherPost = (path: string, body: unknown) =>
    raw({
      method: 'POST',
      path,
      headers: { host: new URL(other.url).host, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      port: Number(new URL(other.url).port),
    });

  beforeAll(async () => {
    otherDir = mkdtempSync(join(tmpdir(), 'studio-model-'));
    other = await startStudio({
      tools: await loadTools(TOOLS, { file: TOOLS }),
      toolsFile: TOOLS,
      model: new ScriptedModel([
        { text: ['Goodbye', ', Ana.'], tool_calls: [{ name: 'end_call', args: {} }] },
        { text: '' },
      ]),
      fixturesDir: otherDir,
      assetsDir: join(dir, 'ui'),
    });
  });

  afterAll(async () => {
    await other?.close();
    rmSync(otherDir, { recursive: true, force: true });
  });

  it('refuses an answer for a tool that is no action, or of the wrong shape', async () => {
    expect(
      (await otherPost('/api/actions', { answers: [{ end_session: true }] })).json,
    ).toMatchObject({
      error: { code: 'bad_request', message: 'answers: expected an object by action tool' },
    });
    expect(
      (await otherPost('/api/actions', { answers: { book_appointment: {} } })).json,
    ).toMatchObject({ error: { code: 'bad_action' } });
    expect(
      (await otherPost('/api/actions', { answers: { end_call: { end_sesion: true } } })).json,
    ).toMatchObject({
      error: { code: 'bad_action', message: expect.stringContaining('end_call') },
    });
  });

  it('streams the reply, ends the session as declared, and saves a fixture that passes', async () => {
    const otherState = async (): Promise<StudioState> =>
      (
        await raw({
          path: '/api/state',
          headers: { host: new URL(other.url).host },
          port: Number(new URL(other.url).port),
        })
      ).json as StudioState;
    await otherPost('/api/actions', { answers: { end_call: { end_session: true } } });
    await otherPost('/api/say', { text: 'That is all, thanks' });
    let state = await otherState();
    for (let i = 0; i < 2000 && state.busy; i++) {
      await new Promise((r) => setTimeout(r, 5));
      state = await otherState();
    }
    expect(state.model).toBe('openai');
    // Started without --services: the page says why the clinic's tool would fail.
    expect(state.warnings).toEqual([expect.objectContaining({ code: 'service_not_configured' })]);
    expect(state.ended).toBe(true);
    const kinds = state.turns[0]!.items.map((i) => i.kind);
    expect(kinds).toContain('session-end');
    expect(state.turns[0]!.items.find((i) => i.kind === 'reply')?.label).toBe('Goodbye, Ana.');
    expect((await otherPost('/api/say', { text: 'hello?' })).json).toMatchObject({
      error: { code: 'session_ended' },
    });
    const saved = (await otherPost('/api/save', { name: 'hangup' })).json as { file: string };
    expect(readFileSync(saved.file, 'utf8')).toMatch(/actions:\s+end_call:\s+end_session: true/);
    expect((await runFixture(saved.file)).status).toBe('passed');
  });
});

describe('an OAuth service', () => {
  it("draws the tool's own exchange, not the engine's token request before it", async () => {
    const oauthDir = mkdtempSync(join(tmpdir(), 'studio-oauth-'));
    const oauth = await startStudio({
      tools: await loadTools(TOOLS, { file: TOOLS }),
      toolsFile: TOOLS,
      model: new ScriptedModel([
        {
          tool_calls: [
            {
              name: 'book_appointment',
              args: { patient_name: 'Ana', city: 'Bronx', date: '2025-03-20' },
            },
          ],
        },
        { text: 'Booked.' },
      ]),
      services: {
        clinic: {
          auth: {
            type: 'oauth2',
            client_id: 'id',
            client_secret: 'client-secret-9',
            auth_url: 'https://auth.clinic.test/token',
          },
          origins: ['https://api.clinic.test'],
        },
      },
      fixturesDir: oauthDir,
      assetsDir: join(dir, 'ui'),
    });
    const oauthPort = Number(new URL(oauth.url).port);
    const send = (path: string, body?: unknown) =>
      raw({
        method: body === undefined ? 'GET' : 'POST',
        path,
        headers: { host: new URL(oauth.url).host, 'content-type': 'application/json' },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        port: oauthPort,
      });
    try {
      await send('/api/http', {
        mode: 'double',
        exchanges: [
          {
            method: 'POST',
            url: 'https://auth.clinic.test/token',
            status: 200,
            body: '{"access_token":"at-77","expires_in":3600,"token_type":"Bearer"}',
          },
          {
            method: 'POST',
            url: 'https://api.clinic.test/v1/appointments',
            status: 201,
            body: '{"id":"A-3"}',
          },
        ],
      });
      await send('/api/say', { text: 'book' });
      let state = (await send('/api/state')).json as StudioState;
      for (let i = 0; i < 2000 && state.busy; i++) {
        await new Promise((r) => setTimeout(r, 5));
        state = (await send('/api/state')).json as StudioState;
      }
      const http = state.turns[0]!.items.filter((i) => i.kind === 'http');
      expect(http).toHaveLength(1);
      expect(http[0]!.detail['response']).toMatchObject({ status: 201, body: '{"id":"A-3"}' });
      // The token the engine obtained is scrubbed from the timeline (the page's own double
      // declares it, so only the turns are checked).
      expect(JSON.stringify(state.turns)).not.toContain('at-77');
      expect(JSON.stringify(state)).not.toContain('client-secret-9');
    } finally {
      await oauth.close();
      rmSync(oauthDir, { recursive: true, force: true });
    }
  });
});
