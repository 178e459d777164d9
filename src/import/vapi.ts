/**
 * Vapi tools → Syllable-format definitions. Schema: VapiAI/server-sdk-typescript v2.0.0
 * (`CreateFunctionToolDto`, `CreateApiRequestToolDto`, `CreateEndCallToolDto`,
 * `CreateTransferCallToolDto`, `ToolMessageStart`, `ToolMessageDelayed`, `Server`, `JsonSchema`);
 * the field-by-field table is in docs/import.md.
 */
import { closestName } from '../did-you-mean.js';
import { isPlainObject } from '../own-data.js';
import {
  importResult,
  locateTools,
  parseVendor,
  ToolWarnings,
  type FieldPath,
  type SourceInfo,
} from './conversion-context.js';
import { draft, finishDraft, setHttp, type DraftTool } from './draft-tool.js';
import { argumentPlaceholders, constant, isArgument, onlyTheUrl } from './vapi-liquid.js';
import { extraction, messages } from './vapi-messages.js';
import {
  codeToolForm,
  handoffDestinations,
  otherTypeFields,
  transferDestinations,
} from './vapi-other-types.js';
import { KNOWN, VAPI_DIALECT, vapiToolSchema, type VapiTool } from './vapi-schema.js';
import {
  headersToService,
  mapUrl,
  serviceName,
  timeoutSecs,
  type VendorHeader,
} from './http-parts.js';
import { cleanSchema, objectParts } from './json-schema.js';
import type { ConversionWarning, ImportResult } from './types.js';
import { hasVendorVariable, toFormat, vendorVariables } from './variables.js';

export { VAPI_DIALECT } from './vapi-schema.js';

/** Imports a Vapi tools document: a list, `{ tools }`, an assistant (`model.tools`) or one tool. */
export function importVapi(value: unknown, source: SourceInfo): ImportResult {
  const expected =
    'a list of Vapi tools, { "tools": [...] }, an assistant with model.tools, or one tool';
  const found = locateTools(value, {
    keys: ['tools', 'model.tools'],
    isOneTool: (v) => typeof v['type'] === 'string',
    expected,
    source,
  });
  const warnings: ConversionWarning[] = [];
  const tools = [];
  for (const [index, raw] of found.list.entries()) {
    const base = `${found.base}[${index}]`;
    const t = parseVendor(vapiToolSchema, codeToolForm(raw), base, source);
    const w = new ToolWarnings(warnings, base, t.function?.name ?? t.name);
    const d = toDraft(t, w);
    if (d !== undefined) tools.push(finishDraft(w, d));
  }
  return importResult(tools, warnings, expected, found.list, source);
}

function toDraft(t: VapiTool, w: ToolWarnings): DraftTool | undefined {
  const known = Object.hasOwn(KNOWN, t.type) ? KNOWN[t.type] : undefined;
  if (known === undefined) {
    // `apiRequets` is a typo of a type switchboard imports, not a tool Vapi runs itself.
    const meant = closestName({ name: t.type, candidates: Object.keys(KNOWN) });
    if (meant !== undefined) {
      w.warn(
        ['type'],
        `"${t.type}" is not a Vapi tool type (did you mean \`${meant}\`?); not imported`,
      );
      return undefined;
    }
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
    otherTypeFields(t, w);
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
    case 'transferCall': {
      const d = withFunction(t, w, 'transferCall');
      transferDestinations(t, w, d);
      return d;
    }
    case 'handoff': {
      const d = withFunction(t, w, 'handoff');
      handoffDestinations(t, w, d);
      return d;
    }
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
  if (fn?.parameters !== undefined)
    ({
      properties: d.properties,
      required: d.required,
      extras: d.schemaExtras,
    } = objectParts(cleanSchema(w, ['function', 'parameters'], fn.parameters)));
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
      'Vapi POSTs a "tool-calls" message envelope and reads { results: [...] }; switchboard POSTs the arguments as the JSON body and gives the model the response as is: adapt the server. Exported back to Vapi it is an apiRequest tool (the call switchboard makes), not a function tool',
    );
    setHttp(d, mapUrl(w, ['server', 'url'], server.url, VAPI_DIALECT, false), {
      method: 'post',
      location: 'body',
      methodField: ['type'],
      ...(server.timeoutSeconds !== undefined
        ? { timeoutSecs: timeoutSecs(w, ['server', 'timeoutSeconds'], server.timeoutSeconds) }
        : {}),
    });
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
  // Vapi sends a GET or DELETE as its URL alone, Liquid filled in (docs/import.md, Vapi): the
  // model's arguments reach the server only through the URL's variables.
  const urlOnly = ['get', 'delete'].includes(method.toLowerCase()) ? method.toUpperCase() : '';
  if (t.body !== undefined) bodySchema(t.body, w, d, urlOnly);
  // Before the URL's hidden values, so an export (which writes them all as `parameters`) reads back
  // in the same order.
  if (urlOnly === '') staticParameters(t, w, d);
  else unsentParameters(t, w, urlOnly);
  const mapped = mapUrl(w, ['url'], t.url ?? '', VAPI_DIALECT, urlOnly !== '');
  setHttp(d, argumentPlaceholders(d, mapped), {
    method,
    location: urlOnly !== '' ? 'query' : 'body',
    methodField: ['method'],
    ...(t.timeoutSeconds !== undefined
      ? { timeoutSecs: timeoutSecs(w, ['timeoutSeconds'], t.timeoutSeconds) }
      : {}),
  });
  if (t.url === undefined) w.warn(['url'], 'no url; imported as an action');
  else if (urlOnly !== '' && mapped.ok) onlyTheUrl(d, w, mapped, urlOnly);
  // Vapi requires the method; a document without one is read as Vapi's usual POST, and said so.
  if (t.method === undefined && t.url !== undefined) w.warn(['method'], 'no method; POST assumed');
  if (t['backoffPlan'] !== undefined)
    w.warn(
      ['backoffPlan'],
      'switchboard retries get/put/delete on network errors, 429 and 502-504 by itself (docs/handlers.md); the plan is not imported',
    );
  auth(w, d, t.credentialId, ['credentialId'], schemaHeaders(t.headers), t.url ?? '');
  extraction(t, w, d);
  return d;
}

/**
 * `body`: properties the model fills; a property with `value` is fixed, one with `default` a
 * default. A GET or DELETE (`urlOnly`, its method) has no body for a fixed value to go in.
 */
function bodySchema(
  body: Record<string, unknown>,
  w: ToolWarnings,
  d: DraftTool,
  urlOnly: string,
): void {
  const { properties: props, required: list } = objectParts(body);
  // The body's own keywords (`additionalProperties: false`) constrain what the model may send.
  Object.assign(d.schemaExtras, cleanSchema(w, ['body'], objectParts(body).extras));
  const required = new Set(list);
  // What the model fills (the function's parameters and the body properties without a `value`):
  // Liquid in a value or default reads these names as the call's arguments.
  const args = new Set(Object.keys(d.properties));
  for (const [name, prop] of Object.entries(props))
    if (isPlainObject(prop) && prop['value'] === undefined) args.add(name);
  for (const [name, prop] of Object.entries(props)) {
    const field: FieldPath = ['body', 'properties', name];
    if (!isPlainObject(prop)) continue;
    // `{{query}}` naming the model's own argument (Vapi's docs-agent example) forwards that
    // argument, as `{{name}}` in the URL does: no fixed value.
    if (isArgument(d, name, prop['value'])) continue;
    if (prop['value'] !== undefined && urlOnly !== '') {
      w.warn([...field, 'value'], unsent(urlOnly, `the fixed body value "${name}"`));
      continue;
    }
    if (prop['value'] !== undefined) {
      constant(
        w,
        d,
        name,
        prop['value'],
        [...field, 'value'],
        args,
        typeof prop['description'] === 'string' ? prop['description'] : undefined,
      );
      continue;
    }
    const schema = cleanSchema(w, field, prop, ['value', 'default']);
    d.properties[name] = schema;
    const dflt = prop['default'];
    const hasDefault = dflt !== undefined && dflt !== '';
    // The default becomes a `defaults` rule, which runs after the schema is checked: left in
    // `required`, a call leaving it out would be refused before the rule could fill it.
    if (required.has(name) && !hasDefault) d.required.push(name);
    if (!hasDefault) continue;
    // The long forms: a vendor value is never read as a rule (`@override …`, `{ transform }`).
    d.defaults[name] =
      typeof dflt === 'string' && hasVendorVariable(dflt)
        ? {
            transform: {
              format: toFormat(dflt, VAPI_DIALECT, (m) => w.warn([...field, 'default'], m), args),
            },
          }
        : { transform: { value: dflt } };
  }
}

function staticParameters(t: VapiTool, w: ToolWarnings, d: DraftTool): void {
  const args = new Set(Object.keys(d.properties));
  for (const [i, p] of (t.parameters ?? []).entries())
    constant(w, d, p.key, p.value, ['parameters', i, 'value'], args);
}

/** A GET's or DELETE's static parameters: Vapi merges them into a body the request does not have. */
function unsentParameters(t: VapiTool, w: ToolWarnings, method: string): void {
  for (const [i, p] of (t.parameters ?? []).entries())
    w.warn(['parameters', i], unsent(method, `the static parameter "${p.key}"`));
}

const unsent = (method: string, what: string): string =>
  `Vapi sends a ${method} request as its URL alone, without a body: ${what} is not sent; not imported`;

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
  if (headersToService(w, all, service, url)) d.service = service;
}

function builtIn(t: VapiTool, w: ToolWarnings, name: string): DraftTool {
  return withFunction(t, w, name);
}
