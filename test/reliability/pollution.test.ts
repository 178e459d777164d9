/**
 * RELIABILITY.md "Prototype pollution": dotted keys at load, hostile model arguments through a
 * whole session (loader, ajv, static parameters, defaults, templates, endpoint body, log, save
 * rules, state), keys that merely look special, and fixtures holding such keys — each followed
 * by `assertNoPoisoning` from @fast-check/poisoning.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { DefinitionError } from '../../src/errors.js';
import { runFixture } from '../../src/harness/run-fixture.js';
import { resultProblemLines } from '../../src/harness/reporters/format-failure.js';
import { createSession } from '../../src/session/create-session.js';
import { actionResult } from '../../src/handlers/action-result.js';
import type { SessionEvent } from '../../src/session/types.js';
import { ScriptedModel } from '../../src/testing.js';
import { startTestServer, type TestServer } from '../handlers/test-server.js';
import { fn } from './helpers.js';

const HOSTILE =
  '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"polluted":1}},"kind":"x"}';

let server: TestServer;
// Imported once everything else is loaded: it snapshots the globals as they are at import time
// (undici, for one, registers its global-dispatcher symbol when first imported).
let poisoning: typeof import('@fast-check/poisoning');
beforeAll(async () => {
  server = await startTestServer();
  poisoning = await import('@fast-check/poisoning');
});
afterAll(() => server.close());
beforeEach(() => {
  server.reset();
  // Echoes the parsed body back (JSON.parse keeps "__proto__" as an own key).
  server.route('*', (_req, res, body) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(`{"echo":${body || 'null'}}`),
  );
});
// The runner's own bookkeeping and console buffers change between tests; everything else
// reachable from globalThis (Object.prototype included, through the Object root) is checked.
const RUNNER_ROOTS = { ignoredRootRegex: /^(__vitest_worker__|__vitest_index__|console)$/ };
afterEach(() => {
  try {
    poisoning.assertNoPoisoning(RUNNER_ROOTS);
  } catch (error) {
    poisoning.restoreGlobals(RUNNER_ROOTS);
    throw error;
  }
});

function expectNothingPolluted(): void {
  const probe = {} as Record<string, unknown>;
  for (const name of ['x', 'isAdmin', 'polluted', 'b']) expect(probe[name]).toBeUndefined();
  expect(Object.prototype).not.toHaveProperty('isAdmin');
}

describe('dotted keys that reach a prototype are load errors', () => {
  async function loadIssues(defaults: Record<string, unknown>): Promise<string[]> {
    try {
      await loadTools([{ type: 'action', tool: fn('t', { a: {} }), result: 'ok', defaults }]);
    } catch (error) {
      expect(error).toBeInstanceOf(DefinitionError);
      return (error as DefinitionError).issues
        .filter((i) => i.severity === 'error')
        .map((i) => `${i.path}: ${i.code}`);
    }
    return [];
  }

  it.each(['__proto__.x', 'constructor.prototype.x', 'a.__proto__.b', '__proto__', 'a.prototype'])(
    'key %j',
    async (key) => {
      const defaults = JSON.parse(`{${JSON.stringify(key)}: {"x": 1}}`) as Record<string, unknown>;
      expect(await loadIssues(defaults)).toEqual([
        `tools[0].defaults[${JSON.stringify(key)}]: forbidden_segment`,
      ]);
      expectNothingPolluted();
    },
  );

  it.each([
    ['when.key', { a: { transform: { when: { key: '__proto__.x', value: 1 }, value: 2 } } }],
    ['a template path', { a: '{a.__proto__.x}' }],
    ['a template index', { a: '{a[constructor]}' }],
  ])('in %s', async (_label, defaults) => {
    const issues = await loadIssues(defaults);
    expect(issues.some((i) => i.endsWith('forbidden_segment'))).toBe(true);
    expectNothingPolluted();
  });

  it.each(['a..b', '.a', 'a.', ''])('degenerate key %j', async (key) => {
    expect(await loadIssues({ [key]: 1 })).toEqual([
      `tools[0].defaults[${JSON.stringify(key)}]: invalid_key`,
    ]);
  });
});

describe('hostile model arguments through a whole session', () => {
  async function hostileSession(raw: string) {
    const tools = await loadTools([
      {
        type: 'endpoint',
        tool: fn('open', { kind: { type: 'string' } }, [], { additionalProperties: true }),
        endpoint: { url: `${server.origin}/v1/open`, method: 'post', argument_location: 'body' },
        defaults: {
          'audit.by': '{vars.agent}',
          label: '@override {kind}/{params}',
          'kind_copy.value': '{kind}',
        },
        static_parameters: [{ name: 'channel', default: 'ivr-{{vars.agent}}' }],
        options: {
          save: [
            { from: 'echo', to: 'last_echo' },
            { from: 'echo.__proto__', to: 'proto_copy' },
          ],
        },
      },
      { type: 'log', tool: fn('note', {}, [], { additionalProperties: true }) },
      { type: 'action', tool: fn('closed', { kind: { type: 'string' } }), result: 'ok' },
    ]);
    const model = new ScriptedModel([
      {
        tool_calls: [
          { name: 'open', args: raw },
          { name: 'note', args: raw },
          { name: 'closed', args: raw },
        ],
      },
      { text: 'done' },
    ]);
    const events: SessionEvent[] = [];
    const session = createSession({
      tools,
      model,
      vars: { agent: 'ann' },
      onEvent: (e) => events.push(e),
    });
    const result = await session.run('go');
    const state = session.toJSON();
    await session.close();
    return { result, events, state };
  }

  it('{"__proto__": …} and {"constructor": {"prototype": …}} stay plain data end to end', async () => {
    const { result, events, state } = await hostileSession(HOSTILE);
    const [open, note, closed] = result.traces;
    // An open schema: accepted as data, sent as data.
    expect(open?.isError).toBe(false);
    expect(Object.hasOwn(open?.args ?? {}, '__proto__')).toBe(true);
    expect(open?.args).toMatchObject({ label: expect.stringContaining('"__proto__"') as unknown });
    const sent = JSON.parse(server.requests[0]?.body ?? '{}') as Record<string, unknown>;
    expect(Object.keys(sent)).toEqual(
      expect.arrayContaining(['__proto__', 'constructor', 'kind', 'channel', 'audit', 'label']),
    );
    expect(Object.getOwnPropertyDescriptor(sent, '__proto__')?.value).toEqual({ isAdmin: true });
    expect(sent['channel']).toBe('ivr-ann');
    expect(sent['audit']).toEqual({ by: 'ann' });
    // Saved into variables as own keys: the echoed "__proto__" object is data.
    expect(Object.hasOwn(state.vars, 'proto_copy')).toBe(true);
    expect(state.vars['proto_copy']).toEqual({ isAdmin: true });
    // The log tool records it as data too.
    expect(note?.isError).toBe(false);
    const log = events.find((e) => e.type === 'log');
    expect(log?.type === 'log' && Object.hasOwn(log.args, '__proto__')).toBe(true);
    // A closed schema refuses the unknown keys, naming them.
    expect(closed?.errorCode).toBe('invalid_arguments');
    expect(JSON.stringify(closed?.output)).toContain('/__proto__');
    expect(result.content).toBe('done');
    expectNothingPolluted();
  });

  it('an action setting a variable named "__proto__" stores it as an own key of vars', async () => {
    const tools = await loadTools([{ type: 'action', tool: fn('login', {}) }]);
    const model = new ScriptedModel([
      { tool_calls: [{ name: 'login', args: {} }] },
      { text: 'ok' },
    ]);
    const vars = JSON.parse('{"__proto__":{"isAdmin":true},"user":"ann"}') as Record<
      string,
      unknown
    >;
    const session = createSession({
      tools,
      model,
      actions: { login: () => actionResult({ vars, result: 'ok' }) },
    });
    const result = await session.run('go');
    for (const state of [result.state, session.toJSON()]) {
      expect(Object.hasOwn(state.vars, '__proto__')).toBe(true);
      expect(Object.getOwnPropertyDescriptor(state.vars, '__proto__')?.value).toEqual({
        isAdmin: true,
      });
      expect(state.vars['user']).toBe('ann');
    }
    await session.close();
    expectNothingPolluted();
  });

  it('a save rule never stores what JMESPath reaches by inheritance', async () => {
    // No "__proto__" in the result this time: echo.__proto__ would be Object.prototype.
    const { state } = await hostileSession('{"kind":"plain"}');
    expect(state.vars['last_echo']).toMatchObject({ kind: 'plain' });
    expect(Object.hasOwn(state.vars, 'proto_copy')).toBe(false);
    expectNothingPolluted();
  });

  it('keys that merely look special behave like any other, through the whole session', async () => {
    const tools = await loadTools([
      {
        type: 'endpoint',
        tool: fn('rec', {}, [], { additionalProperties: true }),
        endpoint: { url: `${server.origin}/v1/rec`, method: 'post', argument_location: 'body' },
        defaults: {
          hasOwnProperty: 'filled',
          summary: '{toString}|{hasOwnProperty}|{valueOf}|{vars.toString}',
          'nested.valueOf': '@override {vars.valueOf}',
        },
        options: {
          save: [
            { from: 'echo.toString', to: 'toString' },
            { from: 'echo.constructor', to: 'ctor' },
            { from: 'echo.valueOf', to: 'valueOf' },
          ],
        },
      },
    ]);
    const model = new ScriptedModel([
      { tool_calls: [{ name: 'rec', args: { toString: 'T', valueOf: 2 } }] },
      { tool_calls: [{ name: 'rec', args: {} }] },
      { text: 'ok' },
    ]);
    const session = createSession({
      tools,
      model,
      vars: { toString: 'var-T', valueOf: 'var-V' },
    });
    const result = await session.run('go');
    const [first, second] = result.traces;
    expect(first?.args).toEqual({
      toString: 'T',
      valueOf: 2,
      hasOwnProperty: 'filled',
      summary: 'T|filled|2|var-T',
      nested: { valueOf: 'var-V' },
    });
    // Nothing inherited fills a template: {toString} is missing, the entry skipped with a warning.
    // (vars.valueOf is 2 now: the first echo's own "valueOf" was saved into it.)
    expect(second?.args).toEqual({ hasOwnProperty: 'filled', nested: { valueOf: '2' } });
    expect(second?.transform).toContainEqual(
      expect.objectContaining({ key: 'summary', outcome: 'skipped', reason: 'missing_value' }),
    );
    // Saved: own data only (the second echo has no toString or valueOf of its own: JMESPath
    // would find Object.prototype's, so nothing is saved and the first values stay).
    expect(result.state.vars['toString']).toBe('T');
    expect(result.state.vars['valueOf']).toBe(2);
    expect(Object.hasOwn(result.state.vars, 'ctor')).toBe(false);
    expect(JSON.parse(server.requests[1]?.body ?? '{}')).toEqual({
      hasOwnProperty: 'filled',
      nested: { valueOf: '2' },
    });
    await session.close();
  });
});

describe('fixtures holding special keys in vars, arguments and expectations', () => {
  it.each(['special-keys.yaml', 'proto-keys.json'])(
    '%s passes and pollutes nothing',
    async (file) => {
      const result = await runFixture(`test/reliability/data/${file}`);
      expect(resultProblemLines(result)).toEqual([]);
      expect(result.status).toBe('passed');
      expectNothingPolluted();
    },
  );
});

describe('the poisoning guard itself', () => {
  it('catches a real pollution (so the checks after every test are not vacuous)', () => {
    (Object.prototype as Record<string, unknown>)['polluted'] = 1;
    try {
      expect(() => poisoning.assertNoPoisoning(RUNNER_ROOTS)).toThrow(/polluted/);
    } finally {
      poisoning.restoreGlobals(RUNNER_ROOTS);
    }
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});
