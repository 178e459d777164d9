import { describe, expect, it } from 'vitest';
import { ValidatorFactory } from '../../src/definition/validator.js';

describe('ValidatorFactory: schema defaults', () => {
  const schema = {
    type: 'object',
    properties: {
      current: { type: 'boolean', default: true },
      opts: { type: 'object', default: { tags: ['a'] } },
    },
    required: ['current'],
  };

  it('never writes into the caller’s object', () => {
    const v = new ValidatorFactory().compile(schema);
    const input = {};
    const result = v.validate(input);
    expect(result).toEqual({ ok: true, value: { current: true, opts: { tags: ['a'] } } });
    expect(input).toEqual({});
  });

  it('makes a fresh default object per call', () => {
    const v = new ValidatorFactory().compile(schema);
    const a = v.validate({});
    const b = v.validate({});
    if (!a.ok || !b.ok) throw new Error('expected both to validate');
    (a.value as { opts: { tags: string[] } }).opts.tags.push('mutated');
    expect((b.value as { opts: unknown }).opts).toEqual({ tags: ['a'] });
  });

  it('returns the input itself when the schema has no default', () => {
    const v = new ValidatorFactory().compile({
      type: 'object',
      properties: { a: { type: 'string' } },
    });
    const input = { a: 'x' };
    const result = v.validate(input);
    expect(result.ok && result.value).toBe(input);
  });

  it('loads but ignores defaults under anyOf/oneOf and at the root', () => {
    const v = new ValidatorFactory().compile({
      type: 'object',
      default: {},
      properties: {
        p: {
          anyOf: [
            { type: 'object', properties: { q: { type: 'string', default: 'x' } } },
            { type: 'string' },
          ],
        },
        r: { oneOf: [{ type: 'object', properties: { s: { type: 'integer', default: 1 } } }] },
      },
    });
    expect(v.validate({ p: {}, r: {} })).toEqual({ ok: true, value: { p: {}, r: {} } });
  });

  it('still refuses an unknown keyword', () => {
    expect(() => new ValidatorFactory().compile({ type: 'object', colour: 'red' })).toThrow(
      /unknown keyword/,
    );
  });
});

describe('ValidatorFactory: defaults for names Object.prototype has', () => {
  it('fills `toString` and `__proto__` as own properties', () => {
    const properties = JSON.parse(
      '{"toString": {"type": "string", "default": "x"}, "__proto__": {"type": "integer", "default": 2}}',
    ) as Record<string, unknown>;
    const v = new ValidatorFactory().compile({
      type: 'object',
      properties,
      required: ['toString', '__proto__'],
    });
    const result = v.validate({});
    if (!result.ok) throw new Error(JSON.stringify(result.failures));
    const value = result.value as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.hasOwn(value, 'toString') && value['toString']).toBe('x');
    expect(Object.getOwnPropertyDescriptor(value, '__proto__')?.value).toBe(2);
  });
});
