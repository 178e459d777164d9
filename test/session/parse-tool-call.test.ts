import { describe, expect, it } from 'vitest';
import { parseToolArguments } from '../../src/session/parse-tool-call.js';
import {
  checkArgumentLimits,
  nestingDepthExceeds,
  resolveArgumentLimits,
} from '../../src/session/argument-limits.js';

const limits = resolveArgumentLimits();

function errorOf(raw: string): { code: string; message: string } {
  const r = parseToolArguments(raw, limits);
  if (r.ok) throw new Error(`expected an error for ${raw.slice(0, 40)}`);
  return { code: r.error.code, message: r.error.message };
}

describe('parseToolArguments', () => {
  it('parses a JSON object', () => {
    expect(parseToolArguments('{"city":"Bronx","n":2}', limits)).toEqual({
      ok: true,
      args: { city: 'Bronx', n: 2 },
    });
  });
  it('treats an empty or blank string as no arguments', () => {
    expect(parseToolArguments('', limits)).toEqual({ ok: true, args: {} });
    expect(parseToolArguments('  \n', limits)).toEqual({ ok: true, args: {} });
  });
  it.each([
    ['trailing comma', '{"a":1,}', 'position 7'],
    ['single quotes', "{'a':1}", 'position 1'],
    ['NaN value', '{"a":NaN}', 'not valid JSON'],
    ['bare NaN', 'NaN', 'not valid JSON'],
    ['truncated', '{"a":', 'position 5'],
    ['trailing garbage', '{"a":1} x', 'position 8'],
  ])('rejects %s as invalid_arguments quoting where parsing failed', (_label, raw, where) => {
    const e = errorOf(raw);
    expect(e.code).toBe('invalid_arguments');
    expect(e.message).toContain(where);
  });
  it('rejects a fenced ```json block with a hint', () => {
    const e = errorOf('```json\n{"a":1}\n```');
    expect(e.code).toBe('invalid_arguments');
    expect(e.message).toContain('without a code fence');
  });
  it('gives the fence hint after leading blank lines too', () => {
    expect(errorOf('\n  ```json\n{"a":1}\n```').message).toContain('without a code fence');
  });
  it.each([
    ['[1,2]', 'an array'],
    ['null', 'null'],
    ['"x"', 'a string'],
    ['3', 'a number'],
  ])('requires an object, not %s', (raw, kind) => {
    expect(errorOf(raw).message).toContain(`got ${kind}`);
  });
  it('rejects arguments over the size cap before parsing', () => {
    const raw = `{"a":"${'x'.repeat(300 * 1024)}"}`;
    const e = errorOf(raw);
    expect(e.message).toContain('too large');
    const small = resolveArgumentLimits({ maxArgumentBytes: 10 });
    expect(checkArgumentLimits('{"a":"ééééé"}', small)?.code).toBe('invalid_arguments');
    expect(checkArgumentLimits('{"a":1}', small)).toBeUndefined();
  });
  it('counts UTF-8 bytes, not UTF-16 units', () => {
    const l = resolveArgumentLimits({ maxArgumentBytes: 12 });
    expect(checkArgumentLimits('{"a":"éé"}', l)).toBeUndefined(); // 12 bytes
    expect(checkArgumentLimits('{"a":"ééé"}', l)).toBeDefined(); // 14 bytes
  });
  it('rejects 100 000 levels of nesting without a stack overflow', () => {
    const roomy = resolveArgumentLimits({ maxArgumentBytes: 10 * 1024 * 1024 });
    for (const raw of [
      '['.repeat(100_000) + ']'.repeat(100_000),
      '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000),
    ]) {
      const r = parseToolArguments(raw, roomy);
      if (r.ok) throw new Error('expected a depth error');
      const e = r.error;
      expect(e.code).toBe('invalid_arguments');
      expect(e.message).toContain('nested too deeply');
    }
  });
  it('measures depth outside strings only', () => {
    expect(nestingDepthExceeds('{"a":"[[[[[[[[[["}', 2)).toBeUndefined();
    expect(nestingDepthExceeds('{"a":"\\"[[["}', 2)).toBeUndefined();
    expect(nestingDepthExceeds('{"a":[[1]]}', 2)).toBe(6);
    const deep = '{"a":'.repeat(32) + '1' + '}'.repeat(32);
    expect(parseToolArguments(deep, limits).ok).toBe(true);
    expect(parseToolArguments('{"x":' + deep + '}', limits).ok).toBe(false);
  });
  it('keeps __proto__ as plain data and pollutes nothing', () => {
    const r = parseToolArguments(
      '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}}}',
      limits,
    );
    expect(r.ok).toBe(true);
    if (r.ok) expect(Object.hasOwn(r.args, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>)['isAdmin']).toBeUndefined();
    expect(({} as Record<string, unknown>)['x']).toBeUndefined();
  });
});
