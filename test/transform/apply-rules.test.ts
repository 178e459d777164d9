/**
 * Every decision of SPEC §2 about applying rules, pinned: forms, actions, emptiness, order, dotted
 * keys, when, session variables, missing values, copying.
 */
import { describe, expect, it } from 'vitest';
import { compileDefaults } from '../../src/transform/compile-defaults.js';
import type { TransformContext, TransformOutcome } from '../../src/transform/types.js';

function apply(
  defaults: Record<string, unknown>,
  args: Record<string, unknown>,
  context?: TransformContext,
): TransformOutcome {
  const { compiled, issues } = compileDefaults(defaults);
  expect(issues.filter((i) => i.severity === 'error')).toEqual([]);
  return compiled.apply(args, context);
}

function argsOf(
  defaults: Record<string, unknown>,
  args: Record<string, unknown>,
  context?: TransformContext,
): Record<string, unknown> {
  const out = apply(defaults, args, context);
  if (!out.ok) throw new Error(out.message);
  return out.args;
}

describe('rule forms', () => {
  it('plain string = default + template', () => {
    expect(argsOf({ a: 'x{b}' }, { b: 1 })).toEqual({ a: 'x1', b: 1 });
    expect(argsOf({ a: 'x{b}' }, { a: 'kept', b: 1 })).toEqual({ a: 'kept', b: 1 });
  });
  it('"@default <fmt>" keeps the rest verbatim (after the first space only)', () => {
    expect(argsOf({ a: '@default  two  spaces {b}' }, { b: 'B' })).toEqual({
      a: ' two  spaces B',
      b: 'B',
    });
  });
  it('"@override" with nothing after it writes the empty string', () => {
    expect(argsOf({ a: '@override' }, { a: 'x' })).toEqual({ a: '' });
  });
  it.each([[5], [0], [false], [true], [[1, 2]], [{ x: 1 }], [null]])(
    'literal %j = default + value',
    (value) => {
      expect(argsOf({ a: value }, {})).toEqual({ a: value });
    },
  );
  it('an object with a transform key plus other keys is a literal value', () => {
    const value = { transform: { action: 'remove' }, other: 1 };
    expect(argsOf({ a: value }, {})).toEqual({ a: value });
  });
  it('transform action defaults to default', () => {
    expect(argsOf({ a: { transform: { value: 1 } } }, { a: 2 })).toEqual({ a: 2 });
  });
});

describe('actions and emptiness', () => {
  it.each([[{}], [{ a: null }], [{ a: '' }], [{ a: [] }], [{ a: {} }]])(
    'default fills an empty target %j',
    (args) => {
      expect(argsOf({ a: 'v' }, args)).toEqual({ a: 'v' });
    },
  );
  it.each([[0], [false], [' '], [[0]], [{ k: null }]])('default keeps %j (not empty)', (value) => {
    const out = apply({ a: 'v' }, { a: value });
    expect(out).toEqual({
      ok: true,
      args: { a: value },
      trace: [{ key: 'a', action: 'default', outcome: 'skipped', reason: 'not_empty' }],
    });
  });
  it('override always sets', () =>
    expect(argsOf({ a: '@override v' }, { a: 0 })).toEqual({ a: 'v' }));
  it('remove of an absent target is skipped with reason absent', () => {
    expect(apply({ a: '@remove' }, {})).toMatchObject({
      trace: [{ key: 'a', outcome: 'skipped', reason: 'absent' }],
    });
  });
  it('remove of a name only the object prototype has (toString) is skipped as absent', () => {
    expect(apply({ toString: '@remove' }, { a: 1 })).toMatchObject({
      args: { a: 1 },
      trace: [{ key: 'toString', outcome: 'skipped', reason: 'absent' }],
    });
  });
  it('remove of a nested target', () => {
    expect(argsOf({ 'a.b': '@remove' }, { a: { b: 1, c: 2 } })).toEqual({ a: { c: 2 } });
  });
});

describe('order', () => {
  it('each template sees the arguments as they stand just before it', () => {
    const defaults = { b: '@override {a}!', c: '{b}?', a: '@override A' };
    expect(argsOf(defaults, { a: 'x' })).toEqual({ a: 'A', b: 'x!', c: 'x!?' });
  });
  it('a later remove does not undo what an earlier template read', () => {
    expect(argsOf({ copy: '{foo}', foo: '@remove' }, { foo: 'F' })).toEqual({ copy: 'F' });
  });
  it('a template after a remove sees the value missing', () => {
    expect(apply({ foo: '@remove', copy: '{foo}' }, { foo: 'F' })).toMatchObject({
      ok: true,
      args: {},
      trace: [
        { outcome: 'applied' },
        {
          key: 'copy',
          outcome: 'skipped',
          reason: 'missing_value',
          detail: 'template field {foo} names a missing value',
        },
      ],
    });
  });
});

describe('dotted keys', () => {
  it('creates missing intermediates as objects', () => {
    expect(argsOf({ 'a.b.c': 1 }, {})).toEqual({ a: { b: { c: 1 } } });
  });
  it('keeps siblings of existing intermediates', () => {
    expect(argsOf({ 'a.b': 1 }, { a: { x: 2 } })).toEqual({ a: { x: 2, b: 1 } });
  });
  it.each([['str'], [3], [[1]], [true]])(
    'an intermediate %j that is not an object skips with not_an_object',
    (value) => {
      expect(apply({ 'a.b': '@override 1' }, { a: value })).toEqual({
        ok: true,
        args: { a: value },
        trace: [
          {
            key: 'a.b',
            action: 'override',
            outcome: 'skipped',
            reason: 'not_an_object',
            detail: 'an intermediate of "a.b" is not an object',
          },
        ],
      });
    },
  );
  it('an intermediate that is null is not an object either (never clobbered)', () => {
    expect(apply({ 'a.b': 1 }, { a: null })).toMatchObject({
      args: { a: null },
      trace: [{ reason: 'not_an_object' }],
    });
  });
  it('keys that merely look special behave like any other', () => {
    const out = argsOf({ toString: 'x', 'hasOwnProperty.valueOf': 'y' }, {});
    expect(Object.keys(out)).toEqual(['toString', 'hasOwnProperty']);
    expect(out['toString']).toBe('x');
    expect(out['hasOwnProperty']).toEqual({ valueOf: 'y' });
  });
  it('an inherited name is not taken for a present value', () => {
    expect(argsOf({ toString: 'x' }, {})).toEqual({ toString: 'x' });
    expect(apply({ copy: '{toString}' }, {})).toMatchObject({
      trace: [{ reason: 'missing_value' }],
    });
  });
});

describe('when', () => {
  const rule = (when: unknown): Record<string, unknown> => ({
    hit: { transform: { when, action: 'override', value: true } },
  });
  const hits = (
    when: unknown,
    args: Record<string, unknown>,
    context?: TransformContext,
  ): boolean => argsOf(rule(when), args, context)['hit'] === true;

  it.each([
    [5, '5'],
    ['5', 5],
    [2.5, '2.5'],
    [true, 'true'],
    [true, 'True'],
    [false, 'false'],
    ['true', true],
    [null, 'null'],
    [null, 'None'],
    [null, null],
    ['Bronx', 'Bronx'],
  ])('eq: argument %j matches %j', (arg, value) => {
    expect(hits({ key: 'k', value }, { k: arg })).toBe(true);
  });
  it.each([
    [5, '5.0'],
    ['bronx', 'Bronx'],
    [true, 'TRUE'],
    [true, 1],
    [0, false],
    ['', null],
  ])('eq: argument %j does not match %j', (arg, value) => {
    expect(hits({ key: 'k', value }, { k: arg })).toBe(false);
  });
  it('eq compares arrays and objects as JSON, key order aside', () => {
    expect(hits({ key: 'k', value: { a: 1, b: [1] } }, { k: { b: [1], a: 1 } })).toBe(true);
    expect(hits({ key: 'k', value: [1, 2] }, { k: [2, 1] })).toBe(false);
  });
  it('an absent key never matches eq, and always matches ne', () => {
    expect(hits({ key: 'k', value: 'x' }, {})).toBe(false);
    expect(hits({ key: 'k', operator: 'ne', value: 'x' }, {})).toBe(true);
    expect(hits({ key: 'k', operator: 'ne', value: 'x' }, { k: 'x' })).toBe(false);
  });
  it('in / not_in', () => {
    expect(hits({ key: 'k', operator: 'in', value: ['a', 5] }, { k: '5' })).toBe(true);
    expect(hits({ key: 'k', operator: 'in', value: ['a'] }, {})).toBe(false);
    expect(hits({ key: 'k', operator: 'not_in', value: ['a'] }, {})).toBe(true);
    expect(hits({ key: 'k', operator: 'not_in', value: ['a'] }, { k: 'a' })).toBe(false);
  });
  it('exists / not_exists (null counts as not existing)', () => {
    expect(hits({ key: 'k', operator: 'exists' }, { k: 0 })).toBe(true);
    expect(hits({ key: 'k', operator: 'exists' }, { k: null })).toBe(false);
    expect(hits({ key: 'k', operator: 'not_exists' }, {})).toBe(true);
  });
  it('nested paths, all / any lists, and a bare list meaning all', () => {
    const args = { address: { city: 'Bronx' }, n: 3 };
    expect(hits({ key: 'address.city', value: 'Bronx' }, args)).toBe(true);
    expect(
      hits(
        {
          all: [
            { key: 'address.city', value: 'Bronx' },
            { key: 'n', value: 3 },
          ],
        },
        args,
      ),
    ).toBe(true);
    expect(
      hits(
        {
          all: [
            { key: 'address.city', value: 'Bronx' },
            { key: 'n', value: 4 },
          ],
        },
        args,
      ),
    ).toBe(false);
    expect(hits({ any: [{ key: 'n', value: 4 }, { all: [{ key: 'n', value: '3' }] }] }, args)).toBe(
      true,
    );
    expect(
      hits(
        [
          { key: 'n', value: 3 },
          { key: 'x', operator: 'not_exists' },
        ],
        args,
      ),
    ).toBe(true);
  });
  it('vars.x in when.key reads session variables (flat key, then nested), and params.x reads arguments', () => {
    expect(hits({ key: 'vars.zone', value: 'A' }, {}, { vars: { 'vars.zone': 'A' } })).toBe(true);
    expect(hits({ key: 'vars.zone', value: 'A' }, {}, { vars: { zone: 'A' } })).toBe(true);
    expect(
      hits(
        { key: 'vars.session.language', value: 'es-US' },
        {},
        { session: { language: 'es-US' } },
      ),
    ).toBe(true);
    expect(hits({ key: 'params.k', value: 1 }, { k: 1 })).toBe(true);
  });
  it('when sees the evolving arguments', () => {
    const defaults = {
      k: '@override B',
      hit: { transform: { when: { key: 'k', value: 'B' }, value: 1 } },
    };
    expect(argsOf(defaults, { k: 'A' })).toEqual({ k: 'B', hit: 1 });
  });
});

describe('session variables in templates', () => {
  const ctx: TransformContext = {
    vars: {
      'vars.location_name': 'Queens',
      'vars.a.b': 'flat',
      a: { b: 'nested', c: 'only nested' },
      list: ['x', 'y'],
    },
    session: { id: 's1', language: 'en-US', timezone: 'America/New_York' },
  };
  it.each([
    ['{vars.location_name}', 'Queens'],
    ['{vars.a.b}', 'flat'],
    ['{vars.a.c}', 'only nested'],
    ['{vars.list[1]}', 'y'],
    [
      '{vars.session.language}/{vars.session.timezone}/{vars.session.id}',
      'en-US/America/New_York/s1',
    ],
  ])('%s → %s', (format, expected) => {
    expect(argsOf({ out: format }, {}, ctx)['out']).toBe(expected);
  });
  it('system values win over a variable of the same name', () => {
    expect(
      argsOf(
        { out: '{vars.session.language}' },
        {},
        { vars: { 'vars.session.language': 'fr' }, session: { language: 'de' } },
      )['out'],
    ).toBe('de');
  });
  it('a session value that is absent falls back to the variables', () => {
    expect(
      argsOf({ out: '{vars.session.language}' }, {}, { vars: { 'vars.session.language': 'fr' } })[
        'out'
      ],
    ).toBe('fr');
  });
});

describe('templates reach own data only', () => {
  const args = { name: 'Ann', list: [1, 2], obj: { a: 1 } };
  it.each([
    '{name.__class__}',
    '{name.length}',
    '{list.length}',
    '{name[0]}',
    '{obj.toString}',
    '{obj.hasOwnProperty}',
    '{vars.toString}',
    '{list[-1]}',
    '{list[2]}',
    '{params.valueOf}',
  ])('%s is missing', (format) => {
    expect(apply({ out: format }, args, { vars: {} })).toMatchObject({
      ok: true,
      args,
      trace: [{ reason: 'missing_value' }],
    });
  });
  it('getters are never invoked', () => {
    let called = false;
    const vars = Object.defineProperty({}, 'vars.x', {
      enumerable: true,
      get: () => ((called = true), 'secret'),
    }) as Record<string, unknown>;
    expect(apply({ out: '{vars.x}' }, {}, { vars })).toMatchObject({
      trace: [{ reason: 'missing_value' }],
    });
    expect(called).toBe(false);
  });
  it('{params} is the whole argument object, as compact JSON', () => {
    expect(argsOf({ out: '{params}' }, { a: 1 })['out']).toBe('{"a":1}');
  });
  it('values render the Python way', () => {
    const out = argsOf(
      { out: '{t} {f} {n} {i} {x} {l} {o} {big} {tiny} {s!r}' },
      {
        t: true,
        f: false,
        n: null,
        i: 3,
        x: 2.5,
        l: [1, 'a'],
        o: { k: 'v' },
        big: 1e21,
        tiny: 1e-7,
        s: "it's",
      },
    );
    expect(out['out']).toBe(
      `True False None 3 2.5 [1,"a"] {"k":"v"} 1000000000000000000000 1e-07 "it's"`,
    );
  });
});

describe('repr of control characters', () => {
  it('{s!r} escapes DEL as \\x7f, as Python does, like the C0 controls', () => {
    expect(argsOf({ out: '{s!r}' }, { s: 'a\u007fb\u0001' })['out']).toBe("'a\\x7fb\\x01'");
  });
});

describe('missing and invalid template values', () => {
  it('skip (default policy): the argument is left as it was, with a trace entry', () => {
    expect(apply({ a: '@override {b}' }, { a: 1 })).toEqual({
      ok: true,
      args: { a: 1 },
      trace: [
        {
          key: 'a',
          action: 'override',
          outcome: 'skipped',
          reason: 'missing_value',
          detail: 'template field {b} names a missing value',
        },
      ],
    });
  });
  it('error policy: a typed failure naming the field', () => {
    const out = apply(
      { x: 1, a: '@override {vars.zone}' },
      {},
      { onMissingTemplateValue: 'error', vars: {} },
    );
    expect(out).toEqual({
      ok: false,
      code: 'missing_template_value',
      message: 'cannot set "a": template field {vars.zone} names a missing value',
      trace: [{ key: 'x', action: 'default', outcome: 'applied', value: 1 }],
    });
  });
  it('a value of the wrong type for its spec is a format_error skip (Python ValueError)', () => {
    expect(apply({ a: '{b:d}' }, { b: 'text' })).toMatchObject({
      ok: true,
      args: { b: 'text' },
      trace: [
        {
          key: 'a',
          outcome: 'skipped',
          reason: 'format_error',
          detail: expect.stringContaining(
            "unknown format code 'd' for object of type 'str'",
          ) as unknown,
        },
      ],
    });
  });
  it('under the error policy a format error is a missing_template_value failure too', () => {
    expect(apply({ a: '{b:d}' }, { b: 'text' }, { onMissingTemplateValue: 'error' })).toMatchObject(
      { ok: false, code: 'missing_template_value' },
    );
  });
  it('the rendered length is capped', () => {
    const big = 'x'.repeat(200_000);
    const out = apply({ a: '{b}{b}{b}{b}{b}{b}' }, { b: big });
    expect(out).toMatchObject({
      ok: true,
      trace: [{ reason: 'format_error', detail: expect.stringContaining('exceeds') as unknown }],
    });
  });
  it.each([
    ['a lone string field', '{b}', (n: number) => ({ b: 'x'.repeat(n) })],
    ['a lone field with a conversion', '{b!s}', (n: number) => ({ b: 'x'.repeat(n) })],
    ['several parts', '{b}{c}', (n: number) => ({ b: 'x'.repeat(n - 1), c: 'y' })],
  ])('%s renders exactly 1,000,000 characters; one more is a format_error', (_l, tpl, args) => {
    const fits = apply({ a: tpl }, args(1_000_000));
    expect(fits.ok && (fits.args['a'] as string).length).toBe(1_000_000);
    expect(apply({ a: tpl }, args(1_000_001))).toMatchObject({
      ok: true,
      trace: [{ reason: 'format_error', detail: expect.stringContaining('exceeds') as unknown }],
    });
  });
  it('a default whose target has a value never renders (no spurious missing warnings)', () => {
    expect(apply({ a: '{nothing}' }, { a: 'x' })).toMatchObject({
      trace: [{ reason: 'not_empty' }],
    });
  });
});

describe('copying and immutability', () => {
  it('value is copied, never shared with the definition or between calls', () => {
    const defaults = { tags: ['a'], meta: { k: { deep: 1 } } };
    const { compiled } = compileDefaults(defaults);
    const first = compiled.apply({});
    if (!first.ok) throw new Error('unexpected');
    (first.args['tags'] as string[]).push('mutated');
    ((first.args['meta'] as Record<string, Record<string, number>>)['k'] as Record<string, number>)[
      'deep'
    ] = 99;
    expect(defaults).toEqual({ tags: ['a'], meta: { k: { deep: 1 } } });
    expect(compiled.apply({})).toMatchObject({ args: { tags: ['a'], meta: { k: { deep: 1 } } } });
  });
  it('mutating the definition after compiling does not change the rules', () => {
    const defaults: Record<string, unknown> = { tags: ['a'] };
    const { compiled } = compileDefaults(defaults);
    (defaults['tags'] as string[]).push('b');
    expect(compiled.apply({})).toMatchObject({ args: { tags: ['a'] } });
  });
  it('never mutates the arguments, even nested ones it writes under', () => {
    const args = { a: { b: { c: 1 } }, x: 1 };
    const snapshot = structuredClone(args);
    const out = argsOf({ 'a.b.d': 2, 'a.b.c': '@remove', x: '@remove' }, args);
    expect(args).toEqual(snapshot);
    expect(out).toEqual({ a: { b: { d: 2 } } });
  });
  it('untouched nested objects may be shared with the input (copy-on-write of the touched path only)', () => {
    const args = { untouched: { big: [1, 2, 3] }, a: { b: 1 } };
    const out = argsOf({ 'a.c': 2 }, args);
    expect(out['untouched']).toBe(args.untouched);
    expect(out['a']).not.toBe(args.a);
  });
});

describe('key order of the result (as sequential writes to a plain object would give)', () => {
  it('existing keys keep their place, new keys go last', () => {
    expect(
      Object.keys(argsOf({ a: '@override 1', z: 1, 'm.n': 2 }, { m: { x: 1 }, a: 0, b: 0 })),
    ).toEqual(['m', 'a', 'b', 'z']);
  });
  it('a key removed and written again goes last', () => {
    expect(
      Object.keys(
        argsOf(
          { a: '@remove', b: '@override 2', a2: '@remove', 'a ': 1, a3: 1 },
          { a: 1, b: 1, c: 1 },
        ),
      ),
    ).toEqual(['b', 'c', 'a ', 'a3']);
    expect(
      Object.keys(argsOf({ a: '@remove', x: 1, b: '@remove', 'b.c': 1 }, { a: 1, b: 1, c: 1 })),
    ).toEqual(['c', 'x', 'b']);
    const out = argsOf({ a: '@remove', b: 2, 'a.x': 1 }, { a: 1, c: 1 });
    expect(out).toEqual({ c: 1, b: 2, a: { x: 1 } });
    expect(Object.keys(out)).toEqual(['c', 'b', 'a']);
  });
  it('remove then default on the same key sees it absent', () => {
    expect(argsOf({ a: '@remove', 'a ': '{a}' }, { a: 'x' })).toEqual({});
    expect(apply({ a: '@remove', b: '@remove' }, { a: 1 })).toMatchObject({
      args: {},
      trace: [{ outcome: 'applied' }, { reason: 'absent' }],
    });
  });
  it('a nested remove rebuilds only the touched path', () => {
    const args = { a: { b: { c: 1, d: 2 }, keep: { k: 1 } } };
    const out = argsOf({ 'a.b.c': '@remove' }, args);
    expect(out).toEqual({ a: { b: { d: 2 }, keep: { k: 1 } } });
    expect((out['a'] as Record<string, unknown>)['keep']).toBe(args.a.keep);
    expect(args).toEqual({ a: { b: { c: 1, d: 2 }, keep: { k: 1 } } });
  });
  it('writes after a nested remove reuse the rebuilt object', () => {
    const args = { t: { x: 1, y: 2 } };
    expect(argsOf({ 't.x': '@remove', 't.z': 3, 't.y': '@override 9' }, args)).toEqual({
      t: { y: '9', z: 3 },
    });
    expect(args).toEqual({ t: { x: 1, y: 2 } });
  });
});

describe('arguments built by JavaScript callers', () => {
  it('an own key holding undefined counts as absent and keeps its place', () => {
    const out = argsOf({ k: 1, z: '@override 2' }, { a: 0, k: undefined, z: 0 });
    expect(out).toEqual({ a: 0, k: 1, z: '2' });
    expect(Object.keys(out)).toEqual(['a', 'k', 'z']);
    const kept = argsOf({ k: 1 }, { k: undefined, b: 1 });
    expect(Object.keys(kept)).toEqual(['k', 'b']);
  });
  it('@remove of a top-level own key holding undefined removes the key (applied, not absent)', () => {
    const out = apply({ k: '@remove' }, { k: undefined, b: 1 });
    expect(out).toMatchObject({ ok: true, trace: [{ key: 'k', outcome: 'applied' }] });
    if (!out.ok) throw new Error(out.message);
    expect(Object.keys(out.args)).toEqual(['b']);
  });
});
