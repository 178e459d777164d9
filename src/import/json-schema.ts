/**
 * Vendor JSON Schemas made fit for switchboard's ajv strict mode: keywords outside JSON Schema
 * (a platform's own annotations, typos) are removed with a warning naming each, so an imported
 * definition always compiles. Subschemas are walked where JSON Schema puts them.
 */
import { isPlainObject } from '../transform/own-data.js';
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
    if (ANNOTATIONS.includes(key)) out[key] = structuredClone(value);
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
