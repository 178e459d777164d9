import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { DefinitionError } from '../../src/errors.js';
import { createSession, restoreSession } from '../../src/session/create-session.js';
import type { SessionOptions } from '../../src/session/types.js';
import { ScriptedModel } from '../../src/testing.js';
import { fn } from './fixtures.js';

const tools = await loadTools([
  {
    type: 'log',
    tool: fn('note', { text: { type: 'string' } }),
    static_parameters: [
      { name: 'units', default: 'metric' },
      { name: 'days', type: 'int', default: 1 },
      { name: 'alerts', type: 'boolean', default: false },
    ],
  },
]);
const base = (patch: Partial<SessionOptions> = {}): SessionOptions => ({
  tools,
  model: new ScriptedModel([]),
  ...patch,
});
const issuesOf = (patch: Partial<SessionOptions>): { path: string; message: string }[] => {
  try {
    createSession(base(patch));
  } catch (error) {
    expect(error).toBeInstanceOf(DefinitionError);
    return (error as DefinitionError).issues.map(({ path, message }) => ({ path, message }));
  }
  throw new Error('expected createSession to throw');
};

describe('session options are checked once, at creation', () => {
  it('language is canonicalised; languages default the initial language', () => {
    expect(createSession(base({ language: 'es-us' })).toJSON().language).toBe('es-US');
    expect(createSession(base({ languages: ['fr-fr', 'en-US'] })).toJSON().language).toBe('fr-FR');
    expect(createSession(base()).toJSON().language).toBe('en-US');
  });

  it('a malformed tag, or one outside languages, is an error naming the option', () => {
    expect(issuesOf({ language: 'en_us!!' })).toEqual([
      { path: 'language', message: '"en_us!!" is not a BCP-47 language tag' },
    ]);
    expect(issuesOf({ language: 'fr-FR', languages: ['en-US', 'es-US'] })).toEqual([
      { path: 'language', message: `"fr-FR" is not one of the session's languages: en-US, es-US` },
    ]);
    expect(issuesOf({ languages: ['en-US', '??'] })).toEqual([
      { path: 'languages[1]', message: '"??" is not a BCP-47 language tag' },
    ]);
  });

  it('toolDefaults: unknown tools, unknown parameters and wrong types are errors', () => {
    const issues = issuesOf({
      toolDefaults: {
        nope: { a: 1 },
        note: { nosuch: 1, days: 1.5, alerts: 'yes', units: 'imperial' },
      },
      agents: { front: { prompt: 'p', toolDefaults: { note: { days: 'two' } } } },
    });
    expect(issues).toEqual([
      { path: 'toolDefaults.nope', message: 'names no tool; tools: note' },
      {
        path: 'toolDefaults.note.nosuch',
        message: 'is not a static parameter of note (static parameters: units, days, alerts)',
      },
      { path: 'toolDefaults.note.days', message: 'expected an integer, got 1.5' },
      { path: 'toolDefaults.note.alerts', message: 'expected a boolean, got "yes"' },
      { path: 'agents.front.toolDefaults.note.days', message: 'expected an integer, got "two"' },
    ]);
  });

  it('restoreSession checks the same way', () => {
    const state = createSession(base()).toJSON();
    expect(() => restoreSession(state, base({ language: 'xx_!!' }))).toThrow(DefinitionError);
  });

  it("the caller's options object is not changed", () => {
    const options = base({ language: 'es-us', languages: ['es-us'] });
    createSession(options);
    expect(options.language).toBe('es-us');
    expect(options.languages).toEqual(['es-us']);
  });
});

describe('per-agent toolDefaults', () => {
  it("the active agent's values win over the session's, per parameter", async () => {
    const model = new ScriptedModel([
      { tool_calls: [{ name: 'note', args: { text: 'a' } }] },
      { text: 'ok' },
    ]);
    const s = createSession(
      base({
        model,
        toolDefaults: { note: { units: 'imperial', days: 3 } },
        agents: { front: { prompt: 'p', toolDefaults: { note: { days: 7 } } } },
      }),
    );
    const r = await s.run('hi');
    expect(r.traces[0]?.args).toEqual({ text: 'a', units: 'imperial', days: 7, alerts: false });
  });

  it('deadlines in seconds: above 0, at most what a Node timer holds', () => {
    for (const bad of [0, -1, Number.NaN, Infinity, 3e6, '20' as unknown as number])
      expect(issuesOf({ actionTimeoutSecs: bad, toolTimeoutCapSecs: bad })).toEqual([
        {
          path: 'actionTimeoutSecs',
          message: 'must be a number of seconds above 0 and at most 2147483',
        },
        {
          path: 'toolTimeoutCapSecs',
          message: 'must be a number of seconds above 0 and at most 2147483',
        },
      ]);
    expect(() =>
      createSession(base({ actionTimeoutSecs: 0.5, toolTimeoutCapSecs: 2147483 })),
    ).not.toThrow();
  });
});
