/**
 * Load errors of `defaults`: one case per kind, asserting code, severity, path and message.
 */
import { describe, expect, it } from 'vitest';
import { compileDefaults } from '../../src/transform/compile-defaults.js';
import type { DefinitionIssue } from '../../src/errors.js';

const BASE = 'tools[2].defaults';

function issuesOf(defaults: Record<string, unknown>): readonly DefinitionIssue[] {
  return compileDefaults(defaults, { path: BASE }).issues;
}

function only(defaults: Record<string, unknown>): DefinitionIssue {
  const issues = issuesOf(defaults);
  expect(issues).toHaveLength(1);
  return issues[0] as DefinitionIssue;
}

describe('load errors', () => {
  it('unknown @verb says how to write a literal', () => {
    const issue = only({ email: '@gmail.com' });
    expect(issue).toMatchObject({
      code: 'unknown_verb',
      severity: 'error',
      path: `${BASE}["email"]`,
    });
    expect(issue.message).toContain('"@gmail.com"');
    expect(issue.message).toContain('{"transform":{"value":"@gmail.com"}}');
  });

  it('the literal form it suggests is accepted and writes the string', () => {
    const { compiled, issues } = compileDefaults({ email: { transform: { value: '@gmail.com' } } });
    expect(issues).toEqual([]);
    expect(compiled.apply({})).toMatchObject({ ok: true, args: { email: '@gmail.com' } });
  });

  it('value and format together', () => {
    const issue = only({ a: { transform: { value: 1, format: '{b}' } } });
    expect(issue).toMatchObject({
      code: 'value_and_format',
      severity: 'error',
      path: `${BASE}["a"].transform`,
    });
    const result = compileDefaults({ a: { transform: { value: 1, format: '{b}' } } });
    expect(result.compiled.rules[0]).toMatchObject({ key: 'a', hasValueAndFormat: true });
  });

  it.each(['a..b', '.a', 'a.', ''])('degenerate key %j', (key) => {
    const issue = only({ [key]: 1 });
    expect(issue).toMatchObject({
      code: 'invalid_key',
      severity: 'error',
      path: `${BASE}[${JSON.stringify(key)}]`,
    });
    expect(issue.message).toContain('empty segment');
  });

  it.each([
    '__proto__.x',
    'constructor.prototype.x',
    'a.__proto__.b',
    'prototype',
    'a.constructor',
  ])('forbidden segment in key %j', (key) => {
    const defaults = JSON.parse(`{${JSON.stringify(key)}: 1}`) as Record<string, unknown>;
    const issue = only(defaults);
    expect(issue).toMatchObject({
      code: 'forbidden_segment',
      severity: 'error',
      path: `${BASE}[${JSON.stringify(key)}]`,
    });
    expect(({} as Record<string, unknown>)['x']).toBeUndefined();
  });

  it('a key that is exactly "__proto__" (own key from JSON.parse) is refused', () => {
    const issue = only(JSON.parse('{"__proto__": 1}') as Record<string, unknown>);
    expect(issue).toMatchObject({ code: 'forbidden_segment', path: `${BASE}["__proto__"]` });
  });

  it('forbidden segment in when.key', () => {
    const issue = only({
      a: { transform: { when: { key: 'b.__proto__.c', value: 1 }, value: 2 } },
    });
    expect(issue).toMatchObject({
      code: 'forbidden_segment',
      severity: 'error',
      path: `${BASE}["a"].transform.when.key`,
    });
  });

  it.each(['{name.__proto__}', '{constructor}', '{vars.x.prototype}', '{a[constructor]}'])(
    'forbidden segment in template %j',
    (format) => {
      const issue = only({ a: format });
      expect(issue).toMatchObject({
        code: 'forbidden_segment',
        severity: 'error',
        path: `${BASE}["a"]`,
      });
    },
  );

  it.each([
    ['Hello {name', 6, "single '{'"],
    ['Hello name}', 10, "single '}'"],
    ['{', 0, "single '{'"],
    ['}', 0, "single '}'"],
    ['a {b{c}}', 4, "unexpected '{'"],
  ])('template syntax %j reports position %d', (format, position, text) => {
    const issue = only({ a: { transform: { format } } });
    expect(issue).toMatchObject({
      code: 'template_syntax',
      severity: 'error',
      path: `${BASE}["a"].transform.format`,
    });
    expect(issue.message).toContain(text);
    expect(issue.message).toContain(`position ${position}`);
  });

  it('a when with both "all" and "any" is refused, not read as one of them', () => {
    const issue = only({
      x: { transform: { value: 1, when: { all: [{ key: 'a', value: 1 }], any: [] } } },
    });
    expect(issue).toMatchObject({
      code: 'invalid_when',
      severity: 'error',
      path: `${BASE}["x"].transform.when`,
    });
    expect(issue.message).toContain('either "all" or "any"');
  });

  it('a template field or when.key of 33 segments is refused, 32 are fine', () => {
    const path = (n: number): string => ['a', ...Array<string>(n - 1).fill('b')].join('.');
    expect(issuesOf({ x: `{${path(32)}}` })).toEqual([]);
    expect(only({ x: `{${path(33)}}` }).message).toContain('33 segments; at most 32');
    const when = (n: number) => ({
      x: { transform: { value: 1, when: { key: path(n), operator: 'exists' } } },
    });
    expect(issuesOf(when(32))).toEqual([]);
    expect(only(when(33)).message).toContain('33 segments; at most 32');
  });

  it.each(['{x:>1000000000}', '{x:.20000f}', '{x:10001}'])(
    'huge width or precision %j is refused',
    (format) => {
      const issue = only({ a: format });
      expect(issue).toMatchObject({
        code: 'template_limit',
        severity: 'error',
        path: `${BASE}["a"]`,
      });
    },
  );

  it.each([
    ['{x:q}', 'unsupported format type'],
    ['{x!a}', 'conversion'],
    ['{x:{w}}', 'nested'],
    ['{0}', 'positional'],
    ['{}', 'positional'],
    ['{x:.}', 'missing precision'],
    ['{x:,_}', "both ',' and '_'"],
    ['{vars}', 'name a variable'],
    ['{a.}', 'empty attribute'],
  ])('unsupported template %j', (format, text) => {
    const issue = only({ a: format });
    expect(issue.code).toBe('template_syntax');
    expect(issue.message).toContain(text);
  });

  it('unknown action', () => {
    const issue = only({ a: { transform: { action: 'replace', value: 1 } } });
    expect(issue).toMatchObject({
      code: 'invalid_action',
      severity: 'error',
      path: `${BASE}["a"].transform.action`,
    });
    expect(issue.message).toContain('"replace"');
  });

  it('transform that is not an object', () => {
    expect(only({ a: { transform: 'x' } })).toMatchObject({
      code: 'invalid_rule',
      path: `${BASE}["a"].transform`,
    });
  });

  it('format that is not a string', () => {
    expect(only({ a: { transform: { format: 3 } } })).toMatchObject({
      code: 'invalid_rule',
      path: `${BASE}["a"].transform.format`,
    });
  });

  it('default/override without value or format is ignored with a warning (as Syllable examples write it)', () => {
    expect(only({ a: { transform: { action: 'override' } } })).toMatchObject({
      code: 'no_value',
      severity: 'warning',
      path: `${BASE}["a"].transform`,
    });
  });

  it('"value": null with "format" null writes null; beside a format it is the unset field', () => {
    // Syllable's API writes every unset field as null, so a rule created to write null comes
    // back { value: null, format: null }: that is a value, not the no_value case.
    const writesNull = compileDefaults({
      a: { transform: { action: 'override', value: null, format: null } },
    });
    expect(writesNull.issues).toEqual([]);
    expect(writesNull.compiled.apply({ a: 'm' }, { vars: {} })).toMatchObject({
      ok: true,
      args: { a: null },
    });
    const formatted = compileDefaults({
      a: { transform: { action: 'override', value: null, format: '{b}!' } },
    });
    expect(formatted.issues).toEqual([]);
    expect(formatted.compiled.apply({ a: 'm', b: 'x' }, { vars: {} })).toMatchObject({
      ok: true,
      args: { a: 'x!' },
    });
  });

  it('"@remove something" is refused', () => {
    expect(only({ a: '@remove now' })).toMatchObject({
      code: 'invalid_rule',
      severity: 'error',
      path: `${BASE}["a"]`,
    });
  });

  it.each([
    [{ operator: 'matches', key: 'a', value: 'x' }, '.operator', 'unknown operator'],
    [{ value: 'x' }, '.key', 'needs a "key"'],
    [{ key: 'a', operator: 'in', value: 'x' }, '.value', 'list'],
    [{ key: 'a', operator: 'eq' }, '.value', 'needs a "value"'],
    [
      {
        all: [
          { key: 'a', value: 1 },
          { key: 'b', operator: 'like', value: 1 },
        ],
      },
      '.all[1].operator',
      'unknown operator',
    ],
    [{ any: 'x' }, '.any', 'list'],
    [{ key: 'a', value: 1, op: 'eq' }, '.op', 'unknown field'],
    ['city', '', 'must be an object'],
  ])('invalid when %j', (when, sub, text) => {
    const issue = only({ a: { transform: { when, value: 1 } } });
    expect(issue).toMatchObject({
      code: 'invalid_when',
      severity: 'error',
      path: `${BASE}["a"].transform.when${sub}`,
    });
    expect(issue.message).toContain(text);
  });

  it('a format on remove is an ignored_value warning too', () => {
    const issue = only({ a: { transform: { action: 'remove', format: '{b}' } } });
    expect(issue).toMatchObject({
      code: 'ignored_value',
      severity: 'warning',
      path: `${BASE}["a"].transform`,
    });
    expect(issue.message).toContain('"format"');
  });

  it('a rule key of 33 segments is refused, 32 are fine', () => {
    const key = (n: number): string => ['a', ...Array<string>(n - 1).fill('b')].join('.');
    expect(issuesOf({ [key(32)]: 1 })).toEqual([]);
    expect(only({ [key(33)]: 1 })).toMatchObject({ code: 'invalid_key', severity: 'error' });
    expect(only({ [key(33)]: 1 }).message).toContain('33 segments; at most 32');
  });

  it("the 'z' option of a format spec is refused by name", () => {
    const issue = only({ x: '{y:z}' });
    expect(issue).toMatchObject({ code: 'template_syntax', severity: 'error' });
    expect(issue.message).toContain("the 'z' option is not supported");
    expect(only({ x: '{y:z.2f}' }).message).toContain("the 'z' option is not supported");
  });

  it('warnings: unknown transform field, value on remove', () => {
    const issues = issuesOf({ a: { transform: { action: 'remove', value: 1, acton: 'x' } } });
    expect(issues.map((i) => [i.code, i.severity, i.path])).toEqual([
      ['unknown_field', 'warning', `${BASE}["a"].transform.acton`],
      ['ignored_value', 'warning', `${BASE}["a"].transform`],
    ]);
  });

  it('every error is reported, not just the first', () => {
    const issues = issuesOf({ 'a..b': '@nope', c: '{', d: 1 });
    expect(issues.map((i) => i.code)).toEqual(['invalid_key', 'unknown_verb', 'template_syntax']);
  });

  it('the default base path is "defaults"', () => {
    expect(compileDefaults({ a: '@x' }).issues[0]?.path).toBe('defaults["a"]');
  });

  it('exposes templateFields and whenKeys for the loader lint', () => {
    const { compiled } = compileDefaults({
      x: {
        transform: {
          when: {
            all: [{ key: 'city', value: 'a' }, { any: [{ key: 'vars.zone', operator: 'exists' }] }],
          },
          format: '{name} {params.age} {vars.a.b[0]} {name}',
        },
      },
    });
    expect(compiled.rules[0]).toMatchObject({
      templateFields: ['name', 'params.age', 'vars.a.b'],
      whenKeys: ['city', 'vars.zone'],
      hasValueAndFormat: false,
    });
  });
});
