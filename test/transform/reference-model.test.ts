/**
 * Model-based test: the optimised apply (overlay, copy-on-write, rebuilt parents) must give the
 * same result — values AND key order — and the same trace as a naive reference interpreter that
 * deep-copies the arguments and mutates them in place with `delete` and plain writes. Rules
 * write literals, remove, or copy another (evolving) argument through a template.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileDefaults } from '../../src/transform/compile-defaults.js';
import { pyStr } from '../../src/transform/python-text.js';

type Json = unknown;
type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const isEmpty = (v: unknown): boolean =>
  v === undefined ||
  v === null ||
  v === '' ||
  (Array.isArray(v) && v.length === 0) ||
  (isObj(v) && Object.keys(v).length === 0);

interface RefRule {
  readonly key: string;
  readonly action: 'default' | 'override' | 'remove';
  readonly value?: Json;
  /** A field path to copy (as the template `{<from>}`) instead of a literal value. */
  readonly from?: string;
}

function readPath(args: Obj, path: string): unknown {
  let v: unknown = args;
  for (const s of path.split('.')) v = isObj(v) && Object.hasOwn(v, s) ? v[s] : undefined;
  return v;
}

function ruleOf(r: RefRule): unknown {
  if (r.action === 'remove') return '@remove';
  return r.from !== undefined
    ? { transform: { action: r.action, format: `{${r.from}}` } }
    : { transform: { action: r.action, value: r.value } };
}

function reference(rules: readonly RefRule[], input: Obj): { args: Obj; trace: string[] } {
  const args = JSON.parse(JSON.stringify(input)) as Obj;
  const trace: string[] = [];
  for (const rule of rules) {
    const segs = rule.key.split('.');
    const last = segs.pop() as string;
    let parent: Obj | undefined = args;
    let blocked = false;
    for (const s of segs) {
      const child: unknown = Object.hasOwn(parent, s) ? parent[s] : undefined;
      if (child === undefined) {
        parent = undefined;
        break;
      }
      if (!isObj(child)) {
        blocked = true;
        break;
      }
      parent = child;
    }
    if (blocked) {
      trace.push('not_an_object');
      continue;
    }
    const current = parent !== undefined && Object.hasOwn(parent, last) ? parent[last] : undefined;
    if (rule.action === 'remove') {
      if (parent === undefined || !Object.hasOwn(parent, last)) trace.push('absent');
      else {
        delete parent[last];
        trace.push('applied');
      }
      continue;
    }
    if (rule.action === 'default' && !isEmpty(current)) {
      trace.push('not_empty');
      continue;
    }
    let value: Json = rule.value;
    if (rule.from !== undefined) {
      const read = readPath(args, rule.from);
      if (read === undefined) {
        trace.push('missing_value');
        continue;
      }
      value = pyStr(read);
    }
    let obj = args;
    for (const s of segs) {
      if (!Object.hasOwn(obj, s)) obj[s] = {};
      obj = obj[s] as Obj;
    }
    obj[last] = JSON.parse(JSON.stringify(value)) as Json;
    trace.push('applied');
  }
  return { args, trace };
}

const name = fc.constantFrom('a', 'b', 'c');
const keyArb = fc.array(name, { minLength: 1, maxLength: 3 }).map((s) => s.join('.'));
const leaf = fc.oneof(
  fc.constantFrom(null, '', 0, false, 'x', 1, [], {}),
  fc.jsonValue({ maxDepth: 1 }),
);
const valueArb: fc.Arbitrary<Json> = fc.letrec<{ v: Json }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.dictionary(name, tie('v'), { maxKeys: 3 }),
  ),
})).v;
const argsArb = fc.dictionary(name, valueArb, { maxKeys: 3 });
const ruleArb: fc.Arbitrary<RefRule> = fc.oneof(
  fc.record({
    key: keyArb,
    action: fc.constantFrom<'default' | 'override'>('default', 'override'),
    value: valueArb,
  }),
  fc.record({ key: keyArb, action: fc.constant<'remove'>('remove') }),
  fc.record({
    key: keyArb,
    action: fc.constantFrom<'default' | 'override'>('default', 'override'),
    from: keyArb,
  }),
);

describe('apply against a naive reference interpreter', () => {
  it('same result, same key order, same trace', () => {
    fc.assert(
      fc.property(fc.array(ruleArb, { maxLength: 8 }), argsArb, (rules, args) => {
        const before = JSON.stringify(args);
        // Several rules may share a key; the definition format cannot express that, so compile
        // them one by one and chain the applications (each sees the previous result).
        let current: Obj = args;
        const trace: string[] = [];
        for (const r of rules) {
          const { compiled, issues } = compileDefaults({ [r.key]: ruleOf(r) });
          expect(issues).toEqual([]);
          const out = compiled.apply(current);
          if (!out.ok) throw new Error(out.message);
          trace.push(...out.trace.map((t) => t.reason ?? t.outcome));
          current = out.args;
        }
        const expected = reference(rules, args);
        expect(JSON.stringify(current)).toBe(JSON.stringify(expected.args));
        expect(trace).toEqual(expected.trace);
        expect(JSON.stringify(args)).toBe(before);
      }),
      { numRuns: 500, seed: 99 },
    );
  });

  it('same result within one rule set with distinct keys (the overlay across rules)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(ruleArb, { selector: (r) => r.key, maxLength: 8 }),
        argsArb,
        (rules, args) => {
          const defaults: Record<string, unknown> = {};
          for (const r of rules) defaults[r.key] = ruleOf(r);
          const { compiled } = compileDefaults(defaults);
          const out = compiled.apply(args);
          if (!out.ok) throw new Error(out.message);
          const expected = reference(rules, args);
          expect(JSON.stringify(out.args)).toBe(JSON.stringify(expected.args));
          expect(out.trace.map((t) => t.reason ?? t.outcome)).toEqual(expected.trace);
        },
      ),
      { numRuns: 1000, seed: 7 },
    );
  });
});
