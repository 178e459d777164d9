/**
 * `options.save` (docs/handlers.md): copies parts of a tool's result into session variables with JMESPath.
 * A rule whose expression finds nothing (`null`) sets nothing, so a missing field never clobbers a
 * variable that already has a value.
 */
import { jmespath } from '../lazy-deps.js';
import type { SaveRule } from '../definition/types.js';

export { checkSaveExpression } from '../expressions/jmespath-check.js';

/**
 * Evaluates every save rule over a tool's output.
 * @returns the variable updates (own properties only; rules finding `null`/nothing are left out;
 *   a rule failing at run time — e.g. a function applied to the wrong type — is left out too).
 */
export function applySaveRules(
  output: unknown,
  rules: readonly SaveRule[],
): Record<string, unknown> {
  const updates: Record<string, unknown> = {};
  for (const rule of rules) {
    let value: unknown;
    try {
      value = jmespath().search(output, rule.from) as unknown;
    } catch {
      continue;
    }
    if (value === null || value === undefined || !isOwnData(value)) continue;
    Object.defineProperty(updates, rule.to, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return updates;
}

/**
 * False when a search result holds something JMESPath reached by inheritance rather than from
 * the data: its field lookup is `value[name]`, so `toString`, `constructor` or `__proto__` on an
 * object lacking that key yield a built-in function or `Object.prototype`.
 */
function isOwnData(value: unknown): boolean {
  const seen = new Set<object>();
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'function' || item === Object.prototype) return false;
    if (item === null || typeof item !== 'object' || seen.has(item)) continue;
    seen.add(item);
    for (const child of Object.values(item)) stack.push(child);
  }
  return true;
}
