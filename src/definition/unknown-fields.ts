/**
 * Fields inside `tool`, `tool.function`, `endpoint`, `options`, each static parameter and each
 * `options.save` rule that switchboard does not know. The shape check drops them, so a misspelt
 * one (`methd`, `propagate_tool_results`, `defualt`) would do nothing without a word: each is a
 * warning naming the field it is close to.
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
  const {
    functionToolSchema,
    endpointSchema,
    optionsSchema,
    staticParameterSchema,
    saveRuleSchema,
  } = definitionSchemas();
  const out: DefinitionIssue[] = [];
  const check = (
    value: unknown,
    at: readonly (string | number)[],
    known: readonly string[],
    what: string,
  ) => {
    if (!isObject(value)) return;
    for (const key of Object.keys(value)) {
      if (known.includes(key)) continue;
      out.push({
        code: 'unknown_field',
        severity: 'warning',
        path: [...at, key].reduce<string>(joinPath, path),
        message: `is not a field of ${what}${didYouMean(key, known)}; ignored`,
        ...(file !== undefined ? { file } : {}),
      });
    }
  };
  check(raw['endpoint'], ['endpoint'], Object.keys(endpointSchema.shape), 'an endpoint');
  check(raw['options'], ['options'], Object.keys(optionsSchema.shape), 'options');
  // A misspelt `defualt` or `form` would otherwise leave the parameter without its value, or
  // the rule without its source, and say nothing.
  const eachItem = (
    list: unknown,
    at: readonly (string | number)[],
    known: readonly string[],
    what: string,
  ) => {
    if (Array.isArray(list)) list.forEach((item, i) => check(item, [...at, i], known, what));
  };
  const staticKeys = Object.keys(staticParameterSchema.shape);
  for (const spelling of ['static_parameters', 'staticParameters'])
    eachItem(raw[spelling], [spelling], staticKeys, 'a static parameter');
  const options = raw['options'];
  if (isObject(options))
    eachItem(
      options['save'],
      ['options', 'save'],
      Object.keys(saveRuleSchema.shape),
      'a save rule',
    );
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
