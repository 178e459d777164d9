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
import { compileCase } from './case-expression.js';
import type { CompileResult, RawExpression } from './expression-types.js';
import { argumentError } from '../option-checks.js';
import { celCompiler, MAX_COMPREHENSION_NESTING, type CelProgram } from './cel-runtime.js';
import { compileJmesPathProgram, type JmesPathProgram } from './jmespath.js';

export { isTruthy } from './truthiness.js';

/** Longest expression source accepted, in characters. */
export const MAX_EXPRESSION_LENGTH = 2000;
/** Deepest bracket nesting accepted (`(`, `[`, `{`). */
export const MAX_EXPRESSION_DEPTH = 32;
export { MAX_COMPREHENSION_NESTING };

export type {
  CompiledExpression,
  CompileResult,
  ExpressionLanguage,
  RawExpression,
} from './expression-types.js';

/** Compiles an expression as written (a string is JMESPath; a case expression: case-expression.ts). */
export function compileExpression(raw: RawExpression): CompileResult {
  return compileAt(raw, 0);
}

function compileAt(raw: RawExpression, depth: number): CompileResult {
  if (typeof raw === 'string') return compileJmesPath(raw);
  if (typeof raw === 'object' && raw !== null && 'case' in raw)
    return compileCase(raw.case, depth, compileAt);
  if (typeof raw !== 'object' || raw === null || typeof raw.expression !== 'string')
    throw argumentError(
      'compileExpression(raw)',
      'a JMESPath string, { type, expression } or { case }',
      raw,
    );
  return raw.type === 'cel' ? compileCel(raw.expression) : compileJmesPath(raw.expression);
}

/** Compiles a JMESPath expression. */
export function compileJmesPath(source: string): CompileResult {
  if (typeof source !== 'string')
    throw argumentError('compileJmesPath(source)', 'a string', source);
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
  if (typeof source !== 'string') throw argumentError('compileCel(source)', 'a string', source);
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
      ...(program.unknownFunction !== undefined
        ? { unknownFunction: program.unknownFunction }
        : {}),
      evaluate: (data, budget) => program.evaluate(data, budget),
    },
  };
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
