/**
 * Format specs the generated differential (python-differential.test.ts) rarely or never draws,
 * each written against a fault seeded into src/transform/format-value.ts that it did not catch
 * (docs/reliability.md, "Faults seeded into the engine that no test caught"). Every expected text
 * is what python3's `str.format` gives for the same template and value.
 */
import { describe, expect, it } from 'vitest';
import { compileTemplate } from '../../src/transform/template.js';

function render(template: string, value: unknown): unknown {
  const t = compileTemplate(template);
  if ('code' in t) throw new Error(t.message);
  return t.render({ x: value }, undefined);
}

describe('format specs, as python3 renders them', () => {
  it.each([
    // Centring puts the odd fill character on the right.
    ['{x:^5}', 'ab', ' ab  '],
    ['{x:^6d}', 42, '  42  '],
    // A width alone, with `d` or no type, still pads an integer.
    ['{x:5d}', 42, '   42'],
    ['{x:5}', 42, '   42'],
    ['{x:<5d}|', 42, '42   |'],
    // `g` switches to exponent form below 1e-4, not at it.
    ['{x:g}', 0.00001, '1e-05'],
    ['{x:g}', 0.0001, '0.0001'],
    // `#` keeps the point with no decimals; no type with a precision keeps a `.0`.
    ['{x:#.0f}', 2.5, '2.'],
    ['{x:.2}', 0.99999, '1.0'],
    // `_` groups binary, octal and hex digits by four, decimal digits by three.
    ['{x:_x}', 0x12345678, '1234_5678'],
    ['{x:_o}', 0o1234567, '123_4567'],
    ['{x:_d}', 1234567, '1_234_567'],
    // A space sign puts a space before a positive number.
    ['{x: d}', 42, ' 42'],
    ['{x: .1f}', 2.5, ' 2.5'],
    // !r quotes a string; !s does not.
    ['{x!r}', 'ab', "'ab'"],
    ['{x!s}', 'ab', 'ab'],
  ])('%s of %j is %j', (template, value, text) => {
    expect(render(template, value)).toBe(text);
  });

  it('a negative zero keeps its sign under a float type, as a Python float does', () => {
    expect(render('{x:.1f}', -0)).toBe('-0.0');
    expect(render('{x:+.0e}', 0)).toBe('+0e+00');
  });
});
