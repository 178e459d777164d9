/**
 * Finds every `pattern` and `patternProperties` key of a JSON Schema (only where a subschema can
 * stand, never inside `enum`, `const`, `default` or `examples` data) and checks that the
 * linear-time engine runs it, so the loader can name the exact path of a pattern it refuses.
 * Iterative: the definition's depth is capped before this runs, but no walk here recurses.
 */
import { compileLinearRegExp } from './linear-regexp.js';

/** A pattern the engine refuses: where (segments under the schema), why, and whose fault kind. */
export interface PatternProblem {
  readonly path: readonly (string | number)[];
  readonly kind: 'invalid' | 'unsupported';
  readonly message: string;
}

/** Keywords whose value is one subschema. */
const ONE = new Set([
  'additionalItems',
  'additionalProperties',
  'contains',
  'else',
  'if',
  'items',
  'not',
  'propertyNames',
  'then',
  'unevaluatedItems',
  'unevaluatedProperties',
]);
/** Keywords whose value is a list of subschemas. */
const LIST = new Set(['allOf', 'anyOf', 'items', 'oneOf', 'prefixItems']);
/** Keywords whose value maps names to subschemas. */
const MAP = new Set([
  '$defs',
  'definitions',
  'dependencies',
  'dependentSchemas',
  'patternProperties',
  'properties',
]);

/** Every refused pattern of `schema`, in document order. */
export function patternProblems(schema: unknown): PatternProblem[] {
  const problems: PatternProblem[] = [];
  const stack: { node: unknown; path: (string | number)[] }[] = [{ node: schema, path: [] }];
  while (stack.length > 0) {
    const { node, path } = stack.pop()!;
    if (node === null || typeof node !== 'object' || Array.isArray(node)) continue;
    const found: { node: unknown; path: (string | number)[] }[] = [];
    for (const [key, value] of Object.entries(node)) {
      const at = [...path, key];
      if (key === 'pattern' && typeof value === 'string') check(value, at, problems);
      if (key === 'patternProperties' && isObject(value)) {
        for (const name of Object.keys(value)) check(name, [...at, name], problems);
      }
      if (ONE.has(key)) found.push({ node: value, path: at });
      if (LIST.has(key) && Array.isArray(value)) {
        value.forEach((child, i) => found.push({ node: child, path: [...at, i] }));
      }
      if (MAP.has(key) && isObject(value)) {
        for (const [name, child] of Object.entries(value))
          found.push({ node: child, path: [...at, name] });
      }
    }
    // Reversed so the stack visits children in document order.
    stack.push(...found.reverse());
  }
  return problems;
}

function check(pattern: string, path: (string | number)[], problems: PatternProblem[]): void {
  const result = compileLinearRegExp(pattern);
  if (!result.ok) problems.push({ path, kind: result.kind, message: result.message });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
