/**
 * Fields inside `tool`, `tool.function`, `endpoint` and `options` that switchboard does not
 * know. The shape check drops them, so a misspelt one (`methd`, `propagate_tool_results`) would
 * do nothing without a word: each is a warning naming the field it is close to.
 */
import { didYouMean } from '../did-you-mean.js';
import type { DefinitionIssue } from '../errors.js';
import { joinPath } from './json-path.js';
import { definitionSchemas } from './schema.js';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One `unknown_field` warning per field of those objects that their schemas do not name. */
export function unknownNestedFields(
  raw: unknown,
  path: string,
  file: string | undefined,
): DefinitionIssue[] {
  if (!isObject(raw)) return [];
  const { functionToolSchema, endpointSchema, optionsSchema } = definitionSchemas();
  const out: DefinitionIssue[] = [];
  const check = (value: unknown, at: readonly string[], known: readonly string[], what: string) => {
    if (!isObject(value)) return;
    for (const key of Object.keys(value)) {
      if (known.includes(key)) continue;
      out.push({
        code: 'unknown_field',
        severity: 'warning',
        path: [...at, key].reduce(joinPath, path),
        message: `is not a field of ${what}${didYouMean(key, known)}; ignored`,
        ...(file !== undefined ? { file } : {}),
      });
    }
  };
  check(raw['endpoint'], ['endpoint'], Object.keys(endpointSchema.shape), 'an endpoint');
  check(raw['options'], ['options'], Object.keys(optionsSchema.shape), 'options');
  const tool = raw['tool'];
  check(tool, ['tool'], Object.keys(functionToolSchema.shape), 'a tool');
  if (isObject(tool))
    check(
      tool['function'],
      ['tool', 'function'],
      Object.keys(functionToolSchema.shape.function.shape),
      'a function',
    );
  return out;
}
