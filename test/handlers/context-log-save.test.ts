import { describe, expect, it } from 'vitest';
import {
  cleanSayText,
  createContextHandler,
  MAX_SAY_CHARS,
} from '../../src/handlers/context-handler.js';
import { createLogHandler } from '../../src/handlers/log-handler.js';
import { applySaveRules, checkSaveExpression } from '../../src/handlers/save.js';
import type { HandlerOutcome, HandlerSession } from '../../src/handlers/types.js';
import { makeContext, makeTool } from './helpers.js';

function context(
  args: Record<string, unknown>,
  session: Partial<HandlerSession> = {},
  result?: { value: unknown },
): Promise<HandlerOutcome> {
  const tool =
    result === undefined
      ? makeTool({ type: 'context' })
      : makeTool({ type: 'context', result: result.value });
  return createContextHandler().execute(args, makeContext(tool, { session }));
}

describe('context handler', () => {
  it('canonicalises the language and emits a change effect with from/to', async () => {
    const out = await context({ language: 'ES-us' });
    expect(out).toMatchObject({
      type: 'success',
      output: { language: 'es-US' },
      effects: [{ type: 'language', from: 'en-US', to: 'es-US' }],
    });
  });

  it('the language effect even for the current language (the session applies it, in call order)', async () => {
    const out = await context({ language: 'en-us' });
    expect(out).toMatchObject({
      type: 'success',
      output: { language: 'en-US' },
      effects: [{ type: 'language', from: 'en-US', to: 'en-US' }],
    });
  });

  it.each(['not a tag!', 'e', '', 42])('refuses %j as invalid_language', async (language) => {
    const out = await context({ language });
    expect(out.type === 'error' && out.error.code).toBe('invalid_language');
  });

  it('a tag outside the declared languages → invalid_language listing the allowed ones', async () => {
    const out = await context({ language: 'fr-FR' }, { languages: ['en-US', 'es-us'] });
    expect(out.type === 'error' && out.error.code).toBe('invalid_language');
    expect(out.type === 'error' && out.error.message).toContain('en-US, es-US');
    const ok = await context({ language: 'es-US' }, { languages: ['en-US', 'es-us'] });
    expect(ok.type).toBe('success');
  });

  it('say and its alias message → say effect, control characters stripped, length capped', async () => {
    expect(await context({ say: 'Hola\r\nmundo\u0000!' })).toMatchObject({
      effects: [{ type: 'say', text: 'Hola mundo!' }],
      output: { say: 'Hola mundo!' },
    });
    expect(await context({ message: 'One moment' })).toMatchObject({
      effects: [{ type: 'say', text: 'One moment' }],
    });
    const long = await context({ say: 'a'.repeat(5000) });
    expect(long.effects[0]).toEqual({ type: 'say', text: 'a'.repeat(MAX_SAY_CHARS) });
    expect(cleanSayText('\u0007bell\u007f', 100)).toBe('bell');
    const bad = await context({ say: { text: 'x' } });
    expect(bad.type === 'error' && bad.error.code).toBe('invalid_arguments');
  });

  it('language then say, in that order', async () => {
    const out = await context({ language: 'es-US', message: 'Un momento' });
    expect(out.effects.map((e) => e.type)).toEqual(['language', 'say']);
  });

  it('renders the definition result over session variables (with the new language)', async () => {
    const out = await context(
      { language: 'es-US' },
      { vars: { 'vars.name': 'Ana' } },
      { value: { msg: 'Hi {{vars.name}} in {{vars.session.language}}', n: 1 } },
    );
    expect(out).toMatchObject({ type: 'success', output: { msg: 'Hi Ana in es-US', n: 1 } });
  });

  it('nothing to do → {"status":"ok"}', async () => {
    expect(await context({})).toMatchObject({
      type: 'success',
      output: { status: 'ok' },
      effects: [],
    });
  });
});

describe('cleanSayText at the cap', () => {
  it('never ends on a high surrogate, the highest (U+DBFF) included', () => {
    for (const high of ['\ud800', '\ud83d', '\udbff']) {
      const text = cleanSayText(`ab${high}\udc00cd`, 3);
      expect([high, text]).toEqual([high, 'ab']);
    }
    // A pair wholly inside the cap is kept.
    expect(cleanSayText('a\udbff\udfffcd', 3)).toBe('a\udbff\udfff');
  });
});

describe('log handler', () => {
  it('records the arguments as a log effect and returns {"status":"logged"} or the result', async () => {
    const args = { reason: 'complaint', nested: { a: 1 } };
    const out = await createLogHandler().execute(args, makeContext(makeTool({ type: 'log' })));
    expect(out).toMatchObject({
      type: 'success',
      output: { status: 'logged' },
      effects: [{ type: 'log', args }],
    });
    const effect = out.effects[0];
    if (effect?.type === 'log') expect(effect.args['nested']).not.toBe(args.nested);
    const withResult = await createLogHandler().execute(
      {},
      makeContext(makeTool({ type: 'log', result: 'noted' })),
    );
    expect(withResult).toMatchObject({ output: 'noted' });
  });
});

describe('save rules', () => {
  it('copies parts of a result into variables with JMESPath', () => {
    const output = { id: 42, patient: { name: 'Ana' }, slots: [{ t: '9:00' }, { t: '10:00' }] };
    expect(
      applySaveRules(output, [
        { from: 'id', to: 'vars.appointment_id' },
        { from: 'patient.name', to: 'vars.name' },
        { from: 'slots[].t', to: 'vars.times' },
        { from: 'length(slots)', to: 'vars.count' },
      ]),
    ).toEqual({
      'vars.appointment_id': 42,
      'vars.name': 'Ana',
      'vars.times': ['9:00', '10:00'],
      'vars.count': 2,
    });
  });

  it('a rule that finds nothing (null) or fails at run time sets nothing', () => {
    expect(
      applySaveRules({ a: 1 }, [
        { from: 'missing', to: 'x' },
        { from: 'length(a)', to: 'y' },
      ]),
    ).toEqual({});
    expect(applySaveRules('plain text', [{ from: 'id', to: 'x' }])).toEqual({});
    expect(
      applySaveRules({ a: false, b: 0 }, [
        { from: 'a', to: 'x' },
        { from: 'b', to: 'y' },
      ]),
    ).toEqual({ x: false, y: 0 });
  });

  it('a variable named __proto__ is an own property and pollutes nothing', () => {
    const out = applySaveRules({ a: { polluted: true } }, [{ from: 'a', to: '__proto__' }]);
    expect(Object.hasOwn(out, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('checkSaveExpression reports invalid expressions for the loader', () => {
    expect(checkSaveExpression('a.b[0].c')).toBeUndefined();
    expect(checkSaveExpression('length(items)')).toBeUndefined();
    expect(checkSaveExpression('a.[')).toMatch(/invalid JMESPath/);
    expect(checkSaveExpression('')).toMatch(/empty/);
    expect(checkSaveExpression('a ||| b')).toMatch(/invalid JMESPath/);
  });
});
