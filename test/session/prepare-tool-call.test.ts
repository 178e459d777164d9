/**
 * The stages of `prepareToolCall` a whole-session test does not pin one by one: which arguments
 * the final-size cap measures, how it counts them, and where per-tool overrides are read from.
 */
import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import {
  checkFinalArgumentSize,
  resolveArgumentLimits,
} from '../../src/session/argument-limits.js';
import { prepareToolCall, type PrepareContext } from '../../src/session/prepare-tool-call.js';
import { LazySystemValues } from '../../src/session/session-state.js';
import { fn } from '../reliability/helpers.js';

function context(
  tools: PrepareContext['tools'],
  extra: Partial<PrepareContext> = {},
): PrepareContext {
  return {
    tools,
    limits: resolveArgumentLimits(),
    vars: {},
    system: new LazySystemValues({ systemValues: () => ({}) }),
    onMissingTemplateValue: 'skip',
    ...extra,
  };
}

describe('checkFinalArgumentSize', () => {
  const limits = resolveArgumentLimits({ maxFinalArgumentBytes: 100 });

  it('counts UTF-8 bytes of strings, not UTF-16 units', () => {
    // 60 characters, 120 bytes: under the cap as units, over it as bytes.
    expect(checkFinalArgumentSize({ a: 'é'.repeat(60) }, limits)?.code).toBe('invalid_arguments');
    expect(checkFinalArgumentSize({ a: 'e'.repeat(60) }, limits)).toBeUndefined();
  });

  it('accepts final arguments whose JSON form is exactly the cap, refuses one byte more', () => {
    const at = { a: 'x'.repeat(56), b: [1, 'y'], c: { d: true, e: null } };
    expect(Buffer.byteLength(JSON.stringify(at))).toBe(100);
    expect(checkFinalArgumentSize(at, limits)).toBeUndefined();
    const over = { ...at, a: 'x'.repeat(57) };
    expect(checkFinalArgumentSize(over, limits)?.code).toBe('invalid_arguments');
  });

  it('counts what arrays hold', () => {
    const error = checkFinalArgumentSize({ a: ['x'.repeat(60), 'y'.repeat(60)] }, limits);
    expect(error?.code).toBe('invalid_arguments');
    expect(checkFinalArgumentSize({ a: ['x'.repeat(20), 'y'.repeat(20)] }, limits)).toBeUndefined();
  });
});

describe('checkFinalArgumentSize counts the JSON text exactly', () => {
  /** Passes at its exact JSON size, refused one byte under it. */
  const exactAt = (args: Record<string, unknown>) => {
    const size = Buffer.byteLength(JSON.stringify(args), 'utf8');
    const at = checkFinalArgumentSize(args, resolveArgumentLimits({ maxFinalArgumentBytes: size }));
    const under = checkFinalArgumentSize(
      args,
      resolveArgumentLimits({ maxFinalArgumentBytes: size - 1 }),
    );
    return [at?.code, under?.code];
  };
  const exact = [undefined, 'invalid_arguments'];

  it('escapes: quotes, backslashes, control characters, lone surrogates', () => {
    for (const text of [
      '"'.repeat(40),
      '\\'.repeat(40),
      '\n\t\r\b\f'.repeat(10),
      '\u0000\u0001\u001f'.repeat(10),
      '\u007f\u2028',
      '😀 é ह 😀',
      '\ud800 lone \udc00 and reversed \udc00\ud800',
      'plain',
      '',
    ])
      expect([text, ...exactAt({ [`k"${text}`]: text, list: [text] })]).toEqual([text, ...exact]);
  });

  it('escapes count at any size: strings of quotes far over a sixth of the cap', () => {
    const quotes = '"'.repeat(30_000);
    expect(exactAt({ a: quotes, b: [quotes, { c: quotes }] })).toEqual(exact);
    // Three-byte characters spread over strings, each under a third of what was left.
    const hindi = 'ह'.repeat(30_000);
    expect(exactAt({ a: hindi, b: hindi, c: hindi })).toEqual(exact);
  });

  it('what JSON writes otherwise: empty lists and objects, undefined members, NaN, numbers', () => {
    expect(
      exactAt({
        empty: [],
        none: {},
        gone: undefined,
        f: () => 1,
        holes: [undefined, () => 1, NaN, Infinity, -0, 1e21, 0.1, -5, true, false, null],
        nested: { also: undefined, x: [[], [{}]] },
      }),
    ).toEqual(exact);
  });
});

describe('prepareToolCall', () => {
  it('caps the arguments as the defaults leave them, not as the model sent them', async () => {
    const { tools } = await loadTools([
      {
        type: 'action',
        tool: fn('t', { note: { type: 'string' } }),
        defaults: { a: '{note}', b: '{note}', c: '{note}' },
      },
    ]);
    const ctx = context(tools, { limits: resolveArgumentLimits({ maxFinalArgumentBytes: 200 }) });
    // The model's 70 bytes grow to about 4 × 70 once the defaults copy the note three times.
    const prepared = prepareToolCall('t', JSON.stringify({ note: 'n'.repeat(60) }), ctx);
    expect(prepared.ok).toBe(false);
    if (!prepared.ok) expect(prepared.error.code).toBe('invalid_arguments');
    expect(prepareToolCall('t', JSON.stringify({ note: 'short' }), ctx).ok).toBe(true);
  });

  it('names at most 10 schema failures, however many the arguments have', async () => {
    const { tools } = await loadTools([
      { type: 'action', tool: fn('t', { a: { type: 'string' } }) },
    ]);
    const extra = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, i]));
    const prepared = prepareToolCall('t', JSON.stringify(extra), context(tools));
    if (prepared.ok) throw new Error('expected a schema failure');
    expect(prepared.error.details?.['failures']).toHaveLength(10);
    expect(prepared.error.message.split('; ')).toHaveLength(10);
  });

  it('reads per-tool overrides of a tool named like an Object member from own keys only', async () => {
    const { tools } = await loadTools([
      {
        type: 'action',
        tool: fn('toString'),
        static_parameters: [{ name: 'name', type: 'string', default: 'from the definition' }],
      },
    ]);
    // toolDefaults has no entry for "toString": its inherited method must not be read as one.
    const ctx = context(tools, { toolDefaults: { other: { name: 'x' } } });
    const prepared = prepareToolCall('toString', '{}', ctx);
    expect(prepared.ok && prepared.args).toEqual({ name: 'from the definition' });
  });
});
