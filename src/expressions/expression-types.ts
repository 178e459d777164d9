/** The types of compiled workflow expressions (expression.ts compiles them). */
import type { BudgetOptions } from './budget.js';

/** The expression language. */
export type ExpressionLanguage = 'jmespath' | 'cel';

/** A compiled expression, evaluated over plain JSON data. */
export interface CompiledExpression {
  readonly language: ExpressionLanguage;
  readonly source: string;
  /** A call of a function the language does not have; evaluating it fails (a warning at load). */
  readonly unknownFunction?: string;
  /**
   * The value, or `undefined` when evaluation failed. Throws only a ToolError: `expression_budget`
   * (over the step budget or time slice) or `result_too_large` (over the result caps).
   */
  evaluate(data: Readonly<Record<string, unknown>>, budget?: BudgetOptions): unknown;
}

/** The compiled expression, or the reason it cannot compile. */
export type CompileResult =
  | { readonly ok: true; readonly expression: CompiledExpression }
  | { readonly ok: false; readonly message: string };

/**
 * An expression as written in a definition: a JMESPath string, a typed object, or Syllable's
 * reserved case expression (case-expression.ts).
 */
export type RawExpression =
  | string
  | { readonly type: 'cel'; readonly expression: string }
  | { readonly type?: 'jp' | 'jmespath' | undefined; readonly expression: string }
  | { readonly case: readonly unknown[] };
