/**
 * JMESPath for workflows (the `jmespath` package, as `options.save` uses it), evaluated under a
 * {@link Meter}. The interpreter has no hook of its own, but it reads the data only by property
 * access, so it is given the data behind proxies that charge one step per read: a projection,
 * filter, sort or `join` over a long list pays for every element it touches, and the time slice is
 * checked at each. The result is copied out of the proxies into plain JSON, measured against the
 * result caps as it is copied.
 */
import { jmespath } from '../lazy-deps.js';
import { getOwn, isPlainObject } from '../own-data.js';
import { Meter, resultMeter, type BudgetOptions } from './budget.js';

/** A JMESPath expression, parsed and ready to evaluate. */
export interface JmesPathProgram {
  /**
   * The value as plain JSON, or `undefined` when evaluation failed. Throws a ToolError
   * (`expression_budget`, `result_too_large`) when over a limit.
   */
  evaluate(data: Readonly<Record<string, unknown>>, budget?: BudgetOptions): unknown;
}

/** Parses `source`; throws the parser's Error when it cannot. */
export function compileJmesPathProgram(source: string): JmesPathProgram {
  const { compile, search } = jmespath();
  if (compile !== undefined) compile(source);
  else search(null, source);
  const what = `JMESPath expression \`${source.length > 80 ? `${source.slice(0, 77)}...` : source}\``;
  return {
    evaluate(data, budget) {
      const meter = new Meter(what, budget);
      const targets = new WeakMap<object, object>();
      const proxies = new WeakMap<object, object>();
      const wrap = (value: unknown): unknown => {
        if (value === null || typeof value !== 'object') return value;
        const known = proxies.get(value);
        if (known !== undefined) return known;
        const proxy = new Proxy(value, {
          get(target, key) {
            meter.tick();
            return wrap(Reflect.get(target, key));
          },
        });
        proxies.set(value, proxy);
        targets.set(proxy, value);
        return proxy;
      };
      let value: unknown;
      try {
        value = search(wrap(data), source) as unknown;
      } catch {
        value = undefined;
      }
      if (meter.exceeded !== undefined) throw meter.exceeded;
      return value === undefined ? undefined : plainCopy(value, targets, what);
    },
  };
}

/** A plain JSON copy of `value` (proxies unwrapped), refused once over the result caps. */
function plainCopy(value: unknown, targets: WeakMap<object, object>, what: string): unknown {
  const { spend, depth: checkDepth } = resultMeter(`the result of ${what}`);
  const copy = (v: unknown, depth: number): unknown => {
    checkDepth(depth);
    const raw = v !== null && typeof v === 'object' ? (targets.get(v) ?? v) : v;
    if (typeof raw === 'string') {
      spend(raw.length + 2);
      return raw;
    }
    if (Array.isArray(raw)) {
      spend(2);
      return raw.map((item: unknown) => {
        spend(1);
        return copy(item, depth + 1);
      });
    }
    if (isPlainObject(raw)) {
      spend(2);
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(raw)) {
        spend(key.length + 4);
        Object.defineProperty(out, key, {
          value: copy(getOwn(raw, key), depth + 1),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    }
    spend(raw === undefined ? 0 : String(raw).length);
    return raw;
  };
  return copy(value, 0);
}
