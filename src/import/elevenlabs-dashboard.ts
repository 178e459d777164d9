/**
 * ElevenLabs' dashboard "Tool JSON" (what its guides publish to copy into a tool config) writes
 * an `api_schema` differently from the API: parameter schemas as lists of `{ id, type,
 * description, dynamic_variable, constant_value, required, value_type, properties? }`, headers as
 * lists of `{ type: value|secret|dynamic_variable, name, … }`, an absent body as `null`. This
 * rewrites that form to the API's (objects keyed by name, `required` lists), so both import the
 * same way; the API form passes through unchanged.
 */
import { isPlainObject } from '../own-data.js';

type Json = Record<string, unknown>;

/** The tool config with its `api_schema` in the API's form (a copy when anything changed). */
export function apiForm(tool: unknown): unknown {
  if (!isPlainObject(tool) || !isPlainObject(tool['api_schema'])) return tool;
  const api: Json = { ...tool['api_schema'] };
  if (Array.isArray(api['path_params_schema']))
    api['path_params_schema'] = objectOf(api['path_params_schema']).properties;
  if (Array.isArray(api['query_params_schema'])) {
    const q = objectOf(api['query_params_schema']);
    api['query_params_schema'] = q.required.length > 0 ? q : { properties: q.properties };
  }
  if (api['request_body_schema'] === null) delete api['request_body_schema'];
  else if (isPlainObject(api['request_body_schema']))
    api['request_body_schema'] = property(api['request_body_schema']);
  if (Array.isArray(api['request_headers']))
    api['request_headers'] = headers(api['request_headers']);
  return { ...tool, api_schema: api };
}

function objectOf(list: readonly unknown[]): { properties: Json; required: string[] } {
  const properties: Json = {};
  const required: string[] = [];
  for (const item of list) {
    if (!isPlainObject(item) || typeof item['id'] !== 'string') continue;
    setOwn(properties, item['id'], property(item));
    if (item['required'] === true) required.push(item['id']);
  }
  return { properties, required };
}

/** One list-form property (or an API-form one, returned as is) in the API's form. */
function property(p: Json): Json {
  if (!('id' in p) && !Array.isArray(p['properties'])) return p;
  const out: Json = {};
  const valueType = p['value_type'];
  for (const [key, value] of Object.entries(p)) {
    if (key === 'id' || key === 'required' || key === 'value_type') continue;
    if ((key === 'dynamic_variable' || key === 'constant_value') && value === '') continue;
    if (key === 'dynamic_variable' && valueType !== undefined && valueType !== 'dynamic_variable')
      continue;
    if (key === 'constant_value' && valueType !== undefined && valueType !== 'constant_value')
      continue;
    if (key === 'properties' && Array.isArray(value)) {
      const o = objectOf(value);
      out['properties'] = o.properties;
      if (o.required.length > 0) out['required'] = o.required;
      continue;
    }
    setOwn(out, key, key === 'items' && isPlainObject(value) ? property(value) : value);
  }
  return out;
}

function headers(list: readonly unknown[]): Json {
  const out: Json = {};
  for (const h of list) {
    if (!isPlainObject(h) || typeof h['name'] !== 'string') continue;
    setOwn(
      out,
      h['name'],
      h['type'] === 'secret'
        ? { secret_id: h['secret_id'] }
        : h['type'] === 'dynamic_variable'
          ? { variable_name: h['variable_name'] ?? h['dynamic_variable'] }
          : h['value'],
    );
  }
  return out;
}

/** Writes an own property even for a vendor name like `__proto__` (a plain assignment would not). */
function setOwn(target: Json, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}
