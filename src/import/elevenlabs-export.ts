/**
 * Syllable-format definitions → ElevenLabs tool configs (the reverse of elevenlabs.ts): endpoints
 * become webhook tools, hidden values `constant_value` / `dynamic_variable` properties, the
 * end-call and transfer actions system tools, other actions client tools.
 */
import type { ToolDefinition } from '../definition/types.js';
import { isPlainObject } from '../own-data.js';
import { ELEVENLABS_DIALECT } from './elevenlabs.js';
import {
  beforePhrases,
  descriptionOf,
  exportViews,
  unexpressedExtras,
  unexpressedRule,
  destinationKind,
  writtenText,
  type ExportView,
} from './export-view.js';
import { objectSchema } from './json-schema.js';
import type { ExportResult, JsonSchemaJson } from './types.js';
import { fromFormat, mustacheText, singleVariable } from './variables.js';

const PLATFORM = 'ElevenLabs';

/** Exports definitions as ElevenLabs tool configs. */
export function exportElevenLabs(defs: readonly ToolDefinition[]): ExportResult {
  return exportViews(defs, (v) => {
    unexpressedExtras(v, PLATFORM);
    const tool = toolConfig(v);
    if (v.kind !== 'http') for (const rule of v.rules) unexpressedRule(v, rule, PLATFORM);
    return tool;
  });
}

/**
 * The root description of the arguments (an imported body's own description), written where
 * ElevenLabs has one: the body's or a client tool's `parameters` description. A query string has
 * none (a warning).
 */
function rootDescription(v: ExportView): { description?: string } {
  const d = v.def.tool.function.parameters['description'];
  if (typeof d !== 'string') return {};
  const location = v.def.endpoint?.argumentLocation;
  if (v.kind === 'action' || location === 'body' || location === 'form') return { description: d };
  v.w.warn(
    ['tool', 'function', 'parameters', 'description'],
    'ElevenLabs query parameters have no common description; not exported',
  );
  return {};
}

function toolConfig(v: ExportView): Record<string, unknown> {
  const f = v.def.tool.function;
  const head = { name: f.name, description: descriptionOf(v.def) ?? '' };
  speech(v);
  if (v.kind === 'end_call')
    return { type: 'system', ...head, params: { system_tool_type: 'end_call' } };
  if (v.kind === 'transfer') return { type: 'system', ...head, params: transferParams(v) };
  if (v.kind === 'action') {
    const body = { ...literalProps(v, v.properties, v.required, []), ...rootDescription(v) };
    return { type: 'client', ...head, ...runtime(v), parameters: body, expects_response: true };
  }
  return { type: 'webhook', ...head, ...runtime(v), api_schema: apiSchema(v) };
}

function runtime(v: ExportView): Record<string, unknown> {
  const def = v.def;
  const o = def.options;
  return {
    ...(def.endpoint !== undefined && def.endpoint.timeoutSecs !== 20
      ? { response_timeout_secs: def.endpoint.timeoutSecs }
      : {}),
    ...(!o.speech.interruptible ? { disable_interruptions: true } : {}),
    ...(o.background
      ? { execution_mode: 'async' }
      : o.speech.afterSpeech && v.kind === 'http'
        ? { execution_mode: 'post_tool_speech' }
        : {}),
    ...(o.save.length > 0
      ? {
          assignments: o.save.map((s) => ({
            source: 'response',
            dynamic_variable: s.to,
            value_path: s.from,
          })),
        }
      : {}),
  };
}

function speech(v: ExportView): void {
  const o = v.def.options;
  if (beforePhrases(v.def).size > 0)
    v.w.warn(
      ['options', 'speech', 'before'],
      'ElevenLabs lets its model phrase pre-tool speech; fixed phrases are not exported',
    );
  if (Object.keys(o.bridgePhrases).length > 0)
    v.w.warn(['options', 'bridge_phrases'], 'no fixed bridge phrases in ElevenLabs; not exported');
  if (o.speech.onError.size > 0)
    v.w.warn(
      ['options', 'speech', 'on_error'],
      'no spoken error phrases in ElevenLabs; not exported',
    );
}

/** A hidden value as a property: `dynamic_variable` for `{{vars.x}}`, `constant_value` for a literal. */
function hidden(
  v: ExportView,
  field: (string | number)[],
  value: unknown,
  description?: string,
): JsonSchemaJson | undefined {
  const type = Array.isArray(value)
    ? 'array'
    : Number.isInteger(value)
      ? 'integer'
      : typeof value === 'number'
        ? 'number'
        : typeof value === 'boolean'
          ? 'boolean'
          : 'string';
  const extra = description !== undefined ? { description } : {};
  const literal = typeof value === 'string' ? mustacheText(value) : undefined;
  if (literal !== undefined) return { type, constant_value: literal, ...extra };
  if (typeof value === 'string') {
    const name = singleVariable(value, ELEVENLABS_DIALECT);
    if (name === undefined) {
      v.w.warn(
        field,
        `"${value}" is not a single variable; ElevenLabs takes one dynamic_variable per property; not exported`,
      );
      return undefined;
    }
    return { type, dynamic_variable: name, ...extra };
  }
  return { type, constant_value: structuredClone(value), ...extra };
}

const PARAMETERS = ['tool', 'function', 'parameters', 'properties'];

function droppedKeyword(v: ExportView): (path: (string | number)[]) => void {
  return (path) =>
    v.w.warn(
      path,
      `ElevenLabs property schemas have type, description, enum, items and properties only; "${String(path.at(-1))}" not exported`,
    );
}

/** Model properties as ElevenLabs property schemas (objects and arrays kept, literals as written). */
function literalProps(
  v: ExportView,
  props: Record<string, JsonSchemaJson>,
  required: readonly string[],
  at: string[],
): JsonSchemaJson {
  // Keyed by argument names (`__proto__` must stay an own key).
  const out = Object.create(null) as Record<string, JsonSchemaJson>;
  for (const [name, schema] of Object.entries(props))
    out[name] = property(schema, droppedKeyword(v), [...PARAMETERS, ...at, name]);
  if (at.length === 0) {
    for (const s of v.def.staticParameters) {
      if (v.def.endpoint?.pathParams.includes(s.name)) continue;
      const p = hidden(v, ['static_parameters', s.name], s.default, s.description);
      if (p !== undefined) out[s.name] = p;
    }
    for (const rule of v.rules) {
      const segments = rule.key.split('.');
      const literal =
        rule.format !== undefined ? fromFormat(rule.format, ELEVENLABS_DIALECT) : undefined;
      const value =
        rule.format !== undefined
          ? literal !== undefined
            ? literal.replace(/^\{\{(.*)\}\}$/, '{{vars.$1}}')
            : undefined
          : rule.value;
      const container = segments.slice(0, -1).reduce<JsonSchemaJson | undefined>(
        (o, s) => {
          const next = o?.['properties'];
          return isPlainObject(next) && isPlainObject(next[s])
            ? (next[s] as JsonSchemaJson)
            : undefined;
        },
        { properties: out },
      );
      const holder = container?.['properties'];
      if (
        rule.action !== 'override' ||
        rule.conditional ||
        value === undefined ||
        !isPlainObject(holder)
      ) {
        unexpressedRule(
          v,
          rule,
          PLATFORM,
          'only unconditional overrides with a literal or one variable',
        );
        continue;
      }
      const p = hidden(v, ['defaults', rule.key], value);
      if (p !== undefined) holder[segments.at(-1)!] = p;
    }
  }
  return objectSchema(out, required);
}

/** The keywords an ElevenLabs property schema has; others are named by `dropped`. */
const PROPERTY_KEYWORDS = new Set([
  'type',
  'description',
  'enum',
  'items',
  'properties',
  'required',
]);

function property(
  schema: JsonSchemaJson,
  dropped: (path: (string | number)[]) => void,
  at: (string | number)[],
): JsonSchemaJson {
  // A `default` or `pattern` left out silently would change what the model must send or what
  // is checked: each is a warning.
  for (const key of Object.keys(schema)) if (!PROPERTY_KEYWORDS.has(key)) dropped([...at, key]);
  if (isPlainObject(schema['properties'])) {
    const props = Object.fromEntries(
      Object.entries(schema['properties']).map(([k, s]) => [
        k,
        property(s as JsonSchemaJson, dropped, [...at, 'properties', k]),
      ]),
    );
    return {
      type: 'object',
      ...(typeof schema['description'] === 'string' ? { description: schema['description'] } : {}),
      properties: props,
      ...(Array.isArray(schema['required']) ? { required: schema['required'] } : {}),
    };
  }
  const out: JsonSchemaJson = {};
  for (const key of ['type', 'description', 'enum'])
    if (schema[key] !== undefined) out[key] = structuredClone(schema[key]);
  if (isPlainObject(schema['items']))
    out['items'] = property(schema['items'] as JsonSchemaJson, dropped, [...at, 'items']);
  return out;
}

function apiSchema(v: ExportView): Record<string, unknown> {
  const def = v.def;
  const endpoint = def.endpoint!;
  // A service name is not an ElevenLabs auth connection id, and its headers are not exported.
  if (def.service !== undefined)
    v.w.warn(
      ['service'],
      `service "${def.service}" exported as auth_connection_id "${def.service}": set the id of the ElevenLabs auth connection holding its auth (or a request_headers secret), and add its headers in ElevenLabs`,
    );
  const props = { ...v.properties };
  const pathSchema: Record<string, JsonSchemaJson> = {};
  for (const p of endpoint.pathParams) {
    const fixed = def.staticParameters.find((s) => s.name === p);
    const schema =
      fixed !== undefined
        ? hidden(v, ['static_parameters', p], fixed.default, fixed.description)
        : props[p] !== undefined
          ? property(props[p], droppedKeyword(v), [...PARAMETERS, p])
          : undefined;
    delete props[p];
    if (schema !== undefined) pathSchema[p] = schema;
  }
  const required = v.required.filter((r) => !endpoint.pathParams.includes(r));
  const params = literalProps(v, props, required, []);
  const inQuery = endpoint.argumentLocation === 'query' || endpoint.argumentLocation === 'path';
  // Read for both: in the query string it has no place, and the warning says so.
  const described = rootDescription(v);
  return {
    url: endpoint.url,
    method: endpoint.method.toUpperCase(),
    ...(Object.keys(pathSchema).length > 0 ? { path_params_schema: pathSchema } : {}),
    ...(inQuery
      ? {
          query_params_schema: {
            properties: params['properties'],
            ...(required.length > 0 ? { required } : {}),
          },
        }
      : {
          request_body_schema: { ...params, ...described },
        }),
    ...(endpoint.argumentLocation === 'form'
      ? { content_type: 'application/x-www-form-urlencoded' }
      : {}),
    ...(def.service !== undefined ? { auth_connection: { auth_connection_id: def.service } } : {}),
  };
}

/**
 * A transfer action's params: `transfer_to_agent` when every destination names an agent (what
 * such a tool imports as), else `transfer_to_number` (phone numbers and SIP URIs; an agent among
 * them is a warning and left out).
 */
function transferParams(v: ExportView): Record<string, unknown> {
  const fixed = v.def.staticParameters.find((s) => s.name === 'destination');
  const list =
    fixed !== undefined && typeof fixed.default === 'string'
      ? [{ value: writtenText(fixed.default), condition: fixed.description ?? '' }]
      : ((v.properties['destination']?.['enum'] as unknown[] | undefined) ?? []).map((n) => ({
          value: String(n),
          condition: '',
        }));
  const field = ['tool', 'function', 'parameters', 'properties', 'destination'];
  if (fixed === undefined && list.length > 0)
    v.w.warn(
      field,
      'ElevenLabs chooses between transfers by condition; conditions are left empty: write them',
    );
  if (list.length > 0 && list.every((t) => destinationKind(t.value) === 'agent'))
    return {
      system_tool_type: 'transfer_to_agent',
      transfers: list.map((t) => ({ agent_id: t.value, condition: t.condition })),
    };
  const transfers = list.flatMap((t) => {
    const kind = destinationKind(t.value);
    if (kind === 'agent') {
      v.w.warn(
        field,
        `"${t.value}" names an agent, which a transfer_to_number tool cannot reach; not exported`,
      );
      return [];
    }
    const destination =
      kind === 'sip'
        ? { type: 'sip_uri', sip_uri: t.value }
        : { type: 'phone', phone_number: t.value };
    return [{ transfer_destination: destination, condition: t.condition }];
  });
  return { system_tool_type: 'transfer_to_number', transfers };
}
