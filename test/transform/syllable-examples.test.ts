/**
 * Golden tests: every example of Syllable's public ToolDefinition docs, as switchboard runs them.
 */
import { describe, expect, it } from 'vitest';
import { compileDefaults } from '../../src/transform/compile-defaults.js';
import type { CompiledDefaults, TransformContext } from '../../src/transform/types.js';

function compile(defaults: Record<string, unknown>): CompiledDefaults {
  const { compiled, issues } = compileDefaults(defaults);
  expect(issues).toEqual([]);
  return compiled;
}

function run(
  defaults: Record<string, unknown>,
  args: Record<string, unknown>,
  context?: TransformContext,
): Record<string, unknown> {
  const out = compile(defaults).apply(args, context);
  if (!out.ok) throw new Error(out.message);
  return out.args;
}

describe("Syllable's ToolDefinition examples", () => {
  it('set_language (a context tool) has no defaults: the arguments pass through unchanged', () => {
    const args = { language: 'es-US', message: 'Ahora hablamos español.' };
    expect(run({}, args)).toEqual(args);
  });

  it('"hospital": "Queens Hospital" fills a missing parameter', () => {
    expect(run({ hospital: 'Queens Hospital' }, { name: 'Ann' })).toEqual({
      name: 'Ann',
      hospital: 'Queens Hospital',
    });
  });

  it('"hospital": "Queens Hospital" keeps what the LLM provided', () => {
    expect(run({ hospital: 'Queens Hospital' }, { hospital: 'Bronx Clinic' })).toEqual({
      hospital: 'Bronx Clinic',
    });
  });

  it('{"transform": {"action": "remove"}} removes an unwanted parameter', () => {
    expect(
      run({ hospital: { transform: { action: 'remove' } } }, { hospital: 'X', name: 'Ann' }),
    ).toEqual({ name: 'Ann' });
  });

  it('tags.hospital from {vars.hospital} and tags.foo from {params.foo}, foo removed afterwards', () => {
    const defaults = {
      'tags.hospital': '{vars.hospital}',
      'tags.foo': '{params.foo}',
      foo: { transform: { action: 'remove' } },
    };
    const out = compile(defaults).apply(
      { foo: 'bar', name: 'Ann' },
      { vars: { 'vars.hospital': 'Queens Hospital' } },
    );
    expect(out).toEqual({
      ok: true,
      args: { name: 'Ann', tags: { hospital: 'Queens Hospital', foo: 'bar' } },
      trace: [
        { key: 'tags.hospital', action: 'default', outcome: 'applied', value: 'Queens Hospital' },
        { key: 'tags.foo', action: 'default', outcome: 'applied', value: 'bar' },
        { key: 'foo', action: 'remove', outcome: 'applied' },
      ],
    });
  });

  it('"hello": {"transform": {"format": "Hello, {name}!"}} adds a parameter built from another', () => {
    expect(run({ hello: { transform: { format: 'Hello, {name}!' } } }, { name: 'Ann' })).toEqual({
      name: 'Ann',
      hello: 'Hello, Ann!',
    });
  });

  describe('Bronx → The Bronx under when', () => {
    const defaults = {
      city: {
        transform: {
          when: { operator: 'eq', key: 'city', value: 'Bronx' },
          action: 'override',
          format: 'The {city}',
        },
      },
    };
    it('rewrites Bronx', () =>
      expect(run(defaults, { city: 'Bronx' })).toEqual({ city: 'The Bronx' }));
    it('leaves Queens alone, with a when_false trace', () => {
      const out = compile(defaults).apply({ city: 'Queens' });
      expect(out).toEqual({
        ok: true,
        args: { city: 'Queens' },
        trace: [{ key: 'city', action: 'override', outcome: 'skipped', reason: 'when_false' }],
      });
    });
    it('does nothing when city is absent', () => expect(run(defaults, {})).toEqual({}));
    it('the same with a literal value "The Bronx"', () => {
      const byValue = {
        city: {
          transform: {
            when: { key: 'city', value: 'Bronx' },
            action: 'override',
            value: 'The Bronx',
          },
        },
      };
      expect(run(byValue, { city: 'Bronx' })).toEqual({ city: 'The Bronx' });
    });
  });

  it('"@remove" and "@override Hello, {name}!"', () => {
    const defaults = { foo: '@remove', name: '@override Hello, {name}!' };
    expect(run(defaults, { foo: 1, name: 'Ann' })).toEqual({ name: 'Hello, Ann!' });
  });
});
