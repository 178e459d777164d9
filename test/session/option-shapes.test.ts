import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { DefinitionError, type DefinitionIssue } from '../../src/errors.js';
import { createSession, restoreSession } from '../../src/session/create-session.js';
import type { SessionOptions } from '../../src/session/types.js';
import { ScriptedModel } from '../../src/testing.js';
import { fn } from './fixtures.js';

// Options as a JavaScript host (or a config file) hands them over: no compiler checked them.
type Loose = Record<string, unknown>;

const tools = await loadTools([
  { type: 'log', tool: fn('note', { text: { type: 'string' } }) },
  { type: 'log', tool: fn('escalate', {}) },
]);
const base = (patch: Loose = {}): SessionOptions =>
  ({ tools, model: new ScriptedModel([{ text: 'hi' }]), ...patch }) as unknown as SessionOptions;

function issuesOf(patch: Loose, make = createSession): string[] {
  try {
    make(base(patch));
  } catch (error) {
    expect(error).toBeInstanceOf(DefinitionError);
    return (error as DefinitionError).issues.map((i) => `${i.path}: ${i.message}`);
  }
  throw new Error(`expected ${JSON.stringify(Object.keys(patch))} to be refused`);
}

describe('every option has its shape checked at createSession', () => {
  it.each<[string, Loose, string]>([
    [
      'a tool set still a Promise',
      { tools: loadTools([]) },
      'tools: expected a ToolSet, got a Promise (missing `await`?): `await` the loadTools(...) call',
    ],
    [
      'a tools file not loaded',
      { tools: { tools: [] } },
      "tools: expected a ToolSet, got an object: this is a tools file's content; pass it through `await loadTools(...)` first",
    ],
    [
      'no model',
      { model: undefined },
      'model: is required: a Model such as openaiModel({ model }) or a ScriptedModel',
    ],
    [
      'a model name for a model',
      { model: 'gpt-4o' },
      'model: expected a Model (e.g. openaiModel({ model })), got a string',
    ],
    [
      'a model without stream()',
      { model: { name: 'm' } },
      'model: expected a Model (e.g. openaiModel({ model })): it has no stream() method',
    ],
    [
      'a store name for a store',
      { store: 'redis' },
      'store: expected a session store, got a string',
    ],
    [
      'a string round count',
      { maxToolRounds: '3' },
      'maxToolRounds: expected an integer of at least 1, got a string',
    ],
    ['no rounds', { maxToolRounds: 0 }, 'maxToolRounds: expected an integer of at least 1, got 0'],
    [
      'a fractional call cap',
      { maxCalls: 2.5 },
      'maxCalls: expected an integer of at least 1, got 2.5',
    ],
    [
      'a misspelt speech mode',
      { speechAck: 'hosts' },
      'speechAck: expected "host" or "auto", got a string (did you mean `host`?)',
    ],
    [
      'a missing-value rule',
      { onMissingTemplateValue: 'throw' },
      'onMissingTemplateValue: expected "skip" or "error", got a string',
    ],
    [
      'a string timeout',
      { turnTimeoutMs: '5000' },
      'turnTimeoutMs: must be a number of milliseconds above 0 and at most 2147483647',
    ],
    [
      'an event callback that is not one',
      { onEvent: 'log' },
      'onEvent: expected a function, got a string',
    ],
    ['a prompt that is not text', { prompt: 42 }, 'prompt: expected a string, got a number'],
    [
      'a limit below 1',
      { limits: { maxArgumentBytes: -1 } },
      'limits.maxArgumentBytes: expected an integer of at least 1, got -1',
    ],
    [
      'a bridge threshold',
      { bridge: { thresholdSecs: 'soon' } },
      'bridge.thresholdSecs: must be a number of seconds above 0 and at most 2147483',
    ],
    [
      'a network policy as a word',
      { networkPolicy: 'open' },
      'networkPolicy: expected an object, got a string',
    ],
    [
      'a time zone that is none',
      { systemValues: { timezone: 'Mars/Olympus' } },
      'systemValues.timezone: "Mars/Olympus" is not an IANA time zone name (e.g. "America/New_York")',
    ],
    ['an empty session id', { id: '' }, 'id: expected a non-empty string, got an empty string'],
    [
      'a dispatcher that is none',
      { dispatcher: {} },
      'dispatcher: expected an undici Dispatcher: it has no dispatch() method',
    ],
    [
      // Which pool serves a call is not part of the public ConnectionPools: a look-alike
      // object would fail at the first endpoint call, so it is refused here.
      'connection pools not made by createConnectionPools',
      { pools: { size: 0, closeAll: async () => {}, destroyAll: async () => {} } },
      'pools: expected connection pools from createConnectionPools(), got an object',
    ],
  ])('%s', (_name, patch, issue) => {
    expect(issuesOf(patch)).toEqual([issue]);
  });

  it('reports every wrong option at once, and checks restoreSession the same way', () => {
    const patch = { maxToolRounds: -1, onTurn: 3, modelId: 7 };
    const expected = [
      'maxToolRounds: expected an integer of at least 1, got -1',
      'onTurn: expected a function, got a number',
      'modelId: expected a non-empty string, got a number',
    ];
    expect(issuesOf(patch)).toEqual(expected);
    const state = createSession(base()).toJSON();
    expect(issuesOf(patch, (o) => restoreSession(state, o))).toEqual(expected);
  });

  it('variables must be JSON data: the state they start is stored and restored as JSON', () => {
    const cycle: Loose = {};
    cycle['self'] = cycle;
    expect(issuesOf({ vars: 'x' })).toEqual([
      'vars: expected an object of variables, got a string',
    ]);
    expect(issuesOf({ vars: { a: { b: [1, () => 2] } } })).toEqual([
      'vars.a.b[1]: expected JSON data, got a function',
    ]);
    expect(issuesOf({ vars: { n: Number.NaN } })).toEqual(['vars.n: expected JSON data, got NaN']);
    expect(issuesOf({ vars: { when: new Date(0) } })).toEqual([
      'vars.when: expected JSON data, got a Date',
    ]);
    expect(issuesOf({ vars: cycle })).toEqual([
      'vars.self: refers back to itself (a cycle is not JSON data)',
    ]);
    const shared = { x: 1 };
    expect(createSession(base({ vars: { a: shared, b: shared, c: null } })).vars).toEqual({
      a: { x: 1 },
      b: { x: 1 },
      c: null,
    });
  });

  it("agents: each config is checked, and the active agent and agents' tools must exist", () => {
    expect(
      issuesOf({
        agents: { front: { tools: ['note'] }, back: { prompt: 'p', maxCalls: 0, tools: 'note' } },
      }),
    ).toEqual([
      'agents.front.prompt: is required',
      'agents.back.maxCalls: expected an integer of at least 1, got 0',
      'agents.back.tools: expected an array, got a string',
    ]);
    expect(issuesOf({ agents: { front: { prompt: 'p', tools: ['nots'] } } })).toEqual([
      'agents.front.tools[0]: unknown tool "nots" (did you mean `note`?); tools: note, escalate',
    ]);
    expect(issuesOf({ agents: { front: { prompt: 'p' } }, agent: 'frnt' })).toEqual([
      'agent: unknown agent "frnt" (did you mean `front`?); agents: front',
    ]);
    expect(issuesOf({ agent: 'front' })).toEqual([
      'agent: unknown agent "front"; agents: none (no `agents` option)',
    ]);
  });

  it('an option the engine does not know is a warning naming the nearest one, and is ignored', async () => {
    const warnings: DefinitionIssue[] = [];
    const session = createSession(
      base({
        speechACK: 'host',
        limits: { maxArgumentByte: 10 },
        agents: { front: { prompt: 'p', modle: 'x' } },
        onWarning: (w: DefinitionIssue) => warnings.push(w),
      }),
    );
    expect(warnings.map((w) => [w.code, w.severity, `${w.path}: ${w.message}`])).toEqual([
      [
        'unknown_option',
        'warning',
        'speechACK: is not a known option (did you mean `speechAck`?); it is ignored',
      ],
      [
        'unknown_option',
        'warning',
        'limits.maxArgumentByte: is not a known option (did you mean `maxArgumentBytes`?); it is ignored',
      ],
      [
        'unknown_option',
        'warning',
        'agents.front.modle: is not a known option (did you mean `model`?); it is ignored',
      ],
    ]);
    expect((await session.send('hello').result).content).toBe('hi');
  });

  it("a getter is the host's on purpose: it is not read at creation", () => {
    let reads = 0;
    const systemValues = {
      get timezone(): string {
        reads++;
        return 'UTC';
      },
    };
    createSession(base({ systemValues }));
    expect(reads).toBe(0);
  });

  it('options a compiler would accept pass, and are left as they were', () => {
    const options = base({
      maxToolRounds: 3,
      speechAck: 'host',
      limits: { maxArgumentBytes: 1024 },
      bridge: { thresholdSecs: 1.5, phrases: { note: { '*': ['One moment.'] } } },
      systemValues: { timezone: 'America/New_York' },
      networkPolicy: { denyPrivateNetworks: true },
      vars: { 'vars.name': 'Ada', nested: { list: [1, 'two', null, true] } },
      agents: { front: { prompt: 'p', tools: ['note'], maxCalls: 2, timeout: 500 } },
      onEvent: () => undefined,
      _internal: { now: () => 0 },
    });
    const copy = JSON.stringify(options);
    expect(() => createSession(options)).not.toThrow();
    expect(JSON.stringify(options)).toBe(copy);
  });
});
