/**
 * Shared by the expression tests: compile helpers, and a frozen `performance.now()` (the 50 ms
 * time slice reads it) so that which limit ends an evaluation — steps or result size — never
 * depends on how loaded the machine is. Call {@link freezeTimeSlice} at a test file's top level.
 */
import { afterEach, beforeEach, vi } from 'vitest';
import { compileExpression, type CompiledExpression } from '../../src/expressions/expression.js';
import '../../src/expressions/cel-register.js';

/** A stopped clock for `evaluate`'s budget: only the step budget can end an evaluation. */
export const STEPS_ONLY = { now: () => 0 };

/** Freezes `performance.now()` for every test of the calling file. */
export function freezeTimeSlice(): void {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
}

/** A compiled CEL expression; throws when it does not compile. */
export function cel(expression: string): CompiledExpression {
  const c = compileExpression({ type: 'cel', expression });
  if (!c.ok) throw new Error(c.message);
  return c.expression;
}
