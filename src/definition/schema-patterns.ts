/**
 * Finds every `pattern` and `patternProperties` key of a JSON Schema (only where a subschema can
 * stand, never inside `enum`, `const`, `default` or `examples` data) and checks that the
 * linear-time engine runs it, so the loader can name the exact path of a pattern it refuses.
 */
import { compileLinearRegExp } from './linear-regexp.js';
import { subschemas } from './schema-walk.js';

/** A pattern the engine refuses: where (segments under the schema), why, and whose fault kind. */
export interface PatternProblem {
  readonly path: readonly (string | number)[];
  readonly kind: 'invalid' | 'unsupported';
  readonly message: string;
}

/** Every refused pattern of `schema`, in document order. */
export function patternProblems(schema: unknown): PatternProblem[] {
  const problems: PatternProblem[] = [];
  for (const { node, path } of subschemas(schema)) {
    for (const [key, value] of Object.entries(node)) {
      const at = [...path, key];
      if (key === 'pattern' && typeof value === 'string') check(value, at, problems);
      if (key === 'patternProperties' && isObject(value)) {
        for (const name of Object.keys(value)) check(name, [...at, name], problems);
      }
    }
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
