/**
 * CEL for workflows, over `@bufbuild/cel`: parse once, check the parsed tree, instrument it, plan
 * it, and evaluate it under a {@link Meter} (docs/workflows.md, "Expressions and their bounds").
 *
 * Why the tree is rewritten: the evaluator has no hook of its own, and a function we register runs
 * inside a `try` that turns every exception into a CEL error value, which `||`, `&&` and `?:` may
 * discard. Variable lookups are not guarded that way: they end in our bindings object. So every
 * comprehension's loop condition and every variable read is made to read the internal variable
 * `@tick` first (a name CEL source cannot spell), whose getter charges the meter; over budget it
 * throws, and the throw unwinds the whole evaluation at once. Between two ticks the evaluator does
 * a bounded number of operations, each at most linear in the data, so the time slice checked at
 * every tick bounds the time.
 *
 * Second rewrite: `map` and `filter` accumulate with `@result + [x]`, which the library builds as
 * a chain of concatenated lists, one link per element; reading that chain costs O(n²) and its
 * recursion overflows the stack. The macros' accumulation calls `@append` instead, which appends
 * in place to a list only the accumulator can reach (the accumulator name is not spellable, and
 * each fold starts from its own `[]`).
 */
import {
  celEnv,
  celFunc,
  celList,
  celMethod,
  CelScalar,
  isCelError,
  isCelList,
  isCelMap,
  isCelUint,
  listType,
  parse as parseCel,
  plan as planCel,
  type CelInput,
  type CelList,
  type CelValue,
} from '@bufbuild/cel';
import { re2js } from '../lazy-deps.js';
import { isPlainObject } from '../own-data.js';
import { Meter, resultMeter } from './budget.js';
import { stringFunctions } from './cel-strings.js';
import { unknownFunction } from './cel-functions.js';

import { MAX_COMPREHENSION_NESTING, type CelProgram } from './cel-runtime.js';

export { MAX_COMPREHENSION_NESTING, type CelProgram };

type Expr = NonNullable<ReturnType<typeof parseCel>['expr']>;
type ExprKind = Expr['exprKind'];

const TICK = '@tick';
const APPEND = '@append';
const LIST = listType(CelScalar.DYN);
/** Functions whose name has a dot: CEL parses them as a call on an identifier. */
const NAMESPACED = new Set(['strings.quote']);

/** Lists `@append` may grow in place, with their backing arrays. */
const owned = new WeakMap<CelList, unknown[]>();

/** The meter of the evaluation running now (evaluation is synchronous, so there is one). */
let current: Meter | undefined;

/**
 * Subject characters × pattern characters one step of `matches` pays for. RE2 runs in time linear
 * in the subject but with a factor growing with the pattern: one call on a 256 KiB string can take
 * tens of milliseconds, all inside one step, so its cost is charged before it runs.
 */
const MATCH_CHARS_PER_STEP = 16;

/** List items one step of `in` pays for: the scan compares each item, all inside one step. */
const IN_ITEMS_PER_STEP = 32;

/** The library's own `in` over lists (CEL equality), which the charged one below calls. */
const standardIn = celEnv().funcs.find('@in');

const env = celEnv({
  funcs: [
    // The strings extension, each function charged by its input size (cel-strings.ts).
    ...stringFunctions((steps) => current?.charge(steps)),
    celFunc(APPEND, [LIST, LIST], LIST, (acc: CelList, tail: CelList) => {
      const backing = owned.get(acc);
      if (backing !== undefined) {
        for (const v of tail) backing.push(v);
        return acc;
      }
      const array: unknown[] = [...acc, ...tail];
      const list = celList(array as CelInput[]);
      owned.set(list, array);
      return list;
    }),
    // Replaces the standard `x in list`: the same test, charged by the list's length first.
    celFunc('@in', [CelScalar.DYN, LIST], CelScalar.BOOL, (value: CelValue, list: CelList) => {
      current?.charge(Math.ceil(list.size / IN_ITEMS_PER_STEP));
      const found = standardIn?.call(0, undefined, [value, list]);
      if (typeof found !== 'boolean') throw new Error('no matching overload for in');
      return found;
    }),
    // Replaces the standard `matches` (RE2, as the library's): the same test, charged first.
    celMethod(
      'matches',
      CelScalar.STRING,
      [CelScalar.STRING],
      CelScalar.BOOL,
      function (this: string, pattern: string) {
        current?.charge(
          Math.ceil((this.length * Math.max(1, pattern.length)) / MATCH_CHARS_PER_STEP),
        );
        return re2js().compile(pattern).test(this);
      },
    ),
  ],
});

/** Parses and plans `source`; throws an Error with a readable message when it cannot. */
export function compileCelProgram(source: string): CelProgram {
  const root = parseCel(source).expr;
  if (root === undefined) throw new Error('empty expression');
  const nesting = comprehensionNesting(root);
  if (nesting > MAX_COMPREHENSION_NESTING)
    throw new Error(
      `CEL comprehensions nest ${nesting} deep; at most ${MAX_COMPREHENSION_NESTING} are allowed`,
    );
  // Still a program: CEL makes an unbound function a run-time error (the conformance suite's
  // `unbound_is_runtime_error`); the loader warns about it (docs/workflows.md).
  const unknown = unknownFunction(root, (name) => env.funcs.find(name) !== undefined, NAMESPACED);
  const run = planCel(env, instrument(root)) as (ctx: Record<string, CelInput>) => unknown;
  const what = `CEL expression \`${source.length > 80 ? `${source.slice(0, 77)}...` : source}\``;
  return {
    ...(unknown !== undefined ? { unknownFunction: unknown } : {}),
    evaluate(data, budget) {
      // Started before the conversion below, which is linear in the data: its time counts too.
      const meter = new Meter(what, budget);
      const bindings: Record<string, CelInput> = {};
      for (const key of Object.keys(data)) {
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) continue;
        bindings[key] = toCel(data[key]);
      }
      Object.defineProperty(bindings, TICK, {
        get: () => {
          meter.tick();
          return true;
        },
      });
      let result: unknown;
      const outer = current;
      current = meter;
      try {
        result = run(bindings);
      } catch {
        result = undefined;
      } finally {
        current = outer;
      }
      // The evaluator returns our throw as an error value; the meter remembers it.
      if (meter.exceeded !== undefined) throw meter.exceeded;
      if (result === undefined || isCelError(result)) return undefined;
      return fromCel(result, what);
    },
  };
}

/** Comprehension nesting along loop bodies (what multiplies iterations). */
function comprehensionNesting(expr: Expr): number {
  const k = expr.exprKind;
  if (k.case === 'comprehensionExpr') {
    const c = k.value;
    const body = Math.max(depthOf(c.loopStep), depthOf(c.loopCondition));
    return Math.max(1 + body, depthOf(c.iterRange), depthOf(c.accuInit), depthOf(c.result));
  }
  return children(k).reduce((max, child) => Math.max(max, comprehensionNesting(child)), 0);
}

function depthOf(expr: Expr | undefined): number {
  return expr === undefined ? 0 : comprehensionNesting(expr);
}

function children(k: ExprKind): Expr[] {
  switch (k.case) {
    case 'selectExpr':
      return k.value.operand === undefined ? [] : [k.value.operand];
    case 'callExpr':
      return [...(k.value.target === undefined ? [] : [k.value.target]), ...k.value.args];
    case 'listExpr':
      return k.value.elements;
    case 'structExpr':
      return k.value.entries.flatMap((e) => [
        ...(e.keyKind.case === 'mapKey' ? [e.keyKind.value] : []),
        ...(e.value === undefined ? [] : [e.value]),
      ]);
    case 'comprehensionExpr': {
      const c = k.value;
      return [c.iterRange, c.accuInit, c.loopCondition, c.loopStep, c.result].filter(
        (e): e is Expr => e !== undefined,
      );
    }
    default:
      return [];
  }
}

/** Rewrites the tree in place (see the header): ticks on reads and loops, in-place appends. */
function instrument(root: Expr): Expr {
  let nextId = 0n;
  const visit = (e: Expr): void => {
    if (BigInt(e.id) >= nextId) nextId = BigInt(e.id) + 1n;
    for (const child of children(e.exprKind)) visit(child);
  };
  visit(root);
  const node = (exprKind: ExprKind): Expr => ({
    $typeName: 'cel.expr.Expr',
    id: nextId++,
    exprKind,
  });
  const ident = (name: string): Expr =>
    node({ case: 'identExpr', value: { $typeName: 'cel.expr.Expr.Ident', name } });
  const call = (fn: string, args: Expr[]): Expr =>
    node({ case: 'callExpr', value: { $typeName: 'cel.expr.Expr.Call', function: fn, args } });

  const rewrite = (e: Expr): Expr => {
    const k = e.exprKind;
    switch (k.case) {
      case 'identExpr':
        // `@tick ? x : x`: the value of x, read after one step.
        return k.value.name.startsWith('@') ? e : call('_?_:_', [ident(TICK), e, e]);
      case 'selectExpr':
        if (k.value.operand !== undefined) k.value.operand = rewrite(k.value.operand);
        return e;
      case 'callExpr': {
        const c = k.value;
        // `strings.quote(…)` names a function, not a read of a variable `strings`.
        const namespaced =
          c.target?.exprKind.case === 'identExpr' &&
          NAMESPACED.has(`${c.target.exprKind.value.name}.${c.function}`);
        if (c.target !== undefined && !namespaced) c.target = rewrite(c.target);
        c.args = c.args.map(rewrite);
        const [first, second] = c.args.map((a) => a.exprKind);
        if (
          c.function === '_+_' &&
          first?.case === 'identExpr' &&
          first.value.name === '@result' &&
          second?.case === 'listExpr'
        )
          c.function = APPEND;
        return e;
      }
      case 'listExpr':
        k.value.elements = k.value.elements.map(rewrite);
        return e;
      case 'structExpr':
        for (const entry of k.value.entries) {
          if (entry.keyKind.case === 'mapKey') entry.keyKind.value = rewrite(entry.keyKind.value);
          if (entry.value !== undefined) entry.value = rewrite(entry.value);
        }
        return e;
      case 'comprehensionExpr': {
        const c = k.value;
        if (c.iterRange !== undefined) c.iterRange = rewrite(c.iterRange);
        if (c.accuInit !== undefined) c.accuInit = rewrite(c.accuInit);
        if (c.loopStep !== undefined) c.loopStep = rewrite(c.loopStep);
        if (c.result !== undefined) c.result = rewrite(c.result);
        if (c.loopCondition !== undefined)
          c.loopCondition = call('_&&_', [ident(TICK), rewrite(c.loopCondition)]);
        return e;
      }
      default:
        return e;
    }
  };
  return rewrite(root);
}

function toCel(value: unknown): CelInput {
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
  if (Array.isArray(value)) return value.map(toCel);
  // A Map, never an object: a key such as "__proto__" stays data.
  if (isPlainObject(value))
    return new Map(Object.keys(value).map((key) => [key, toCel(value[key])] as const));
  return value as CelInput;
}

/** The result as JSON, refused once it would exceed the result caps (never fully built first). */
function fromCel(value: unknown, what: string): unknown {
  const { spend, depth: checkDepth } = resultMeter(`the result of ${what}`);
  const convert = (v: unknown, depth: number): unknown => {
    checkDepth(depth);
    if (typeof v === 'bigint') {
      spend(8);
      return Number(v);
    }
    if (isCelUint(v)) {
      spend(8);
      return Number(v.value);
    }
    if (typeof v === 'string') {
      spend(v.length + 2);
      return v;
    }
    if (isCelList(v)) {
      spend(2);
      const out: unknown[] = [];
      for (const item of v) {
        spend(1);
        out.push(convert(item, depth + 1));
      }
      return out;
    }
    if (isCelMap(v)) {
      spend(2);
      const out: Record<string, unknown> = {};
      for (const [k, item] of v) {
        const key = String(k);
        spend(key.length + 4);
        Object.defineProperty(out, key, {
          value: convert(item, depth + 1),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    }
    if (v instanceof Uint8Array) {
      spend(Math.ceil(v.length / 3) * 4 + 2);
      return Buffer.from(v).toString('base64');
    }
    spend(5);
    if (v === null || typeof v === 'number' || typeof v === 'boolean') return v;
    return undefined;
  };
  return convert(value, 0);
}
