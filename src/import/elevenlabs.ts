/**
 * ElevenLabs Agents tools → Syllable-format definitions. Schema: elevenlabs/elevenlabs-js v2.56.0
 * (`WebhookToolConfigInput`, `WebhookToolApiSchemaConfigInput`, `LiteralJsonSchemaProperty`,
 * `ObjectJsonSchemaPropertyInput`, `ArrayJsonSchemaPropertyInput`, `SystemToolConfigInput`,
 * `ClientToolConfigInput`), wire names from its `serialization/` (snake_case). Table: docs/import.md.
 */
import type { z } from 'zod';
import {
  apiSchema,
  COMMON,
  MARKS,
  elevenLabsToolSchema,
  ELEVENLABS_DIALECT,
  type ElevenLabsTool,
} from './elevenlabs-schema.js';
import { literal, properties } from './elevenlabs-properties.js';
import { isPlainObject } from '../own-data.js';
import { apiForm } from './elevenlabs-dashboard.js';
import { agentTools, type LocatedTool } from './elevenlabs-agent.js';
import {
  checkVendorLimits,
  foreignTool,
  importResult,
  locateTools,
  parseVendor,
  ToolWarnings,
  type FieldPath,
  type SourceInfo,
} from './conversion-context.js';
import {
  draft,
  finishDraft,
  setHttp,
  toJmesPath,
  transferDestination,
  type DraftTool,
} from './draft-tool.js';
import {
  appendQuery,
  headersToService,
  mapUrl,
  serviceName,
  timeoutSecs,
  type VendorHeader,
} from './http-parts.js';
import type { ConversionWarning, ImportResult } from './types.js';

export { ELEVENLABS_DIALECT } from './elevenlabs-schema.js';
/**
 * Imports an ElevenLabs document: a list of tool configs, `{ tools: [...] }` (a list response:
 * items with `tool_config`), an agent (`conversation_config.agent.prompt`: `tools`, `built_in_tools`,
 * `tool_ids` warned), or one tool
 * (`{ tool_config }` or the config itself).
 */
export function importElevenLabs(value: unknown, source: SourceInfo): ImportResult {
  const expected =
    'a list of ElevenLabs tools, { "tools": [...] }, an agent (prompt.tools or built_in_tools), or one tool';
  const warnings: ConversionWarning[] = [];
  let items: LocatedTool[];
  const agent = agentTools(value, warnings);
  if (agent !== undefined) {
    checkVendorLimits(agent.lists, source);
    items = agent.items;
  } else {
    const found = locateTools(value, {
      keys: ['tools', 'conversation_config.agent.prompt.tools'],
      isOneTool: (v) => isPlainObject(v['tool_config']) || typeof v['name'] === 'string',
      expected,
      source,
    });
    items = found.list.map((item, index) => ({ item, base: `${found.base}[${index}]` }));
  }
  const tools = [];
  for (const { item, base: at } of items) {
    let base = at;
    let raw: unknown = item;
    if (isPlainObject(item) && isPlainObject(item['tool_config'])) {
      raw = item['tool_config'];
      base = `${base}.tool_config`;
    }
    // A tool without a `type` defaults to a client tool: one with none of ElevenLabs' fields and
    // another platform's (Ultravox's `definition`) is that platform's, not a client tool.
    const foreign = isPlainObject(raw) ? foreignTool(raw, MARKS, 'ElevenLabs') : undefined;
    if (foreign !== undefined) {
      const name = isPlainObject(raw) ? raw['name'] : undefined;
      new ToolWarnings(warnings, base, typeof name === 'string' ? name : undefined).warn(
        [foreign.field],
        foreign.message,
      );
      continue;
    }
    // The dashboard's Tool JSON (list-form schemas and headers) reads as the API's form.
    const t = parseVendor(elevenLabsToolSchema, apiForm(raw), base, source);
    const w = new ToolWarnings(warnings, base, t.name);
    const d = toDraft(t, w);
    if (d !== undefined) tools.push(finishDraft(w, d));
  }
  return importResult(
    tools,
    warnings,
    expected,
    items.map((i) => i.item),
    source,
  );
}

function toDraft(t: ElevenLabsTool, w: ToolWarnings): DraftTool | undefined {
  const type =
    t.type ??
    (t.api_schema !== undefined ? 'webhook' : t.params !== undefined ? 'system' : 'client');
  const d = draft(t.name, ['name'], t.description);
  common(t, w, d);
  switch (type) {
    case 'webhook':
      w.unknownFields(t, [...COMMON, 'api_schema']);
      if (t.api_schema === undefined) {
        w.warn(['api_schema'], 'a webhook without api_schema; imported as an action');
        return d;
      }
      webhook(t.api_schema, w, d, t.response_timeout_secs);
      return d;
    case 'client':
      w.unknownFields(t, [...COMMON, 'parameters', 'expects_response']);
      w.warn(
        ['type'],
        'a client tool runs in the ElevenLabs client SDK; imported as an action the host implements',
      );
      if (t.parameters !== undefined) properties(t.parameters, ['parameters'], [], w, d);
      return d;
    case 'system':
      w.unknownFields(t, [...COMMON, 'params']);
      return system(t, w, d);
    default:
      w.warn(['type'], 'MCP tools are served by an MCP server, not a definition; not imported');
      return undefined;
  }
}

function common(t: ElevenLabsTool, w: ToolWarnings, d: DraftTool): void {
  if (t.disable_interruptions === true)
    d.options.speech = { ...d.options.speech, interruptible: false };
  if (t.execution_mode === 'async') d.options.background = true;
  else if (t.execution_mode === 'post_tool_speech')
    d.options.speech = { ...d.options.speech, after_speech: true };
  else if (t.execution_mode !== undefined && t.execution_mode !== 'immediate')
    w.warn(
      ['execution_mode'],
      `execution mode "${t.execution_mode}" has no switchboard equivalent; ignored`,
    );
  const speech = t.pre_tool_speech ?? (t.force_pre_tool_speech === true ? 'force' : undefined);
  if (speech !== undefined && speech !== 'auto')
    w.warn(
      [t.pre_tool_speech !== undefined ? 'pre_tool_speech' : 'force_pre_tool_speech'],
      `pre-tool speech "${speech}" is generated by the ElevenLabs model; switchboard speaks fixed phrases (options.speech.before); ignored`,
    );
  for (const key of [
    'tool_call_sound',
    'tool_call_sound_behavior',
    'tool_error_handling_mode',
    'dynamic_variables',
  ])
    if (Object.hasOwn(t, key))
      w.warn([key], 'an ElevenLabs runtime setting with no switchboard equivalent; ignored');
  for (const [i, a] of (t.assignments ?? []).entries()) {
    const from = toJmesPath(a.value_path);
    if (a.source !== undefined && a.source !== 'response')
      w.warn(
        ['assignments', i, 'source'],
        `source "${a.source}" is not the response; not imported`,
      );
    else if (from === undefined)
      w.warn(
        ['assignments', i, 'value_path'],
        `"${a.value_path}" is not a plain path; not imported`,
      );
    else (d.options.save ??= []).push({ from, to: a.dynamic_variable });
  }
}

function webhook(
  api: z.output<typeof apiSchema>,
  w: ToolWarnings,
  d: DraftTool,
  timeout: number | undefined,
): void {
  const at: FieldPath = ['api_schema'];
  w.unknownFields(
    api,
    [
      'url',
      'method',
      'request_headers',
      'path_params_schema',
      'query_params_schema',
      'request_body_schema',
      'content_type',
      'auth_connection',
      'response_body_schema',
      'response_filter',
      'auth_resolved_params',
    ],
    at,
  );
  for (const key of ['response_body_schema', 'response_filter', 'auth_resolved_params'])
    if (Object.hasOwn(api, key))
      w.warn(
        [...at, key],
        'no switchboard equivalent (the model gets the whole response); ignored',
      );
  const method = api.method ?? 'GET';
  const hasBody =
    api.request_body_schema !== undefined && !['GET', 'DELETE'].includes(method.toUpperCase());
  const location = hasBody
    ? api.content_type === 'application/x-www-form-urlencoded'
      ? 'form'
      : 'body'
    : 'query';
  for (const [name, prop] of Object.entries(api.path_params_schema ?? {}))
    literal(prop, [...at, 'path_params_schema', name], [name], w, d, true);
  const constants: string[] = [];
  const query = api.query_params_schema;
  const queryRequired = new Set(query?.required ?? []);
  for (const [name, prop] of Object.entries(query?.properties ?? {})) {
    const field: FieldPath = [...at, 'query_params_schema', 'properties', name];
    if (
      location !== 'query' &&
      prop['constant_value'] !== undefined &&
      typeof prop['constant_value'] !== 'object'
    ) {
      constants.push(
        `${encodeURIComponent(name)}=${encodeURIComponent(String(prop['constant_value']))}`,
      );
      continue;
    }
    if (location !== 'query')
      w.warn(
        field,
        'switchboard sends all arguments one way; this query parameter goes in the request body',
      );
    literal(prop, field, [name], w, d, queryRequired.has(name));
  }
  if (api.request_body_schema !== undefined) {
    if (!hasBody)
      w.warn(
        [...at, 'request_body_schema'],
        `${method} sends no body; the body parameters go in the query string`,
      );
    properties(api.request_body_schema, [...at, 'request_body_schema'], [], w, d);
  }
  const url = appendQuery(
    queryPlaceholders(api.url, api.path_params_schema ?? {}, location, w, [...at, 'url']),
    constants,
  );
  const mapped = mapUrl(w, [...at, 'url'], url, ELEVENLABS_DIALECT, location === 'query');
  setHttp(d, mapped, {
    method,
    location,
    methodField: [...at, 'method'],
    ...(timeout !== undefined
      ? { timeoutSecs: timeoutSecs(w, ['response_timeout_secs'], timeout) }
      : {}),
  });
  const headers: VendorHeader[] = Object.entries(api.request_headers ?? {}).map(([name, v]) => ({
    name,
    field: [...at, 'request_headers', name],
    value:
      typeof v === 'string'
        ? { kind: 'literal', value: v }
        : 'secret_id' in v
          ? { kind: 'secret', ref: String(v.secret_id) }
          : 'variable_name' in v
            ? { kind: 'variable', name: String(v.variable_name) }
            : { kind: 'secret', ref: String(v['env_var_label']) },
  }));
  const connection = api.auth_connection;
  const ref = connection?.auth_connection_id ?? connection?.env_var_label;
  if (ref !== undefined)
    headers.unshift({
      name: 'authorization',
      field: [...at, 'auth_connection'],
      value: { kind: 'secret', ref },
    });
  const service = serviceName(ref, api.url);
  if (headersToService(w, headers, service, api.url)) d.service = service;
}

function system(t: ElevenLabsTool, w: ToolWarnings, d: DraftTool): DraftTool {
  const params = t.params;
  const kind = params?.system_tool_type;
  if (t.response_timeout_secs !== undefined)
    w.warn(['response_timeout_secs'], 'an action has no endpoint timeout; ignored');
  if (kind === 'end_call') return d;
  if (kind === 'transfer_to_number') {
    const targets: { value: string; description?: string }[] = [];
    for (const [i, tr] of (params?.transfers ?? []).entries()) {
      const dest = isPlainObject(tr['transfer_destination']) ? tr['transfer_destination'] : {};
      const value = dest['phone_number'] ?? dest['sip_uri'] ?? tr['phone_number'];
      if (typeof value !== 'string') {
        w.warn(
          ['params', 'transfers', i],
          'a transfer without a phone number or SIP URI; not imported',
        );
        continue;
      }
      if (typeof dest['type'] === 'string' && dest['type'].endsWith('_dynamic_variable'))
        w.warn(
          ['params', 'transfers', i, 'transfer_destination'],
          `the destination is the variable "${value}"; imported as the literal name, set it in the host`,
        );
      for (const key of ['transfer_type', 'custom_sip_headers', 'post_dial_digits', 'uui'])
        if (Object.hasOwn(tr, key))
          w.warn(
            ['params', 'transfers', i, key],
            "telephony detail of the host's transfer; not imported",
          );
      targets.push({ value, ...(tr.condition !== undefined ? { description: tr.condition } : {}) });
    }
    transferDestination(d, targets, w, ['params', 'transfers']);
    return d;
  }
  w.warn(
    ['params', 'system_tool_type'],
    `system tool "${kind}" runs inside ElevenLabs; imported as an action for the host to implement`,
  );
  if (kind === 'transfer_to_agent') agentTransfers(params?.transfers ?? [], w, d);
  else w.unknownFields(params, ['system_tool_type'], ['params']);
  return d;
}

/**
 * `transfer_to_agent` rules: the target agents become the action's `destination` (one: fixed;
 * several: the model picks, each rule's condition in the description), as for a number transfer.
 */
function agentTransfers(
  transfers: readonly Record<string, unknown>[],
  w: ToolWarnings,
  d: DraftTool,
): void {
  const targets: { value: string; description?: string }[] = [];
  for (const [i, tr] of transfers.entries()) {
    const at: FieldPath = ['params', 'transfers', i];
    if (typeof tr['agent_id'] !== 'string') {
      w.warn(at, 'a transfer without an agent_id; not imported');
      continue;
    }
    // `null` is ElevenLabs' "not set" (a silent transfer has `transfer_message: null`).
    for (const key of Object.keys(tr))
      if (key !== 'agent_id' && key !== 'condition' && tr[key] !== null)
        w.warn(
          [...at, key],
          "a setting of ElevenLabs' agent transfer (the host's transfer action decides it); not imported",
        );
    const condition = tr['condition'];
    targets.push({
      value: tr['agent_id'],
      ...(typeof condition === 'string' ? { description: condition } : {}),
    });
  }
  transferDestination(d, targets, w, ['params', 'transfers']);
}

/**
 * ElevenLabs fills `{name}` anywhere in the URL, the query string included (its weather example:
 * `?latitude={latitude}&longitude={longitude}&current=…`). A switchboard placeholder is path-only,
 * so `key={key}` in the query becomes the query argument `key` (the model's parameter of that name,
 * sent in the query string), and the literal pairs stay in the URL. A placeholder whose key differs
 * from its name, or one in a request that sends a body, stays and makes the tool an action (warned).
 */
function queryPlaceholders(
  url: string,
  pathParams: Record<string, unknown>,
  location: 'body' | 'form' | 'query',
  w: ToolWarnings,
  field: FieldPath,
): string {
  const at = url.indexOf('?');
  if (at < 0 || location !== 'query') return url;
  const kept: string[] = [];
  for (const pair of url.slice(at + 1).split('&')) {
    const m = /^([A-Za-z0-9_.-]+)=\{([A-Za-z0-9_]+)\}$/.exec(pair);
    if (m === null || !Object.hasOwn(pathParams, m[2]!)) kept.push(pair);
    else if (m[1] !== m[2])
      w.warn(
        field,
        `query parameter "${m[1]}" takes {${m[2]}}: switchboard sends a query argument under its own name; rename the parameter to "${m[1]}" to import it as an HTTP call`,
      );
    else continue;
  }
  if (kept.length > 0 && kept.some((p) => /\{[A-Za-z0-9_]+\}/.test(p))) return url;
  return kept.length > 0 ? `${url.slice(0, at)}?${kept.join('&')}` : url.slice(0, at);
}
