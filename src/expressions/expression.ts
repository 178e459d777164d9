/**
 * Workflow expressions (Syllable's `if`, `valueFrom`, `expression`, `result.save[].from`):
 * JMESPath (the default for plain strings, via the `jmespath` package the engine already uses for
 * `options.save`) and CEL (via `@bufbuild/cel`, a maintained, spec-conformant evaluator with no
 * native code). Each is compiled once at load; a compile error is a load error.
 *
 * Bounds (expressions are written by definition authors but evaluated over model-supplied data):
 * at most {@link MAX_EXPRESSION_LENGTH} characters, bracket nesting at most
 * {@link MAX_EXPRESSION_DEPTH} (checked before parsing, so a parser never recurses deeply), and in
 * CEL at most {@link MAX_COMPREHENSION_NESTING} nested comprehensions (`all`, `exists`, `map`,
 * `filter`…), which caps evaluation cost at O(n²) in the size of the data. Evaluation never
 * throws: a runtime error (no such key, wrong operand types) yields `undefined`, which conditions
 * treat as false.
 *
 * Data model: JSON in, JSON out. For CEL, JSON integers are bound as CEL `int` (so
 * `inputs.count + 1` works, as in Syllable's Python evaluator) and other numbers as `double`;
 * results convert back (int → number, lists → arrays, maps → objects).
 */
import {
  celEnv,
  isCelError,
  isCelList,
  isCelMap,
  isCelUint,
  parse as parseCel,
  plan as planCel,
  type CelInput,
} from '@bufbuild/cel';
import * as jmespath from 'jmespath';
import { isPlainObject } from '../own-data.js';

/** Longest expression source accepted, in characters. */
export const MAX_EXPRESSION_LENGTH = 2000;
/** Deepest bracket nesting accepted (`(`, `[`, `{`). */
export const MAX_EXPRESSION_DEPTH = 32;
/** Deepest nesting of CEL comprehension macros accepted. */
export const MAX_COMPREHENSION_NESTING = 2;

/** The expression language. */
export type ExpressionLanguage = 'jmespath' | 'cel';

/** A compiled expression, evaluated over plain JSON data. */
export interface CompiledExpression {
  readonly language: ExpressionLanguage;
  readonly source: string;
  /** The value, or `undefined` when evaluation failed. Never throws. */
  evaluate(data: Readonly<Record<string, unknown>>): unknown;
}

/** The compiled expression, or the reason it cannot compile. */
export type CompileResult =
  | { readonly ok: true; readonly expression: CompiledExpression }
  | { readonly ok: false; readonly message: string };

// @types/jmespath declares only `search`; the package also exports `compile` (parse only).
const jmesCompile = (jmespath as unknown as { compile?: (expression: string) => unknown }).compile;

const env = celEnv();
const COMPREHENSIONS = /\.\s*(all|exists|exists_one|map|filter)\s*\(/g;

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
  try {
    if (jmesCompile !== undefined) jmesCompile(source);
    else jmespath.search(null, source);
  } catch (err) {
    return { ok: false, message: `invalid JMESPath expression: ${firstLine(err)}` };
  }
  return {
    ok: true,
    expression: {
      language: 'jmespath',
      source,
      evaluate(data) {
        try {
          return jmespath.search(data as Parameters<typeof jmespath.search>[0], source) as unknown;
        } catch {
          return undefined;
        }
      },
    },
  };
}

/** Compiles a CEL expression. */
export function compileCel(source: string): CompileResult {
  const bound = checkBounds(source) ?? checkComprehensions(source);
  if (bound !== undefined) return { ok: false, message: bound };
  let run: (ctx: Record<string, CelInput>) => unknown;
  try {
    run = planCel(env, parseCel(source)) as (ctx: Record<string, CelInput>) => unknown;
  } catch (err) {
    return { ok: false, message: `invalid CEL expression: ${firstLine(err)}` };
  }
  return {
    ok: true,
    expression: {
      language: 'cel',
      source,
      evaluate(data) {
        try {
          const bindings: Record<string, CelInput> = {};
          for (const key of Object.keys(data)) {
            if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) continue;
            bindings[key] = toCel(data[key]);
          }
          const result = run(bindings);
          return isCelError(result) ? undefined : fromCel(result);
        } catch {
          return undefined;
        }
      },
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

/** Counts comprehension nesting by the bracket depth at which each macro call opens. */
function checkComprehensions(source: string): string | undefined {
  const opens: number[] = [];
  for (const match of source.matchAll(COMPREHENSIONS))
    opens.push(match.index + match[0].length - 1);
  if (opens.length <= MAX_COMPREHENSION_NESTING) return undefined;
  // Depth of comprehension nesting: walk brackets, tracking which opened a macro.
  const stack: boolean[] = [];
  let nesting = 0;
  let max = 0;
  const macroAt = new Set(opens);
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '(' || c === '[' || c === '{') {
      const isMacro = macroAt.has(i);
      stack.push(isMacro);
      if (isMacro) max = Math.max(max, ++nesting);
    } else if (c === ')' || c === ']' || c === '}') {
      if (stack.pop() === true) nesting--;
    }
  }
  return max > MAX_COMPREHENSION_NESTING
    ? `CEL comprehensions nest ${max} deep; at most ${MAX_COMPREHENSION_NESTING} are allowed`
    : undefined;
}

function toCel(value: unknown): CelInput {
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
  if (Array.isArray(value)) return value.map(toCel);
  // A Map, never an object: a key such as "__proto__" stays data.
  if (isPlainObject(value))
    return new Map(Object.keys(value).map((key) => [key, toCel(value[key])] as const));
  return value as CelInput;
}

function fromCel(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (isCelUint(value)) return Number(value.value);
  if (isCelList(value)) return [...value].map(fromCel);
  if (isCelMap(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of value) {
      Object.defineProperty(out, String(k), {
        value: fromCel(v),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) return value;
  return undefined;
}

function firstLine(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.split('\n', 1)[0] ?? '';
}
