/**
 * Vapi tools → Syllable-format definitions. Schema: VapiAI/server-sdk-typescript v2.0.0
 * (`CreateFunctionToolDto`, `CreateApiRequestToolDto`, `CreateEndCallToolDto`,
 * `CreateTransferCallToolDto`, `ToolMessageStart`, `ToolMessageDelayed`, `Server`, `JsonSchema`);
 * the field-by-field table is in docs/import.md.
 */
import { z } from 'zod';
import { isPlainObject } from '../transform/own-data.js';
import {
  findList,
  parseVendor,
  ToolWarnings,
  vendorError,
  type FieldPath,
  type SourceInfo,
} from './conversion-context.js';
import { addConstant, draft, finishDraft, toJmesPath, type DraftTool } from './draft-tool.js';
import {
  headersToService,
  mapUrl,
  serviceName,
  timeoutSecs,
  type VendorHeader,
} from './http-parts.js';
import { cleanSchema } from './json-schema.js';
import { addBridge, addPhrase, setBefore, setOnError, type Phrases } from './messages.js';
import type { ConversionWarning, ImportResult, JsonSchemaJson } from './types.js';
import {
  hasVendorVariable,
  toFormat,
  toMustache,
  vendorVariables,
  type VariableDialect,
} from './variables.js';

/** Vapi's variables: Liquid `{{name}}`; `{{call.id}}` is the call's id. */
export const VAPI_DIALECT: VariableDialect = { system: new Map([['call.id', 'session.id']]) };

const str = z.string({ error: 'expected a string' });
const num = z.number({ error: 'expected a number' });
const bool = z.boolean({ error: 'expected a boolean' });
const obj = z.record(z.string(), z.unknown(), { error: 'expected an object' });

const messageSchema = z.looseObject({
  type: str,
  content: str.optional(),
  contents: z
    .array(z.looseObject({ text: str.optional(), language: str.optional() }), {
      error: 'expected a list',
    })
    .optional(),
  blocking: bool.optional(),
  timingMilliseconds: num.optional(),
  conditions: z.array(z.unknown(), { error: 'expected a list' }).optional(),
});

const functionSchema = z.looseObject({
  name: str,
  description: str.optional(),
  parameters: obj.optional(),
  strict: bool.optional(),
});

/** One Vapi tool (the fields switchboard reads; others are warned about). */
export const vapiToolSchema = z.looseObject({
  type: str,
  function: functionSchema.optional(),
  messages: z.array(messageSchema, { error: 'expected a list of messages' }).optional(),
  server: z
    .looseObject({
      url: str.optional(),
      timeoutSeconds: num.optional(),
      credentialId: str.optional(),
      headers: obj.optional(),
    })
    .optional(),
  async: bool.optional(),
  parameters: z
    .array(z.looseObject({ key: str, value: z.unknown() }), {
      error: 'expected a list of { key, value }',
    })
    .optional(),
  // apiRequest
  name: str.optional(),
  description: str.optional(),
  method: str.optional(),
  url: str.optional(),
  body: obj.optional(),
  headers: obj.optional(),
  timeoutSeconds: num.optional(),
  credentialId: str.optional(),
  variableExtractionPlan: z
    .looseObject({
      aliases: z
        .array(z.looseObject({ key: str, value: str }), { error: 'expected a list' })
        .optional(),
    })
    .optional(),
  // transferCall
  destinations: z
    .array(
      z.looseObject({
        type: str,
        number: str.optional(),
        sipUri: str.optional(),
        assistantName: str.optional(),
        description: str.optional(),
        message: z.unknown().optional(),
      }),
      { error: 'expected a list of destinations' },
    )
    .optional(),
});
type VapiTool = z.output<typeof vapiToolSchema>;

const API_FIELDS = ['id', 'orgId', 'createdAt', 'updatedAt'];
const COMMON = ['type', 'function', 'messages', 'rejectionPlan', ...API_FIELDS];
const KNOWN: Record<string, string[]> = {
  function: [...COMMON, 'server', 'async', 'parameters', 'variableExtractionPlan'],
  apiRequest: [
    ...COMMON,
    'name',
    'description',
    'method',
    'url',
    'body',
    'headers',
    'timeoutSeconds',
    'credentialId',
    'variableExtractionPlan',
    'parameters',
    'backoffPlan',
  ],
  endCall: COMMON,
  transferCall: [...COMMON, 'destinations'],
};

/** Imports a Vapi tools document: a list, `{ tools }`, an assistant (`model.tools`) or one tool. */
export function importVapi(value: unknown, source: SourceInfo): ImportResult {
  const found =
    findList(value, ['tools', 'model.tools']) ??
    (isPlainObject(value) && typeof value['type'] === 'string'
      ? { list: [value], base: 'tools' }
      : undefined);
  if (found === undefined)
    throw vendorError(
      [
        {
          path: '',
          message:
            'expected a list of Vapi tools, { "tools": [...] }, an assistant with model.tools, or one tool',
        },
      ],
      source,
    );
  const warnings: ConversionWarning[] = [];
  const tools = [];
  for (const [index, raw] of found.list.entries()) {
    const base = `${found.base}[${index}]`;
    const t = parseVendor(vapiToolSchema, raw, base, source);
    const w = new ToolWarnings(warnings, base, t.function?.name ?? t.name);
    const d = toDraft(t, w);
    if (d !== undefined) tools.push(finishDraft(w, d));
  }
  return { tools, warnings };
}

function toDraft(t: VapiTool, w: ToolWarnings): DraftTool | undefined {
  const known = KNOWN[t.type];
  if (known === undefined) {
    if (t.function === undefined) {
      w.warn(
        ['type'],
        `Vapi tool type "${t.type}" runs inside Vapi and has no function spec; not imported`,
      );
      return undefined;
    }
    w.warn(
      ['type'],
      `Vapi tool type "${t.type}" runs inside Vapi; imported as an action for the host to implement`,
    );
  } else {
    w.unknownFields(t, known);
  }
  if (t['rejectionPlan'] !== undefined)
    w.warn(
      ['rejectionPlan'],
      'conversation-state rejection rules (regex/Liquid) have no switchboard equivalent; ignored',
    );
  if (t.function?.strict !== undefined)
    w.warn(
      ['function', 'strict'],
      'strict schema adherence is not part of a Syllable definition; ignored',
    );
  switch (t.type) {
    case 'apiRequest':
      return apiRequest(t, w);
    case 'endCall':
      return builtIn(t, w, 'endCall');
    case 'transferCall':
      return transfer(t, w);
    default:
      return functionTool(t, w);
  }
}

function withFunction(t: VapiTool, w: ToolWarnings, fallback: string): DraftTool {
  const fn = t.function;
  const d = draft(
    fn?.name ?? fallback,
    fn !== undefined ? ['function', 'name'] : ['type'],
    fn?.description,
  );
  if (fn?.parameters !== undefined) {
    const schema = cleanSchema(w, ['function', 'parameters'], fn.parameters);
    d.properties = (isPlainObject(schema['properties']) ? schema['properties'] : {}) as Record<
      string,
      JsonSchemaJson
    >;
    d.required = Array.isArray(schema['required']) ? schema['required'].map(String) : [];
  }
  const action =
    t.type === 'apiRequest' ? false : t.type === 'function' ? t.server?.url === undefined : true;
  messages(t, w, d, action);
  return d;
}

function functionTool(t: VapiTool, w: ToolWarnings): DraftTool {
  const d = withFunction(t, w, 'function');
  const server = t.server;
  if (server?.url === undefined) {
    if (t.type === 'function')
      w.warn(
        ['server'],
        "no server.url: Vapi sends the call to the assistant's or the org's server; imported as an action for the host to implement",
      );
  } else {
    w.warn(
      ['server', 'url'],
      'Vapi POSTs a "tool-calls" message envelope and reads { results: [...] }; switchboard POSTs the arguments as the JSON body and gives the model the response as is: adapt the server',
    );
    const url = mapUrl(w, ['server', 'url'], server.url, VAPI_DIALECT, false);
    d.statics.push(...url.statics);
    d.http = {
      url: url.url,
      method: 'post',
      location: 'body',
      methodField: ['type'],
      ...(server.timeoutSeconds !== undefined
        ? { timeoutSecs: timeoutSecs(w, ['server', 'timeoutSeconds'], server.timeoutSeconds) }
        : {}),
      ...(url.ok ? {} : { unusable: url.reason ?? 'bad URL' }),
    };
    w.unknownFields(server, ['url', 'timeoutSeconds', 'credentialId', 'headers'], ['server']);
    auth(
      w,
      d,
      server.credentialId,
      ['server', 'credentialId'],
      literalHeaders(server.headers, ['server', 'headers']),
      server.url,
    );
  }
  if (t.async === true) d.options.background = true;
  staticParameters(t, w, d);
  extraction(t, w, d);
  return d;
}

function apiRequest(t: VapiTool, w: ToolWarnings): DraftTool {
  const d = withFunction(t, w, 'api_request_tool');
  if (t.name !== undefined) {
    d.name = t.name;
    d.nameField = ['name'];
  }
  if (t.description !== undefined) d.description = t.description;
  w.tool = d.name;
  const method = t.method ?? 'POST';
  const inQuery = ['get', 'delete'].includes(method.toLowerCase());
  if (t.body !== undefined) bodySchema(t.body, w, d);
  const url = mapUrl(w, ['url'], t.url ?? '', VAPI_DIALECT, inQuery);
  d.statics.push(...url.statics);
  d.http = {
    url: url.url,
    method,
    location: inQuery ? 'query' : 'body',
    methodField: ['method'],
    ...(t.timeoutSeconds !== undefined
      ? { timeoutSecs: timeoutSecs(w, ['timeoutSeconds'], t.timeoutSeconds) }
      : {}),
    ...(url.ok ? {} : { unusable: url.reason ?? 'bad URL' }),
  };
  if (t.url === undefined) w.warn(['url'], 'no url; imported as an action');
  if (t['backoffPlan'] !== undefined)
    w.warn(
      ['backoffPlan'],
      'switchboard retries get/put/delete on network errors, 429 and 502-504 by itself (SPEC §3); the plan is not imported',
    );
  auth(w, d, t.credentialId, ['credentialId'], schemaHeaders(t.headers), t.url ?? '');
  staticParameters(t, w, d);
  extraction(t, w, d);
  return d;
}

/** `body`: properties the model fills; a property with `value` is fixed, one with `default` a default. */
function bodySchema(body: Record<string, unknown>, w: ToolWarnings, d: DraftTool): void {
  const props = isPlainObject(body['properties']) ? body['properties'] : {};
  const required = Array.isArray(body['required']) ? body['required'].map(String) : [];
  for (const [name, prop] of Object.entries(props)) {
    const field: FieldPath = ['body', 'properties', name];
    if (!isPlainObject(prop)) continue;
    if (prop['value'] !== undefined) {
      constant(
        w,
        d,
        name,
        prop['value'],
        [...field, 'value'],
        typeof prop['description'] === 'string' ? prop['description'] : undefined,
      );
      continue;
    }
    const schema = cleanSchema(w, field, prop, ['value', 'default']);
    d.properties[name] = schema;
    if (required.includes(name)) d.required.push(name);
    const dflt = prop['default'];
    if (dflt === undefined || dflt === '') continue;
    d.defaults[name] =
      typeof dflt === 'string' && hasVendorVariable(dflt)
        ? toFormat(dflt, VAPI_DIALECT, (m) => w.warn([...field, 'default'], m))
        : typeof dflt === 'string'
          ? { transform: { value: dflt } }
          : dflt;
  }
}

function constant(
  w: ToolWarnings,
  d: DraftTool,
  name: string,
  value: unknown,
  field: FieldPath,
  description?: string,
): void {
  const v =
    typeof value === 'string' && hasVendorVariable(value)
      ? toMustache(value, VAPI_DIALECT, (m) => w.warn(field, m))
      : value;
  addConstant(d, name, v, description);
}

function staticParameters(t: VapiTool, w: ToolWarnings, d: DraftTool): void {
  for (const [i, p] of (t.parameters ?? []).entries())
    constant(w, d, p.key, p.value, ['parameters', i, 'value']);
}

function schemaHeaders(headers: Record<string, unknown> | undefined): VendorHeader[] {
  const props =
    headers !== undefined && isPlainObject(headers['properties']) ? headers['properties'] : {};
  return Object.entries(props).map(([name, p]) => {
    const field: FieldPath = ['headers', 'properties', name];
    const raw = isPlainObject(p) ? (p['value'] ?? p['default']) : undefined;
    const text = typeof raw === 'string' ? raw : '';
    const vars = vendorVariables(text);
    return vars.length > 0 && !/^(bearer|basic)\s/i.test(text)
      ? { name, value: { kind: 'variable', name: vars[0]! }, field }
      : { name, value: { kind: 'literal', value: text }, field };
  });
}

function literalHeaders(
  headers: Record<string, unknown> | undefined,
  at: FieldPath,
): VendorHeader[] {
  return Object.entries(headers ?? {}).map(([name, v]) => ({
    name,
    value: { kind: 'literal', value: String(v) },
    field: [...at, name],
  }));
}

function auth(
  w: ToolWarnings,
  d: DraftTool,
  credentialId: string | undefined,
  field: FieldPath,
  headers: VendorHeader[],
  url: string,
): void {
  const service = serviceName(credentialId, url);
  const all =
    credentialId !== undefined
      ? [
          { name: 'authorization', value: { kind: 'secret' as const, ref: credentialId }, field },
          ...headers,
        ]
      : headers;
  if (headersToService(w, all, service)) d.service = service;
}

function extraction(t: VapiTool, w: ToolWarnings, d: DraftTool): void {
  const plan = t.variableExtractionPlan;
  if (plan === undefined) return;
  w.unknownFields(plan, ['aliases'], ['variableExtractionPlan']);
  for (const [i, alias] of (plan.aliases ?? []).entries()) {
    const m = /^\{\{\s*\$?\.?([^{}|]+?)\s*\}\}$/.exec(alias.value);
    const from = m ? toJmesPath(m[1]!) : undefined;
    if (from === undefined)
      w.warn(
        ['variableExtractionPlan', 'aliases', i],
        `"${alias.value}" is not a plain path into the response; not imported`,
      );
    else (d.options.save ??= []).push({ from, to: alias.key });
  }
}

function phrasesOf(m: z.output<typeof messageSchema>): Phrases {
  const phrases: Phrases = {};
  for (const c of m.contents ?? [])
    if (c.text !== undefined) addPhrase(phrases, c.text, c.language ?? '*');
  if (Object.keys(phrases).length === 0 && m.content !== undefined && m.content !== '')
    addPhrase(phrases, m.content);
  return phrases;
}

function messages(t: VapiTool, w: ToolWarnings, d: DraftTool, action: boolean): void {
  for (const [i, m] of (t.messages ?? []).entries()) {
    const field: FieldPath = ['messages', i];
    if (m.conditions !== undefined && m.conditions.length > 0)
      w.warn(
        [...field, 'conditions'],
        'message conditions on the arguments have no switchboard equivalent; the message is always used',
      );
    switch (m.type) {
      case 'request-start':
        setBefore(d.options, phrasesOf(m));
        // Actions already wait for earlier speech (docs/voice.md); only endpoints need the flag.
        if (m.blocking === true && !action)
          d.options.speech = { ...d.options.speech, after_speech: true };
        break;
      case 'request-response-delayed':
        addBridge(d.options, phrasesOf(m));
        if (m.timingMilliseconds !== undefined)
          w.warn(
            [...field, 'timingMilliseconds'],
            "bridge phrases start at the session's bridge threshold (session option bridge.thresholdSecs, default 2.75 s), not per tool",
          );
        break;
      case 'request-failed':
        setOnError(d.options, phrasesOf(m));
        break;
      default:
        w.warn(
          field,
          `a "${m.type}" message has no switchboard equivalent (the model speaks after the result); ignored`,
        );
    }
  }
}

function builtIn(t: VapiTool, w: ToolWarnings, name: string): DraftTool {
  return withFunction(t, w, name);
}

function transfer(t: VapiTool, w: ToolWarnings): DraftTool {
  const d = withFunction(t, w, 'transferCall');
  const targets: { value: string; description?: string }[] = [];
  for (const [i, dest] of (t.destinations ?? []).entries()) {
    const value = dest.number ?? dest.sipUri ?? dest.assistantName;
    const field: FieldPath = ['destinations', i];
    w.unknownFields(
      dest,
      ['type', 'number', 'sipUri', 'assistantName', 'description', 'message'],
      field,
    );
    if (value === undefined) {
      w.warn(field, 'destination without number, sipUri or assistantName; not imported');
      continue;
    }
    targets.push({
      value,
      ...(dest.description !== undefined ? { description: dest.description } : {}),
    });
    if (
      typeof dest.message === 'string' &&
      dest.message !== '' &&
      (t.destinations ?? []).length === 1
    )
      setBefore(d.options, { '*': [dest.message] });
    else if (dest.message !== undefined)
      w.warn(
        [...field, 'message'],
        'a per-destination message needs one destination; not imported',
      );
  }
  transferDestination(d, targets, w, ['destinations']);
  return d;
}

/**
 * The destination of a transfer action: one → the hidden static parameter `destination` (the host
 * handler reads `args.destination`); several → a required `destination` the model picks (enum).
 */
export function transferDestination(
  d: DraftTool,
  targets: readonly { value: string; description?: string }[],
  w: ToolWarnings,
  field: FieldPath,
): void {
  if (targets.length === 0) {
    w.warn(field, "no fixed destination: the host's transfer action decides where the call goes");
  } else if (targets.length === 1) {
    addConstant(d, 'destination', targets[0]!.value, targets[0]!.description);
  } else {
    d.properties['destination'] = {
      type: 'string',
      enum: targets.map((t) => t.value),
      description: `Where to transfer the call: ${targets.map((t) => (t.description !== undefined ? `${t.value} (${t.description})` : t.value)).join('; ')}`,
    };
    d.required.push('destination');
  }
}
