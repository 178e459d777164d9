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

/**
 * Fields of the definition itself: written inside `endpoint`, `options`, `tool` or
 * `tool.function`, one is almost always a YAML indentation slip (`service:` indented under
 * `endpoint:`), which silently drops it — a service's credentials then never go with the calls.
 */
export const DEFINITION_FIELDS: readonly string[] = [
  'type',
  'tool',
  'endpoint',
  'command',
  'defaults',
  'static_parameters',
  'staticParameters',
  'result',
  'options',
  'service',
];

/** Where a field written at the wrong level belongs, said after "is not a field of …". */
interface Elsewhere {
  readonly names: readonly string[];
  readonly hint: (key: string) => string;
}

const OF_DEFINITION: Elsewhere = {
  names: DEFINITION_FIELDS,
  hint: (key) =>
    `; \`${key}\` is a field of the tool definition, beside \`tool\` (indented one level too deep?)`,
};

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
    elsewhere?: Elsewhere,
  ) => {
    if (!isObject(value)) return;
    for (const key of Object.keys(value)) {
      if (known.includes(key)) continue;
      const hint = elsewhere?.names.includes(key) ? elsewhere.hint(key) : didYouMean(key, known);
      out.push({
        code: 'unknown_field',
        severity: 'warning',
        path: [...at, key].reduce<string>(joinPath, path),
        message: `is not a field of ${what}${hint}; ignored`,
        ...(file !== undefined ? { file } : {}),
      });
    }
  };
  check(
    raw['endpoint'],
    ['endpoint'],
    Object.keys(endpointSchema.shape),
    'an endpoint',
    OF_DEFINITION,
  );
  check(raw['options'], ['options'], Object.keys(optionsSchema.shape), 'options', OF_DEFINITION);
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
  const functionKeys = Object.keys(functionToolSchema.shape.function.shape);
  // `tool: { name, parameters }` without `function:` around them (or indented one level short).
  check(tool, ['tool'], Object.keys(functionToolSchema.shape), 'a tool', {
    names: [...functionKeys, ...DEFINITION_FIELDS.filter((f) => f !== 'type')],
    hint: (key) =>
      functionKeys.includes(key)
        ? `; \`${key}\` is a field of \`tool.function\` (indent it under \`function:\`)`
        : OF_DEFINITION.hint(key),
  });
  if (isObject(tool))
    check(tool['function'], ['tool', 'function'], functionKeys, 'a function', {
      // `type` there is as likely the tool's own `type: function` one level deep.
      names: DEFINITION_FIELDS.filter((f) => f !== 'type'),
      hint: OF_DEFINITION.hint,
    });
  return out;
}
