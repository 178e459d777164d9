/** A host's mistakes calling loadTools and mergeToolSets: named at the call, not deep inside. */
import { describe, expect, it, vi } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { mergeToolSets } from '../../src/definition/merge-tool-sets.js';
import { DefinitionError } from '../../src/errors.js';

describe('loadTools options', () => {
  it('a wrong option is a TypeError naming it', async () => {
    await expect(loadTools([], { strict: 'yes' } as never)).rejects.toThrow(
      new TypeError('loadTools: strict: expected true or false, got a string'),
    );
    await expect(loadTools([], { maxFileBytes: 0 })).rejects.toThrow(
      'loadTools: maxFileBytes: expected an integer of at least 1, got 0',
    );
  });

  it('an unknown option is a warning with the nearest name, and loading goes on', async () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      expect((await loadTools([], { strcit: true } as never)).tools.size).toBe(0);
      expect(warn).toHaveBeenCalledWith(
        'strcit: is not a known option (did you mean `strict`?); it is ignored',
        { code: 'SWITCHBOARD_UNKNOWN_OPTION' },
      );
    } finally {
      warn.mockRestore();
    }
  });
});

describe('mergeToolSets', () => {
  it('names what is not a tool set: a Promise (a missing await), a tools file not loaded', () => {
    expect(() => mergeToolSets('x' as never)).toThrow(
      new TypeError('mergeToolSets: expected an array of tool sets, got a string'),
    );
    expect(() => mergeToolSets([loadTools('fixtures/tools/clinic.json')] as never)).toThrow(
      'mergeToolSets: sets[0]: expected a tool set (from `await loadTools(...)`), got a Promise (missing `await`?)',
    );
    expect(() => mergeToolSets([{ tools: [] }] as never)).toThrow(
      'mergeToolSets: sets[0]: expected a tool set (from `await loadTools(...)`), got an object',
    );
  });

  it('a tool defined twice names both files', async () => {
    const clinic = await loadTools('fixtures/tools/clinic.json');
    let error: unknown;
    try {
      mergeToolSets([clinic, clinic]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DefinitionError);
    const issue = (error as DefinitionError).issues[0]!;
    expect(issue.code).toBe('duplicate_tool');
    // The path names the tool, so each duplicate is found by name.
    const name = /^tool "(\w+)"/.exec(issue.message)?.[1];
    expect(name).toBeDefined();
    expect(issue.path).toBe(`tools.${name}`);
    expect(issue.message).toMatch(
      /^tool "\w+" is defined in more than one tools file \(.*clinic\.json, .*clinic\.json\)$/,
    );
    expect((error as DefinitionError).message).toMatch(/^cannot merge tool sets:/);
  });

  it('merges distinct tool sets', async () => {
    const merged = mergeToolSets(
      await Promise.all(
        ['clinic.json', 'telephony.json'].map((f) => loadTools(`fixtures/tools/${f}`)),
      ),
    );
    expect(merged.files).toHaveLength(2);
    expect(merged.tools.size).toBeGreaterThan(1);
  });

  it('keeps the warnings of every set, not only the first', async () => {
    const tool = (name: string, extra: Record<string, unknown>) => ({
      type: 'action',
      tool: { type: 'function', function: { name, parameters: { type: 'object' } } },
      ...extra,
    });
    const a = await loadTools([tool('a', {})], { file: 'a.json' });
    const b = await loadTools([tool('b', { colour: 'red' })], { file: 'b.json' });
    expect(b.warnings).toHaveLength(1);
    const merged = mergeToolSets([a, b]);
    expect([...merged.tools.keys()]).toEqual(['a', 'b']);
    expect(merged.warnings).toEqual(b.warnings);
    expect(merged.warnings[0]).toMatchObject({ code: 'unknown_field', file: 'b.json' });
  });
});
