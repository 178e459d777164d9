/**
 * A fixture author's mistakes (docs/reliability.md, "A tool author's mistakes"): each is an
 * unusable fixture naming the fixture file and the place in it, before anything runs.
 */
import { describe, expect, it } from 'vitest';
import { runFixture } from '../../src/harness/run-fixture.js';

const hangup = {
  type: 'action',
  tool: {
    type: 'function',
    function: {
      name: 'hangup',
      description: 'Hang up',
      parameters: { type: 'object', properties: {} },
    },
  },
};

const fixture = (patch: Record<string, unknown>, expect: Record<string, unknown> = {}) => ({
  name: 'mistake',
  tools: [hangup],
  turns: [
    {
      user: 'Bye',
      model: [{ tool_calls: [{ name: 'hangup', args: {} }] }, { text: 'Bye!' }],
      expect,
    },
  ],
  ...patch,
});

async function unusable(value: unknown): Promise<string[]> {
  const result = await runFixture(value, { file: 'mistake.yaml' });
  expect(result.status).toBe('error');
  return result.issues
    .filter((i) => i.severity === 'error')
    .map((i) => `${i.file}: ${i.path}: ${i.message}`);
}

describe('session options a session refuses make the fixture unusable, at their fixture path', () => {
  it('session.language, session.tool_defaults, actions', async () => {
    expect(await unusable(fixture({ session: { language: 'english!' } }))).toEqual([
      'mistake.yaml: session.language: "english!" is not a BCP-47 language tag',
    ]);
    expect(await unusable(fixture({ session: { tool_defaults: { hangpu: { x: 1 } } } }))).toEqual([
      'mistake.yaml: session.tool_defaults.hangpu: names no tool; tools: hangup',
    ]);
    expect(
      await unusable(
        fixture({
          session: {
            agents: { a: { prompt: 'p', tools: ['hangup'], tool_defaults: { nope: {} } } },
            agent: 'a',
          },
        }),
      ),
    ).toEqual([
      expect.stringMatching(
        /^mistake\.yaml: session\.agents\.a\.tool_defaults\.nope: names no tool/,
      ),
    ]);
    const actions = await unusable(fixture({ actions: { hangpu: { result: {} } } }));
    expect(actions).toEqual([
      expect.stringMatching(/^mistake\.yaml: actions\.hangpu: names no tool/),
    ]);
  });
});

describe('a service the fixture does not configure', () => {
  const book = {
    type: 'endpoint',
    tool: {
      type: 'function',
      function: {
        name: 'book',
        description: 'Book',
        parameters: { type: 'object', properties: {} },
      },
    },
    endpoint: { url: 'https://clinic.test/book', method: 'post', argument_location: 'body' },
    service: 'clinic',
  };
  const booking = (session: Record<string, unknown>) => ({
    name: 'books',
    tools: [book],
    session,
    http: [
      { request: { method: 'POST', url: 'https://clinic.test/book' }, response: { json: {} } },
    ],
    turns: [
      { user: 'Book', model: [{ tool_calls: [{ name: 'book', args: {} }] }, { text: 'Done' }] },
    ],
  });

  it('makes a fixture calling its tools unusable, at session.services.<name>', async () => {
    expect(await unusable(booking({ services: { clinc: {} } }))).toEqual([
      'mistake.yaml: session.services.clinic: service "clinic" is named by book but not configured (did you mean `clinc`?), and the fixture calls book: add it under session.services ("clinic": {} when it needs no credentials); every call would fail with not_available',
    ]);
    expect(await unusable(booking({}))).toHaveLength(1);
    const configured = await runFixture(booking({ services: { clinic: {} } }), {
      file: 'mistake.yaml',
    });
    expect(configured.status).toBe('passed');
  });

  it("is a warning in the report of a fixture that never calls them, as are the session's other warnings", async () => {
    const other = await runFixture(fixture({ tools: [hangup, book] }), { file: 'mistake.yaml' });
    expect(other.status).toBe('passed');
    expect(other.issues.map((i) => `${i.severity} ${i.code} ${i.path}`)).toEqual([
      'warning service_not_configured session.services.clinic',
    ]);
    const anywhere = await runFixture(
      booking({ services: { clinic: { auth: { type: 'bearer', token: 't' }, origins: ['*'] } } }),
      { file: 'mistake.yaml' },
    );
    expect(anywhere.status).toBe('passed');
    expect(anywhere.issues.map((i) => `${i.severity} ${i.code} ${i.path}`)).toEqual([
      'warning origins_any session.services.clinic.origins',
    ]);
  });
});

describe('a wrong value inside a fixture field of several forms', () => {
  it('is named at its own path (a speech point written as an object)', async () => {
    const value = fixture({});
    const turns = value.turns as Record<string, unknown>[];
    turns[0] = { ...turns[0], spoken: [{ text: 'Bye', after_ms: 'soon' }] };
    expect(await unusable(value)).toEqual([
      expect.stringMatching(/^mistake\.yaml: turns\[0\]\.spoken\[0\]\.after_ms: /),
    ]);
  });
});

describe('an expectation that could never match is refused at load, with its path', () => {
  it('a mistyped text, headers that are not an object, an unknown event type, a misspelt method', async () => {
    const cases: [Record<string, unknown>, Record<string, unknown>, string][] = [
      [
        {},
        { reply: 5 },
        'turns[0].expect.reply: expected a string, { regex: "…" } or { any: true }, got 5',
      ],
      [
        {},
        { language: 5 },
        'turns[0].expect.language: expected a string, { regex: "…" } or { any: true }, got 5',
      ],
      [
        {},
        { agent: false },
        'turns[0].expect.agent: expected a string, { regex: "…" } or { any: true }, got false',
      ],
      [
        {},
        { model_error: 500 },
        'turns[0].expect.model_error: expected a string, { regex: "…" } or { any: true }, got 500',
      ],
      [
        {},
        { reply: { regx: 'Bye' } },
        'turns[0].expect.reply: expected a string, { regex: "…" } or { any: true }, got {"regx":"Bye"}',
      ],
      [
        {},
        { tool_errors: [{ tool: 'hangup', code: 404 }] },
        'turns[0].expect.tool_errors[0].code: expected a string, { regex: "…" } or { any: true }, got 404',
      ],
      [
        {},
        { requests: [{ headers: ['x-api-key'] }] },
        'turns[0].expect.requests[0].headers: expected an object of header names to values, got ["x-api-key"]',
      ],
      [
        {},
        { events: [{ type: 'sayy' }] },
        'turns[0].expect.events[0].type: "sayy" is not a session event type (did you mean `say`?)',
      ],
      [
        {
          http: [
            { request: { method: 'DELET', url: 'https://a.test/x' }, response: { status: 204 } },
          ],
        },
        {},
        'http[0].request.method: expected an HTTP method (GET|HEAD|POST|PUT|DELETE|PATCH|OPTIONS, any case), got "DELET" (did you mean `DELETE`?)',
      ],
    ];
    for (const [patch, expectation, message] of cases) {
      const errors = await unusable(fixture(patch, expectation));
      expect(errors).toEqual([expect.stringContaining(`mistake.yaml: ${message}`)]);
    }
    // The loose forms and plain strings still load and run.
    const ok = await runFixture(
      fixture(
        {},
        {
          reply: { regex: '^Bye' },
          agent: { any: true },
          language: 'en-US',
          events: [{ type: 'action' }],
        },
      ),
      { file: 'ok.yaml' },
    );
    expect(ok.status).toBe('failed'); // agent: the session has no agents, so { any: true } finds nothing
    expect(ok.failures.flatMap((f) => f.mismatches ?? []).map((m) => m.path)).toEqual([
      'turns[0].expect.agent',
    ]);
  });
});

describe('a misspelt key inside a map by name', () => {
  it('names the key meant (actions.<tool>, session.agents.<name>)', async () => {
    expect(await unusable(fixture({ actions: { hangup: { reslt: {} } } }))).toEqual([
      'mistake.yaml: actions.hangup: unknown key(s) "reslt" (did you mean `result`?); keys here: result, handoff, end_session, say, vars, error',
    ]);
    const agents = await unusable(fixture({ session: { agents: { a: { promt: 'p' } } } }));
    expect(agents).toContainEqual(
      expect.stringContaining('session.agents.a: unknown key(s) "promt" (did you mean `prompt`?)'),
    );
  });
});
