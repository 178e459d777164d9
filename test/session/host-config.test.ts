/**
 * Issue 44 items 1–3 and 8: the host's mistakes fail `createSession`, named, not the first call;
 * a host fault during a turn is never reported as the model's; `session.vars`/`session.language`.
 */
import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { DefinitionError, type DefinitionIssue } from '../../src/errors.js';
import { isModelError } from '../../src/models/errors.js';
import { createSession } from '../../src/session/create-session.js';
import type { SessionOptions } from '../../src/session/types.js';
import { ScriptedModel } from '../../src/testing.js';
import { actionResult } from '../../src/handlers/action-result.js';
import { fn } from './fixtures.js';

const ORIGIN = 'https://api.clinic.test';
const tools = await loadTools([
  {
    type: 'endpoint',
    service: 'clinic',
    tool: fn('book', { city: { type: 'string' } }),
    endpoint: { url: `${ORIGIN}/v1/appointments`, method: 'post' },
  },
  { type: 'action', tool: fn('hangup') },
  { type: 'action', tool: fn('transfer') },
  { type: 'context', tool: fn('set_language', { language: { type: 'string' } }) },
]);

const base = (patch: Partial<SessionOptions>): SessionOptions => ({
  tools,
  model: new ScriptedModel([]),
  onWarning: () => undefined,
  ...patch,
});

function issuesOf(patch: Partial<SessionOptions>): string[] {
  try {
    createSession(base(patch));
  } catch (error) {
    expect(error).toBeInstanceOf(DefinitionError);
    return (error as DefinitionError).issues.map((i) => `${i.path}: ${i.message}`);
  }
  throw new Error('expected createSession to throw');
}

/** A service config as a host might really write it, mistakes included (not type-checked). */
const services = (config: unknown): SessionOptions['services'] =>
  ({ clinic: config }) as SessionOptions['services'];

describe('services are checked at createSession, every auth kind and field', () => {
  it('an unset bearer token (process.env.X! with X unset) names services.<name>.auth.token', () => {
    const env: Record<string, string | undefined> = {};
    const issues = issuesOf({
      services: services({
        auth: { type: 'bearer', token: env['CLINIC_TOKEN'] },
        origins: [ORIGIN],
      }),
    });
    expect(issues).toEqual([
      'services.clinic.auth.token: expected a non-empty string, got nothing (undefined)',
    ]);
  });

  it.each([
    [
      { type: 'bearer', token: '' },
      'services.clinic.auth.token: expected a non-empty string, got an empty string',
    ],
    [
      { type: 'bearer', token: 42 },
      'services.clinic.auth.token: expected a non-empty string, got a number',
    ],
    [
      { type: 'bearer', tokn: 'abcd' },
      'services.clinic.auth.tokn: is not a setting of bearer auth (did you mean `token`?); settings: type, token',
    ],
    [
      { type: 'basic', password: 'pw' },
      'services.clinic.auth.username: expected a non-empty string, got nothing (undefined)',
    ],
    [
      { type: 'basic', username: 'u' },
      'services.clinic.auth.password: expected a string, got nothing (undefined)',
    ],
    [
      { type: 'custom_headers', headers: {} },
      'services.clinic.auth.headers: expected at least one header',
    ],
    [
      { type: 'custom_headers', headers: { 'x-key': undefined } },
      'services.clinic.auth.headers.x-key: expected a non-empty string, got nothing (undefined)',
    ],
    [
      { type: 'custom_headers', headers: { 'bad name': 'v' } },
      'services.clinic.auth.headers.bad name: header name "bad name" is not a valid token',
    ],
    [
      { type: 'oauth2', client_id: 'c', client_secret: 's', auth_url: 'not a url' },
      'services.clinic.auth.auth_url: expected an http(s) URL, got "not a url"',
    ],
    [
      { type: 'oauth2', client_id: 'c', auth_url: `${ORIGIN}/token` },
      'services.clinic.auth.client_secret: expected a non-empty string, got nothing (undefined)',
    ],
    [
      { type: 'oauth2', client_id: 'c', client_secret: 's', auth_url: `${ORIGIN}/t`, scope: 1 },
      'services.clinic.auth.scope: expected a string, got a number',
    ],
    [
      { type: 'beare', token: 'abcd' },
      'services.clinic.auth.type: expected one of basic, bearer, custom_headers, oauth2, got "beare" (did you mean `bearer`?)',
    ],
    [
      'abcd',
      'services.clinic.auth: expected an object with a type (basic, bearer, custom_headers, oauth2), got a string',
    ],
  ])('auth %j: %s', (auth, expected) => {
    expect(issuesOf({ services: services({ auth, origins: [ORIGIN] }) })).toContain(expected);
  });

  it('the service itself: unknown settings, headers, origins, and a non-object', () => {
    expect(issuesOf({ services: services({ orgins: [ORIGIN] }) })).toEqual([
      'services.clinic.orgins: is not a service setting (did you mean `origins`?); settings: auth, headers, origins, maxConnections',
    ]);
    expect(issuesOf({ services: services({ headers: { 'x-site': 7 } }) })).toEqual([
      'services.clinic.headers.x-site: expected a string, got a number',
    ]);
    expect(issuesOf({ services: services(null) })).toEqual([
      'services.clinic: expected an object ({ auth, headers, origins }), got null',
    ]);
    expect(issuesOf({ services: services({ origins: [] }) })).toContain(
      'services.clinic.origins: must be a list of origins like https://api.example.com',
    );
  });

  it('never quotes a secret in its message', () => {
    const secret = 'tok-Quoted-9f8e7d\n';
    const issues = issuesOf({
      services: services({ auth: { type: 'bearer', token: secret }, origins: [ORIGIN] }),
    });
    expect(issues).toEqual([
      'services.clinic.auth.token: contains characters that cannot be sent in an HTTP header: a line break at the end (a value read from a file keeps its final newline; trim it)',
    ]);
    expect(issues.join('\n')).not.toContain('tok-Quoted');
  });

  it('says what cannot be sent and where, by code point, never quoting the value', () => {
    // A key from a secret mount (final newline), one pasted with a stray tab, one typed with a
    // typographic apostrophe: each named, the first only by its usual cause.
    const issues = issuesOf({
      services: {
        pbx: {
          auth: { type: 'custom_headers', headers: { 'x-api-key': 'pbx-Key-77a1\r\n' } },
          origins: [ORIGIN],
        },
        ops: { headers: { 'x-tenant': 'acme\tops' } },
        crm: { auth: { type: 'bearer', token: 'crm\u2019s-token' }, origins: [ORIGIN] },
      },
    });
    expect(issues).toEqual([
      'services.pbx.auth.headers.x-api-key: contains characters that cannot be sent in an HTTP header: a line break at the end (a value read from a file keeps its final newline; trim it)',
      'services.ops.headers.x-tenant: contains characters that cannot be sent in an HTTP header: a control character (U+0009) at character 5 of 8',
      'services.crm.auth.token: contains characters that cannot be sent in an HTTP header: a character beyond Latin-1 (U+2019) at character 4 of 11',
    ]);
    expect(issues.join('\n')).not.toMatch(/pbx-Key|acme|crm.s-token/);
  });

  it('a tool naming a service nothing configures is a warning at creation, with the likely name', () => {
    const warnings: DefinitionIssue[] = [];
    createSession(
      base({
        services: { clinc: { headers: { 'x-site': 'a' } } },
        onWarning: (w) => warnings.push(w),
      }),
    );
    expect(warnings.map((w) => `${w.code} ${w.path}: ${w.message}`)).toEqual([
      'service_not_configured services.clinic: service "clinic" is named by book but not configured (did you mean `clinc`?); their calls fail with not_available',
    ]);
  });

  it('by default the warning is a process warning, shown once per process', async () => {
    const seen: Error[] = [];
    const listen = (w: Error): void => void seen.push(w);
    process.on('warning', listen);
    try {
      const { onWarning: _none, ...noHandler } = base({});
      createSession(noHandler);
      createSession(noHandler);
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', listen);
    }
    const ours = seen.filter((w) => w.message.includes('service "clinic" is named by book'));
    expect(ours).toHaveLength(1);
    expect((ours[0] as Error & { code?: string }).code).toBe('SWITCHBOARD_SERVICE_NOT_CONFIGURED');
  });
});

describe('actions are checked at createSession', () => {
  it('a handler under a name no tool has is an error with "did you mean"', () => {
    const hang_up = async (): Promise<void> => undefined;
    expect(issuesOf({ actions: { hang_up } })).toEqual([
      'actions.hang_up: names no tool (did you mean `hangup`?); action tools: hangup, transfer',
    ]);
  });

  it('a handler for a tool that is not an action, or that is not a function, is an error', () => {
    expect(
      issuesOf({
        actions: new Map<string, never>([
          ['book', (() => undefined) as never],
          ['transfer', 'yes' as never],
        ]),
      }),
    ).toEqual([
      'actions.book: book is an endpoint tool; only action tools call host handlers',
      'actions.transfer: expected a function, got a string',
    ]);
  });

  it('a correct handler is accepted and its actionResult ends the session', async () => {
    const s = createSession(
      base({
        model: new ScriptedModel([{ tool_calls: [{ name: 'hangup' }] }, { text: 'Bye!' }]),
        actions: { hangup: () => actionResult({ endSession: true }) },
      }),
    );
    await s.run('bye');
    expect(s.ended).toBe(true);
  });
});

describe('a host fault during a turn is the host’s, never the model’s', () => {
  it('a TypeError thrown while starting a call rejects the turn as itself, not as a ModelError', async () => {
    const s = createSession(
      base({
        // An empty call id makes the engine ask the host's id source, which is broken here.
        model: new ScriptedModel([{ tool_calls: [{ name: 'hangup', id: '' }] }, { text: 'x' }]),
        _internal: {
          generateId: () => {
            throw new TypeError("Cannot read properties of undefined (reading 'length')");
          },
        },
      }),
    );
    const turn = s.send('go');
    const events: string[] = [];
    for await (const e of turn) events.push(e.type);
    const error = await turn.result.catch((err: unknown) => err);
    expect(error).toBeInstanceOf(TypeError);
    expect(isModelError(error)).toBe(false);
    expect(events).not.toContain('model-error');
    await s.close();
  });
});

describe('session.vars and session.language', () => {
  it('read the current values; vars is a copy', async () => {
    const s = createSession(
      base({
        vars: { 'vars.hospital': 'Queens' },
        languages: ['en-US', 'es-US'],
        model: new ScriptedModel([
          { tool_calls: [{ name: 'set_language', args: { language: 'es-US' } }] },
          { text: 'Hola' },
        ]),
      }),
    );
    expect(s.language).toBe('en-US');
    expect(s.vars).toEqual({ 'vars.hospital': 'Queens' });
    (s.vars as Record<string, unknown>)['vars.hospital'] = 'changed';
    expect(s.vars).toEqual(s.toJSON().vars);
    await s.run('en español');
    expect(s.language).toBe('es-US');
  });
});

describe('checked once per services object, never a stale error', () => {
  it('a host that fixes its services object after the error is checked again', () => {
    const config = { clinic: { auth: { type: 'bearer', token: '' }, origins: [ORIGIN] } };
    const options = base({ services: config as SessionOptions['services'] });
    expect(() => createSession(options)).toThrow(/services\.clinic\.auth\.token/);
    config.clinic.auth.token = 'tok-fixed-1234';
    expect(createSession(options).id).toEqual(expect.any(String));
  });

  it('a clean result is reused, warnings included', () => {
    const warnings: string[] = [];
    const options = base({
      services: { clinc: {} },
      onWarning: (w) => warnings.push(w.code),
    });
    createSession(options);
    createSession(options);
    expect(warnings).toEqual(['service_not_configured', 'service_not_configured']);
  });
});
