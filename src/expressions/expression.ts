/**
 * Workflow expressions (Syllable's `if`, `valueFrom`, `expression`, `result.save[].from`):
 * JMESPath (the default for plain strings, via the `jmespath` package the engine already uses for
 * `options.save`) and CEL (via `@bufbuild/cel`, a maintained, spec-conformant evaluator with no
 * native code). Each is compiled once at load; a compile error is a load error.
 *
 * Bounds (expressions are written by definition authors but evaluated over model-supplied data):
 * at most {@link MAX_EXPRESSION_LENGTH} characters and bracket nesting at most
 * {@link MAX_EXPRESSION_DEPTH}, checked before parsing so a parser never recurses deeply; in CEL at
 * most {@link MAX_COMPREHENSION_NESTING} nested comprehensions, counted on the parsed tree
 * (cel.ts). Each evaluation runs under a step budget and a time slice and its result under the
 * result caps (budget.ts); over one is a ToolError, the only thing `evaluate` throws. A runtime
 * error (no such key, wrong operand types) yields `undefined`, which conditions treat as false.
 *
 * Data model: JSON in, JSON out. For CEL, JSON integers are bound as CEL `int` (so
 * `inputs.count + 1` works, as in Syllable's Python evaluator) and other numbers as `double`;
 * results convert back (int → number, lists → arrays, maps → objects).
 */
import { isPlainObject } from '../own-data.js';
import type { BudgetOptions } from './budget.js';
import { celCompiler, MAX_COMPREHENSION_NESTING, type CelProgram } from './cel-runtime.js';
import { compileJmesPathProgram, type JmesPathProgram } from './jmespath.js';

/** Longest expression source accepted, in characters. */
export const MAX_EXPRESSION_LENGTH = 2000;
/** Deepest bracket nesting accepted (`(`, `[`, `{`). */
export const MAX_EXPRESSION_DEPTH = 32;
export { MAX_COMPREHENSION_NESTING };

/** The expression language. */
export type ExpressionLanguage = 'jmespath' | 'cel';

/** A compiled expression, evaluated over plain JSON data. */
export interface CompiledExpression {
  readonly language: ExpressionLanguage;
  readonly source: string;
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
 * reserved case expression (the definition schema parses it into this shape).
 */
export type RawExpression =
  | string
  | { readonly type: 'cel'; readonly expression: string }
  | { readonly type?: 'jp' | 'jmespath' | undefined; readonly expression: string }
  | { readonly case: readonly unknown[] };

/** Compiles an expression as written (a string is JMESPath). */
export function compileExpression(raw: RawExpression): CompileResult {
  if (typeof raw === 'string') return compileJmesPath(raw);
  if ('case' in raw)
    return {
      ok: false,
      message: 'case expressions are reserved by Syllable and not executed; use "if" conditions',
    };
  return raw.type === 'cel' ? compileCel(raw.expression) : compileJmesPath(raw.expression);
}

/** Compiles a JMESPath expression. */
export function compileJmesPath(source: string): CompileResult {
  const bound = checkBounds(source);
  if (bound !== undefined) return { ok: false, message: bound };
  let program: JmesPathProgram;
  try {
    program = compileJmesPathProgram(source);
  } catch (err) {
    return { ok: false, message: `invalid JMESPath expression: ${firstLine(err)}` };
  }
  return {
    ok: true,
    expression: {
      language: 'jmespath',
      source,
      evaluate: (data, budget) => program.evaluate(data, budget),
    },
  };
}

/** Compiles a CEL expression. */
export function compileCel(source: string): CompileResult {
  const bound = checkBounds(source);
  if (bound !== undefined) return { ok: false, message: bound };
  const compileCelProgram = celCompiler();
  if (compileCelProgram === undefined)
    return {
      ok: false,
      message:
        'CEL is not loaded: load definitions with loadTools, or import switchboard/transform',
    };
  let program: CelProgram;
  try {
    program = compileCelProgram(source);
  } catch (err) {
    const message = firstLine(err);
    return {
      ok: false,
      message: message.startsWith('CEL comprehensions')
        ? message
        : `invalid CEL expression: ${message}`,
    };
  }
  return {
    ok: true,
    expression: {
      language: 'cel',
      source,
      evaluate: (data, budget) => program.evaluate(data, budget),
    },
  };
}

/** Truthiness of a condition's value: JMESPath's (false, null, "", [], {} are false) for both. */
export function isTruthy(value: unknown): boolean {
  if (value === undefined || value === null || value === false || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (isPlainObject(value)) return Object.keys(value).length > 0;
  return true;
}

function checkBounds(source: string): string | undefined {
  if (source.trim() === '') return 'empty expression';
  if (source.length > MAX_EXPRESSION_LENGTH)
    return `expression is ${source.length} characters long; at most ${MAX_EXPRESSION_LENGTH} are allowed`;
  let depth = 0;
  let quote: string | undefined;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (quote !== undefined) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
      continue;
    }
    if (c === '"' || c === "'" || c === '`') quote = c;
    else if (c === '(' || c === '[' || c === '{') {
      depth++;
      if (depth > MAX_EXPRESSION_DEPTH)
        return `expression nests brackets deeper than ${MAX_EXPRESSION_DEPTH} levels`;
    } else if (c === ')' || c === ']' || c === '}') depth = Math.max(0, depth - 1);
  }
  return undefined;
}

function firstLine(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.split('\n', 1)[0] ?? '';
}
