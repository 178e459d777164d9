/**
 * Property tests: any generated defaults applied to any generated arguments succeed or fail with
 * a typed outcome, never throw, never mutate inputs and never pollute prototypes.
 */
import { assertNoPoisoning as assertNoPoisoningRaw } from '@fast-check/poisoning';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileDefaults } from '../../src/transform/compile-defaults.js';
import { applyStaticParameters } from '../../src/transform/static-parameters.js';
import { renderMustache } from '../../src/expressions/mustache.js';

const SPECIAL = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'isAdmin',
  'a',
  'b',
  'vars',
  'params',
];
const keyArb = fc.oneof(fc.constantFrom(...SPECIAL), fc.string({ maxLength: 4 }));
const pathArb = fc.array(keyArb, { minLength: 1, maxLength: 3 }).map((segs) => segs.join('.'));

/** JSON data built by JSON.parse, so `__proto__` is an own key as it would be from a model. */
const jsonArb = fc
  .jsonValue({ maxDepth: 3 })
  .chain((v) => fc.dictionary(keyArb, fc.constant(v), { maxKeys: 3 }))
  .map((o) => JSON.parse(JSON.stringify(o)) as Record<string, unknown>);

const argsArb = fc
  .dictionary(keyArb, fc.oneof(fc.jsonValue({ maxDepth: 3 }), jsonArb), { maxKeys: 6 })
  .map((o) => JSON.parse(JSON.stringify(o)) as Record<string, unknown>);

const templateArb = fc
  .array(
    fc.oneof(
      fc.string({ maxLength: 5 }),
      pathArb.map((p) => `{${p}}`),
      pathArb.map((p) => `{vars.${p}!r:>5}`),
      fc.constantFrom('{', '}', '{{', '}}', '{a:d}', '{b:,.2f}'),
    ),
    { maxLength: 4 },
  )
  .map((parts) => parts.join(''));

const whenArb = fc.oneof(
  fc.record({
    key: pathArb,
    operator: fc.constantFrom('eq', 'ne', 'in', 'not_in', 'exists', 'not_exists', 'bogus'),
    value: fc.oneof(fc.jsonValue({ maxDepth: 1 }), fc.array(fc.string())),
  }),
  fc.record({ any: fc.array(fc.record({ key: pathArb, value: fc.string() }), { maxLength: 2 }) }),
);

const ruleArb = fc.oneof(
  templateArb,
  fc.constantFrom('@remove', '@override {a}', '@default {vars.a}', '@bogus', '@remove x'),
  fc.jsonValue({ maxDepth: 2 }),
  fc
    .record(
      {
        action: fc.constantFrom('default', 'override', 'remove', 'nope'),
        when: whenArb,
        value: fc.jsonValue({ maxDepth: 2 }),
        format: templateArb,
      },
      { requiredKeys: [] },
    )
    .map((transform) => ({ transform })),
);

const defaultsArb = fc.array(fc.tuple(pathArb, ruleArb), { maxLength: 6 }).map((entries) => {
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries)
    Object.defineProperty(out, k, {
      value: v,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return out;
});

const varsArb = fc.dictionary(
  fc.oneof(
    keyArb,
    keyArb.map((k) => `vars.${k}`),
  ),
  fc.jsonValue({ maxDepth: 2 }),
  { maxKeys: 4 },
);

// The test runner keeps its own state on globalThis (__vitest_*), and Node defines
// AbortController as a lazy accessor that replaces itself on first use: neither is ours to check.
const assertNoPoisoning = (): void =>
  assertNoPoisoningRaw({ ignoredRootRegex: /^(__vitest|AbortController$)/ });

describe('properties', () => {
  it('compile + apply never throw, never mutate, never pollute', () => {
    fc.assert(
      fc.property(
        defaultsArb,
        argsArb,
        varsArb,
        fc.constantFrom<'skip' | 'error'>('skip', 'error'),
        (defaults, args, vars, policy) => {
          const defaultsBefore = JSON.stringify(defaults);
          const argsBefore = JSON.stringify(args);
          const varsBefore = JSON.stringify(vars);
          const { compiled, issues } = compileDefaults(defaults);
          for (const i of issues) expect(typeof i.message).toBe('string');
          const out = compiled.apply(args, { vars, onMissingTemplateValue: policy });
          if (out.ok) {
            expect(out.args).not.toBe(args);
            JSON.stringify(out.args);
          } else {
            expect(out.code).toBe('missing_template_value');
            expect(policy).toBe('error');
          }
          for (const t of out.trace) expect(['applied', 'skipped']).toContain(t.outcome);
          expect(JSON.stringify(defaults)).toBe(defaultsBefore);
          expect(JSON.stringify(args)).toBe(argsBefore);
          expect(JSON.stringify(vars)).toBe(varsBefore);
          expect(({} as Record<string, unknown>)['isAdmin']).toBeUndefined();
          assertNoPoisoning();
        },
      ),
      { numRuns: 400, seed: 42 },
    );
  });

  it('model arguments with __proto__ / constructor keys are plain data', () => {
    const args = JSON.parse(
      '{"__proto__": {"isAdmin": true}, "constructor": {"prototype": {"isAdmin": true}}, "name": "x"}',
    ) as Record<string, unknown>;
    const { compiled, issues } = compileDefaults({
      'tags.a': '{name}',
      copy: '{name!r}',
      name: '@remove',
      hello: '@override hi',
    });
    expect(issues).toEqual([]);
    const out = compiled.apply(args);
    if (!out.ok) throw new Error(out.message);
    expect(Object.keys(out.args).sort()).toEqual(
      ['__proto__', 'constructor', 'copy', 'hello', 'tags'].sort(),
    );
    expect(Object.getPrototypeOf(out.args)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(out.args, '__proto__')?.value).toEqual({
      isAdmin: true,
    });
    expect((out.args as { isAdmin?: unknown }).isAdmin).toBeUndefined();
    expect(({} as Record<string, unknown>)['isAdmin']).toBeUndefined();
    assertNoPoisoning();
  });

  it('static parameters and mustache with hostile names never pollute', () => {
    fc.assert(
      fc.property(
        argsArb,
        keyArb,
        fc.jsonValue({ maxDepth: 2 }),
        varsArb,
        (args, name, value, vars) => {
          const before = JSON.stringify(args);
          const out = applyStaticParameters(
            args,
            [{ name, type: 'string', required: false, default: value }],
            { vars },
          );
          expect(Object.getOwnPropertyDescriptor(out, name)?.value).toEqual(
            typeof value === 'string' ? renderMustache(value, { vars }) : value,
          );
          expect(JSON.stringify(args)).toBe(before);
          renderMustache(
            '{{vars.__proto__}}{{vars.constructor}}{{vars.toString}}{{#vars.a}}x{{/vars.a}}',
            { vars },
          );
          assertNoPoisoning();
        },
      ),
      { numRuns: 200, seed: 7 },
    );
  });
});
