/**
 * Static parameters (merged before defaults, overriding the LLM) and mustache over session
 * variables (no HTML escaping, flat keys nested, own data only).
 */
import { describe, expect, it } from 'vitest';
import type { StaticParameter } from '../../src/definition/types.js';
import { applyStaticParameters } from '../../src/transform/static-parameters.js';
import { checkMustache, renderBounded, renderMustache } from '../../src/expressions/mustache.js';

const units: StaticParameter = {
  name: 'units',
  type: 'string',
  required: false,
  default: 'metric',
};

describe('applyStaticParameters', () => {
  it('merges defaults over what the LLM sent, without mutating', () => {
    const args = { city: 'Paris', units: 'imperial' };
    const out = applyStaticParameters(args, [units]);
    expect(out).toEqual({ city: 'Paris', units: 'metric' });
    expect(args).toEqual({ city: 'Paris', units: 'imperial' });
  });
  it('an override (own key) wins over the default, even when falsy', () => {
    expect(applyStaticParameters({}, [units], { overrides: { units: '' } })).toEqual({ units: '' });
    expect(
      applyStaticParameters({}, [{ name: 'n', type: 'int', required: false, default: 5 }], {
        overrides: { n: 0 },
      }),
    ).toEqual({ n: 0 });
  });
  it('an override of null is a value (null is sent), not a fall-back to the default', () => {
    expect(applyStaticParameters({}, [units], { overrides: { units: null } })).toEqual({
      units: null,
    });
  });
  it('inherited names in overrides are not overrides', () => {
    expect(
      applyStaticParameters(
        {},
        [{ name: 'toString', type: 'string', required: false, default: 'd' }],
        { overrides: {} },
      ),
    ).toEqual({ toString: 'd' });
  });
  it('a parameter with no value is left out', () => {
    expect(
      applyStaticParameters({ a: 1 }, [{ name: 'key', type: 'string', required: true }]),
    ).toEqual({ a: 1 });
  });
  it('string values are mustache templates over session variables, not HTML-escaped', () => {
    const p: StaticParameter = {
      name: 'greeting',
      type: 'string',
      required: false,
      default: 'Hi <{{vars.name}}> & {{vars.session.language}}',
    };
    expect(
      applyStaticParameters({}, [p], {
        vars: { 'vars.name': 'O\'Brien "Bob"' },
        session: { language: 'en-US' },
      }),
    ).toEqual({
      greeting: 'Hi <O\'Brien "Bob"> & en-US',
    });
  });
  it('list values are copied, not shared', () => {
    const list = ['a', 'b'];
    const out = applyStaticParameters({}, [
      { name: 'ds', type: 'data_source_list', required: false, default: list },
    ]);
    (out['ds'] as string[]).push('c');
    expect(list).toEqual(['a', 'b']);
  });
  it('a parameter named __proto__ becomes an own key, not a prototype', () => {
    const out = applyStaticParameters({}, [
      { name: '__proto__', type: 'string', required: false, default: 'x' },
    ]);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toBe('x');
  });
});

describe('renderMustache', () => {
  it.each([
    ['{{vars.hospital}}', { 'vars.hospital': 'Queens' }, 'Queens'],
    ['{{vars.hospital}}', { hospital: 'Queens' }, 'Queens'],
    ['{{vars.a.b}}', { 'vars.a.b': 'flat' }, 'flat'],
    ['{{vars.a.b}}', { a: { b: 'nested' } }, 'nested'],
    ['{{vars.x}}', { x: 'plain', 'vars.x': 'flat wins' }, 'flat wins'],
    // A flat key with an empty segment is ignored: it must not replace `vars.a` with an object.
    ['{{vars.a}}', { a: 'plain', 'vars.a..b': 1 }, 'plain'],
    ['{{vars.tags}}', { tags: ['a', 1] }, '["a",1]'],
    ['{{{vars.obj}}}', { obj: { k: 'v' } }, '{"k":"v"}'],
    ['{{#vars.tags}}[{{.}}]{{/vars.tags}}', { tags: ['a', 'b'] }, '[a][b]'],
    ['{{vars.n}} {{vars.t}}', { n: 3, t: true }, '3 true'],
    ['{{vars.toString}}{{vars.constructor}}{{vars.hasOwnProperty}}|', {}, '|'],
    ['{{vars.missing}}|', {}, '|'],
    ['{{vars.o.constructor}}{{vars.o.toString}}|', { o: { a: 1 } }, '|'],
    // Array.prototype.map, found on the list and called by mustache, threw a TypeError.
    ['{{vars.tags.map}}{{vars.tags.constructor}}|{{vars.tags.length}}', { tags: ['a'] }, '|1'],
    ['no tags & <b>', {}, 'no tags & <b>'],
  ])('%s over %j → %s', (template, vars, expected) => {
    expect(renderMustache(template, { vars })).toBe(expected);
  });
  it('vars.session.* are the system values and win over variables', () => {
    expect(
      renderMustache('{{vars.session.language}} {{vars.session.id}}', {
        vars: { 'vars.session.language': 'fr' },
        session: { language: 'de', id: 's1' },
      }),
    ).toBe('de s1');
  });
  it('a system value the session does not have leaves a variable of that name as it is', () => {
    expect(
      renderMustache('{{vars.session.language}} {{vars.session.id}}', {
        vars: { 'vars.session.language': 'fr' },
        session: { language: undefined, id: 's1' },
      }),
    ).toBe('fr s1');
  });
  it('checkMustache reports broken templates; renderMustache throws on them', () => {
    expect(checkMustache('{{#a}}x')).toContain('Unclosed section');
    expect(checkMustache('{{vars.a}}')).toBeUndefined();
    expect(() => renderMustache('{{#a}}x', {})).toThrow();
  });
});

describe('applyStaticParameters overrides', () => {
  it('an override that is undefined falls back to the default', () => {
    expect(applyStaticParameters({}, [units], { overrides: { units: undefined } })).toEqual({
      units: 'metric',
    });
  });
});

describe('renderBounded (workflow templates) keeps to its maxChars exactly', () => {
  const bounds = (maxChars: number) => ({
    maxChars,
    step: () => undefined,
    tooLarge: () => new Error('too large'),
  });

  it('an output of exactly maxChars is rendered; one character more is refused', () => {
    expect(renderBounded('{{x}}', { x: 'abcd' }, bounds(4))).toBe('abcd');
    expect(() => renderBounded('{{x}}', { x: 'abcd' }, bounds(3))).toThrow('too large');
  });

  it('a text without tags is held to the cap as well', () => {
    expect(renderBounded('abcd', {}, bounds(4))).toBe('abcd');
    expect(() => renderBounded('abcde', {}, bounds(4))).toThrow('too large');
  });
});
