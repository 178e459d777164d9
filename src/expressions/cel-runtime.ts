/**
 * Where the CEL evaluator comes from. `@bufbuild/cel` (with its protobuf runtime) is the heaviest
 * dependency of a definition, and most tool sets use none: `loadTools` loads it only when a
 * definition names a CEL expression (importing `cel-register.ts`), and `switchboard/transform`
 * loads it with the entry.
 */
import type { BudgetOptions } from './budget.js';

/** Deepest nesting of CEL comprehension macros accepted (counted on the parsed tree). */
export const MAX_COMPREHENSION_NESTING = 2;

/** A CEL expression, parsed, checked, instrumented and planned. */
export interface CelProgram {
  /** A call of a function this CEL does not have (`unknown function lenght()`): fails when run. */
  readonly unknownFunction?: string;
  /**
   * The value as JSON, or `undefined` when evaluation failed (no such key, wrong operand types).
   * Throws a ToolError (`expression_budget`, `result_too_large`) when over a limit.
   */
  evaluate(data: Readonly<Record<string, unknown>>, budget?: BudgetOptions): unknown;
}

/** Parses, checks and plans a CEL expression; throws on a bad one. */
export type CelCompiler = (source: string) => CelProgram;

let compile: CelCompiler | undefined;

/** Called by `cel-register.ts` once the evaluator's module has loaded. */
export function registerCel(compiler: CelCompiler): void {
  compile = compiler;
}

/** The CEL compiler, when loaded. */
export function celCompiler(): CelCompiler | undefined {
  return compile;
}

/** Whether a definition document names a CEL expression anywhere (`{"type": "cel", …}`). */
export function mentionsCel(document: unknown): boolean {
  const stack: unknown[] = [document];
  while (stack.length > 0) {
    const value = stack.pop();
    if (Array.isArray(value)) {
      for (const item of value) stack.push(item);
    } else if (typeof value === 'object' && value !== null) {
      if (Object.hasOwn(value, 'type') && (value as { type: unknown }).type === 'cel') return true;
      for (const key of Object.keys(value)) stack.push((value as Record<string, unknown>)[key]);
    }
  }
  return false;
}
