/**
 * The marker a host action handler uses to change the session besides returning a value. Branded
 * with a Symbol, so a plain object a handler returns is never mistaken for one.
 */
import type { ActionResult } from './types.js';

const BRAND: unique symbol = Symbol('switchboard.actionResult');

/** An {@link ActionResult} carrying the brand. */
export type BrandedActionResult = ActionResult & { readonly [BRAND]: true };

/**
 * Marks what an action handler returns as session changes plus an optional `result` for the
 * model: `return actionResult({ handoff: 'billing', say: 'One moment.' })`.
 */
export function actionResult(result: ActionResult): BrandedActionResult {
  // Object.assign, not a key after a spread (a hidden class per result once optimized).
  return Object.freeze(Object.assign({}, result, { [BRAND]: true as const }));
}

/** True for a value made by {@link actionResult}. */
export function isActionResult(value: unknown): value is BrandedActionResult {
  return typeof value === 'object' && value !== null && Object.hasOwn(value, BRAND);
}
