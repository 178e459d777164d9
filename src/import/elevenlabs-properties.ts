/**
 * ElevenLabs property schemas (`LiteralJsonSchemaProperty`, `ObjectJsonSchemaPropertyInput`,
 * `ArrayJsonSchemaPropertyInput`) → the model's JSON Schema plus hidden values: a
 * `dynamic_variable` or `constant_value` becomes a static parameter at the top level and a dotted
 * `@override` rule deeper.
 */
import { isPlainObject } from '../own-data.js';
import type { FieldPath, ToolWarnings } from './conversion-context.js';
import { addConstant, addTemplate, type DraftTool } from './draft-tool.js';
import { ELEVENLABS_DIALECT } from './elevenlabs-schema.js';
import type { JsonSchemaJson } from './types.js';
import { isVariableName, toFormat, toMustache } from './variables.js';

/** Object properties (request body, client parameters): nested constants become dotted `@override` rules. */
export function properties(
  schema: Record<string, unknown>,
  field: FieldPath,
  path: string[],
  w: ToolWarnings,
  d: DraftTool,
): JsonSchemaJson {
  const props = isPlainObject(schema['properties']) ? schema['properties'] : {};
  // Sets: a vendor schema may list tens of thousands of properties.
  const required = new Set(Array.isArray(schema['required']) ? schema['required'].map(String) : []);
  // Keyed by vendor names (`__proto__` must stay an own key).
  const out = Object.create(null) as Record<string, JsonSchemaJson>;
  const outRequired: string[] = [];
  for (const [name, prop] of Object.entries(props)) {
    if (!isPlainObject(prop)) continue;
    const sub = literal(
      prop,
      [...field, 'properties', name],
      [...path, name],
      w,
      d,
      required.has(name),
    );
    if (sub !== undefined) {
      out[name] = sub;
      if (required.has(name)) outRequired.push(name);
    }
  }
  if (path.length === 0) {
    Object.assign(d.properties, out);
    d.required.push(...outRequired);
    // The body's own description (the HubSpot guide's "filters for searching contacts") is what
    // the model reads about the argument object: the root description of the parameters.
    if (typeof schema['description'] === 'string' && schema['description'] !== '')
      d.schemaExtras['description'] = schema['description'];
  }
  return {
    type: 'object',
    ...(typeof schema['description'] === 'string' ? { description: schema['description'] } : {}),
    properties: out,
    ...(outRequired.length > 0 ? { required: outRequired } : {}),
  };
}

/**
 * One property. The model fills it (its schema is returned) unless it is a `dynamic_variable` or
 * `constant_value` (a hidden value: a static parameter at the top level, an `@override` rule
 * deeper), `is_omitted` or `is_system_provided`.
 */
export function literal(
  prop: Record<string, unknown>,
  field: FieldPath,
  path: string[],
  w: ToolWarnings,
  d: DraftTool,
  required: boolean,
): JsonSchemaJson | undefined {
  const name = path.join('.');
  if (
    path.includes('[]') &&
    (prop['dynamic_variable'] !== undefined || prop['constant_value'] !== undefined)
  ) {
    w.warn(
      field,
      'a hidden value inside array items has no switchboard equivalent (rules address fixed paths); not imported',
    );
    return undefined;
  }
  const variable = prop['dynamic_variable'];
  if (variable !== undefined && (typeof variable !== 'string' || !isVariableName(variable))) {
    // Written into a template as is, anything but a name could read another variable.
    w.warn(
      [...field, 'dynamic_variable'],
      `${JSON.stringify(variable)} is not a variable name; not imported`,
    );
    return undefined;
  }
  if (typeof variable === 'string') {
    // The dialect maps ElevenLabs' system variables and names those without a switchboard value.
    const problem = (m: string): void => w.warn([...field, 'dynamic_variable'], m);
    const text = `{{${variable}}}`;
    if (path.length === 1)
      addTemplate(
        d,
        name,
        toMustache(text, ELEVENLABS_DIALECT, problem),
        str0(prop['description']),
      );
    else d.defaults[name] = `@override ${toFormat(text, ELEVENLABS_DIALECT, problem)}`;
    return undefined;
  }
  if (prop['constant_value'] !== undefined) {
    if (path.length === 1) addConstant(d, name, prop['constant_value'], str0(prop['description']));
    else d.defaults[name] = { transform: { action: 'override', value: prop['constant_value'] } };
    return undefined;
  }
  if (prop['is_omitted'] === true) {
    w.warn([...field, 'is_omitted'], 'omitted from the request: not imported');
    return undefined;
  }
  if (prop['is_system_provided'] === true) {
    w.warn(
      [...field, 'is_system_provided'],
      'a value ElevenLabs integrations fill at run time has no switchboard equivalent; not imported',
    );
    return undefined;
  }
  if (prop['allowed_values_dynamic_variable'] !== undefined)
    w.warn(
      [...field, 'allowed_values_dynamic_variable'],
      'run-time allowed values from a variable have no switchboard equivalent; any value passes',
    );
  const known = [
    'type',
    'description',
    'enum',
    'properties',
    'required',
    'items',
    'dynamic_variable',
    'constant_value',
    'is_omitted',
    'is_system_provided',
    'allowed_values_dynamic_variable',
    'required_constraints',
  ];
  w.unknownFields(prop, known, field);
  let out: JsonSchemaJson;
  if (prop['type'] === 'object' || isPlainObject(prop['properties'])) {
    out = properties(prop, field, path, w, d);
  } else {
    out = {};
    if (prop['type'] !== undefined) out['type'] = prop['type'];
    if (typeof prop['description'] === 'string') out['description'] = prop['description'];
    if (Array.isArray(prop['enum'])) out['enum'] = [...prop['enum']];
    if (isPlainObject(prop['items'])) {
      const items = prop['items'];
      out['items'] = isPlainObject(items['properties'])
        ? properties(items, [...field, 'items'], [...path, '[]'], w, d)
        : pickLiteral(items);
    }
  }
  if (path.length === 1) {
    d.properties[name] = out;
    if (required) d.required.push(name); // duplicates are dropped by finishDraft
    return undefined;
  }
  return out;
}

function pickLiteral(items: Record<string, unknown>): JsonSchemaJson {
  const out: JsonSchemaJson = {};
  for (const key of ['type', 'description', 'enum'])
    if (items[key] !== undefined) out[key] = items[key];
  return out;
}

function str0(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}
