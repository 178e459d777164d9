/**
 * Arguments → argv (docs/handlers.md, "Command tools"): subcommand words, `--flag=value` words,
 * booleans as bare flags, arrays repeated, null and false left out, positionals after `--`.
 */
import { describe, expect, it } from 'vitest';
import { buildArgv, flagName } from '../../../src/handlers/command/argv.js';
import type { CommandSpec } from '../../../src/definition/types.js';

const spec = (over: Partial<CommandSpec> = {}): CommandSpec => ({
  name: 'synapse',
  subcommand: ['memory', 'search'],
  positional: [],
  flagCase: 'as_written',
  timeoutSecs: 20,
  ...over,
});

describe('buildArgv', () => {
  it('puts the subcommand first, then one --flag=value word per argument in order', () => {
    expect(buildArgv({ query: 'dentist', limit: 5 }, spec())).toEqual({
      ok: true,
      argv: ['memory', 'search', '--query=dentist', '--limit=5'],
    });
  });

  it('passes true as a bare flag and leaves false, null and undefined out', () => {
    expect(buildArgv({ verbose: true, dry: false, tag: null, x: undefined }, spec())).toEqual({
      ok: true,
      argv: ['memory', 'search', '--verbose'],
    });
  });

  it('repeats the flag for each element of an array and leaves an empty one out', () => {
    expect(buildArgv({ tag: ['a', 'b', 3], none: [] }, spec({ subcommand: [] }))).toEqual({
      ok: true,
      argv: ['--tag=a', '--tag=b', '--tag=3'],
    });
  });

  it('treats each array element as a lone value: true a bare flag, false and null nothing', () => {
    expect(buildArgv({ tag: ['a', null, false, true] }, spec({ subcommand: [] }))).toEqual({
      ok: true,
      argv: ['--tag=a', '--tag'],
    });
  });

  it('passes objects (and arrays inside arrays) as their JSON text', () => {
    expect(buildArgv({ filter: { since: '2024' }, m: [[1, 2]] }, spec({ subcommand: [] }))).toEqual(
      {
        ok: true,
        argv: ['--filter={"since":"2024"}', '--m=[1,2]'],
      },
    );
  });

  it('spells flags by flag_case: camelCase to snake_case or kebab-case', () => {
    expect(flagName('maxResults', 'snake_case')).toBe('max_results');
    expect(flagName('maxResults', 'kebab-case')).toBe('max-results');
    expect(flagName('max_results', 'kebab-case')).toBe('max-results');
    expect(flagName('HTTPTimeout', 'snake_case')).toBe('http_timeout');
    expect(flagName('maxResults', 'as_written')).toBe('maxResults');
    expect(buildArgv({ maxResults: 2 }, spec({ flagCase: 'snake_case' }))).toEqual({
      ok: true,
      argv: ['memory', 'search', '--max_results=2'],
    });
  });

  it('puts positional parameters after `--`, in the order the definition lists them', () => {
    expect(
      buildArgv(
        { b: '-rf', verbose: true, a: ['--x', 'y'] },
        spec({ subcommand: ['add'], positional: ['a', 'b'] }),
      ),
    ).toEqual({ ok: true, argv: ['add', '--verbose', '--', '--x', 'y', '-rf'] });
  });

  it('writes no `--` when no positional has a value', () => {
    expect(buildArgv({ a: null }, spec({ subcommand: [], positional: ['a'] }))).toEqual({
      ok: true,
      argv: [],
    });
  });

  it('keeps a value that looks like a flag inside its own --flag=value word', () => {
    expect(buildArgv({ query: '--delete-all' }, spec({ subcommand: [] }))).toEqual({
      ok: true,
      argv: ['--query=--delete-all'],
    });
  });

  it.each(['-x', '--x', 'a=b', 'a b', '', '_x', 'a\nb'])(
    'refuses the argument name %j as a flag name',
    (name) => {
      const result = buildArgv({ [name]: 'v' }, spec());
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.message).toContain('cannot be a flag name');
    },
  );

  it('refuses a value with a NUL character (no argv can carry one)', () => {
    expect(buildArgv({ q: 'a\u0000b' }, spec())).toMatchObject({ ok: false });
    expect(buildArgv({ q: 'a\u0000b' }, spec({ positional: ['q'] }))).toMatchObject({ ok: false });
  });

  it('never reads an inherited property as an argument', () => {
    const args = JSON.parse('{"__proto__": {"polluted": "yes"}, "q": "a"}') as Record<
      string,
      unknown
    >;
    const result = buildArgv(args, spec({ subcommand: [] }));
    expect(result.ok).toBe(false);
    expect(buildArgv(Object.create({ inherited: 'x' }) as Record<string, unknown>, spec())).toEqual(
      {
        ok: true,
        argv: ['memory', 'search'],
      },
    );
  });
});
