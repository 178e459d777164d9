/**
 * Vendor JSON Schemas made fit for switchboard's ajv strict mode: keywords outside JSON Schema
 * (a platform's own annotations, typos) are removed with a warning naming each, so an imported
 * definition always compiles. Subschemas are walked where JSON Schema puts them.
 */
import { isPlainObject } from '../own-data.js';
import type { FieldPath, ToolWarnings } from './conversion-context.js';
import type { JsonSchemaJson } from './types.js';

const ANNOTATIONS = [
  'type',
  'description',
  'title',
  'enum',
  'const',
  'default',
  'examples',
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'uniqueItems',
  'required',
  'minProperties',
  'maxProperties',
  'nullable',
  '$comment',
  'deprecated',
  'readOnly',
  'writeOnly',
  '$ref',
  'contentMediaType',
  'contentEncoding',
];
const SUBSCHEMA = [
  'items',
  'additionalProperties',
  'not',
  'propertyNames',
  'contains',
  'if',
  'then',
  'else',
];
const SUBSCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const SUBSCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions'];

/** A copy of `schema` with only JSON Schema keywords; each removed one is a warning. */
export function cleanSchema(
  w: ToolWarnings,
  field: FieldPath,
  schema: unknown,
  drop: readonly string[] = [],
): JsonSchemaJson {
  if (!isPlainObject(schema)) return {};
  const out: JsonSchemaJson = {};
  for (const [key, value] of Object.entries(schema)) {
    if (drop.includes(key)) continue;
    const wrong = ANNOTATIONS.includes(key) ? malformed(key, value) : undefined;
    if (wrong !== undefined)
      w.warn([...field, key], `${wrong}, which switchboard cannot validate with; removed`);
    else if (ANNOTATIONS.includes(key)) out[key] = structuredClone(value);
    else if (SUBSCHEMA.includes(key))
      out[key] = typeof value === 'boolean' ? value : cleanSchema(w, [...field, key], value, drop);
    else if (SUBSCHEMA_LISTS.includes(key) && Array.isArray(value))
      out[key] = value.map((s, i) => cleanSchema(w, [...field, key, i], s, drop));
    else if (SUBSCHEMA_MAPS.includes(key) && isPlainObject(value))
      out[key] = Object.fromEntries(
        Object.entries(value).map(([k, s]) => [k, cleanSchema(w, [...field, key, k], s, drop)]),
      );
    else w.warn([...field, key], 'not a JSON Schema keyword switchboard validates with; removed');
  }
  return out;
}

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
const COUNTS = new Set([
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
]);
const BOUNDS = new Set(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']);

/**
 * Why a keyword's value is not what JSON Schema allows (`"type": 5`), or undefined when it is.
 * Such a value would import and then fail to load, reported against the output, not the vendor
 * file; checked here, the warning names the vendor path.
 */
function malformed(key: string, value: unknown): string | undefined {
  const json = JSON.stringify(value) ?? String(value);
  if (key === 'type') {
    const list = Array.isArray(value) ? value : [value];
    return list.length > 0 && list.every((t) => typeof t === 'string' && TYPES.has(t))
      ? undefined
      : `"type": ${json} is not a JSON Schema type`;
  }
  if (key === 'required')
    return Array.isArray(value) && value.every((v) => typeof v === 'string')
      ? undefined
      : `"required": ${json} is not a list of names`;
  if (key === 'enum') return Array.isArray(value) ? undefined : `"enum": ${json} is not a list`;
  if (COUNTS.has(key))
    return Number.isInteger(value) && (value as number) >= 0
      ? undefined
      : `"${key}": ${json} is not a non-negative integer`;
  if (BOUNDS.has(key) || key === 'multipleOf')
    return typeof value === 'number' &&
      Number.isFinite(value) &&
      (key !== 'multipleOf' || value > 0)
      ? undefined
      : `"${key}": ${json} is not a${key === 'multipleOf' ? ' positive' : ''} number`;
  if (key === 'pattern' || key === 'format' || key === 'description' || key === 'title')
    return typeof value === 'string' ? undefined : `"${key}": ${json} is not a string`;
  return undefined;
}

/**
 * The `properties` and `required` of an object schema (each empty when missing or malformed), and
 * its other root keywords (`extras`: `additionalProperties`, `minProperties`…), which constrain the
 * arguments as much as the properties do and so are kept on both import and export.
 */
export function objectParts(schema: JsonSchemaJson): {
  properties: Record<string, JsonSchemaJson>;
  required: string[];
  extras: JsonSchemaJson;
} {
  const extras: JsonSchemaJson = {};
  for (const [key, value] of Object.entries(schema))
    if (!ROOT_PARTS.has(key)) extras[key] = structuredClone(value);
  return {
    properties: (isPlainObject(schema['properties']) ? schema['properties'] : {}) as Record<
      string,
      JsonSchemaJson
    >,
    required: Array.isArray(schema['required']) ? schema['required'].map(String) : [],
    extras,
  };
}

/** Root keywords {@link objectParts} returns apart (`description` is the tool's, not kept). */
const ROOT_PARTS = new Set(['type', 'properties', 'required', 'description', 'title']);

/** `{ type: object, properties, required? }` with `required` left out when empty. */
export function objectSchema(
  properties: Record<string, JsonSchemaJson>,
  required: readonly string[],
  description?: string,
  extras: JsonSchemaJson = {},
): JsonSchemaJson {
  return {
    type: 'object',
    ...(description !== undefined ? { description } : {}),
    properties,
    ...(required.length > 0 ? { required: [...required] } : {}),
    ...structuredClone(extras),
  };
}
