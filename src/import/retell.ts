/**
 * Retell AI tools → Syllable-format definitions. Schema: RetellAI/retell-typescript-sdk v5.60.0,
 * `src/resources/llm.ts` (`LlmResponse.CustomTool`, `EndCallTool`, `TransferCallTool`; the LLM's
 * `general_tools` and `states[].tools`). Table: docs/import.md.
 */
import { z } from 'zod';
import { isPlainObject } from '../own-data.js';
import {
  checkVendorLimits,
  findList,
  importResult,
  parseVendor,
  ToolWarnings,
  unrecognizedDocument,
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
import { cleanSchema, objectParts } from './json-schema.js';
import type { ConversionWarning, ImportResult } from './types.js';
import { STATES_TOOL, statesWorkflow } from './retell-states.js';
import { hasVendorVariable, type VariableDialect } from './variables.js';

/** Retell dynamic variables: `{{name}}`; `{{call_id}}` is the call's id. */
export const RETELL_DIALECT: VariableDialect = { system: new Map([['call_id', 'session.id']]) };

/** Retell's default `timeout_ms`: 2 minutes. */
export const RETELL_DEFAULT_TIMEOUT_MS = 120_000;

const str = z.string({ error: 'expected a string' });
const bool = z.boolean({ error: 'expected a boolean' });
const strings = z.record(z.string(), str, { error: 'expected an object of strings' });

/** One Retell tool. */
export const retellToolSchema = z.looseObject({
  type: str,
  name: str,
  description: str.optional(),
  url: str.optional(),
  method: str.optional(),
  headers: strings.optional(),
  query_params: strings.optional(),
  parameters: z
    .record(z.string(), z.unknown(), { error: 'expected a JSON Schema object' })
    .optional(),
  args_at_root: bool.optional(),
  timeout_ms: z.number({ error: 'expected milliseconds' }).optional(),
  speak_during_execution: bool.optional(),
  speak_after_execution: bool.optional(),
  execution_message_description: str.optional(),
  execution_message_type: str.optional(),
  response_variables: strings.optional(),
  transfer_destination: z
    .looseObject({
      type: str,
      number: str.optional(),
      prompt: str.optional(),
      extension: str.optional(),
    })
    .optional(),
});
type RetellTool = z.output<typeof retellToolSchema>;

const SPEECH = [
  'speak_during_execution',
  'execution_message_description',
  'execution_message_type',
];
const KNOWN: Record<string, string[]> = {
  custom: [
    'type',
    'name',
    'description',
    'url',
    'method',
    'headers',
    'query_params',
    'parameters',
    'args_at_root',
    'timeout_ms',
    'speak_after_execution',
    'response_variables',
    'parameter_type',
    'enable_typing_sound',
    ...SPEECH,
  ],
  end_call: ['type', 'name', 'description', ...SPEECH],
  transfer_call: [
    'type',
    'name',
    'description',
    'transfer_destination',
    'transfer_option',
    'custom_sip_headers',
    'ignore_e164_validation',
    ...SPEECH,
  ],
};

/** Imports a Retell document: a list, `{ tools }`, a Retell LLM (`general_tools`, `states[].tools`) or one tool. */
export function importRetell(value: unknown, source: SourceInfo): ImportResult {
  const expected =
    'a list of Retell tools, { "tools": [...] }, a Retell LLM with general_tools, or one tool';
  const lists = locate(value);
  if (lists.length === 0) throw unrecognizedDocument(expected, source);
  checkVendorLimits(lists, source);
  const warnings: ConversionWarning[] = [];
  const tools = [];
  // The names each list's tools got, so a state's step allows exactly its tools.
  const named = new Map<string, string[]>();
  for (const found of lists) {
    const list: string[] = [];
    named.set(found.base, list);
    for (const [index, raw] of found.list.entries()) {
      const base = `${found.base}[${index}]`;
      const t = parseVendor(retellToolSchema, raw, base, source);
      const w = new ToolWarnings(warnings, base, t.name);
      const d = toDraft(t, w);
      if (d === undefined) continue;
      const def = finishDraft(w, d);
      list.push(def.tool.function.name);
      tools.push(def);
    }
  }
  if (isPlainObject(value) && findList(value, ['tools']) === undefined) {
    const flow = statesWorkflow(
      value,
      new ToolWarnings(warnings, '', STATES_TOOL),
      RETELL_DIALECT,
      named.get('general_tools') ?? [],
      (i) => named.get(`states[${i}].tools`) ?? [],
    );
    if (flow !== undefined) tools.push(flow);
  }
  const items = lists.flatMap((l) => l.list);
  return importResult(tools, warnings, expected, items, source);
}

function locate(value: unknown): { list: unknown[]; base: string }[] {
  const listed = findList(value, ['tools']);
  if (listed !== undefined) return [listed];
  if (!isPlainObject(value)) return [];
  const out: { list: unknown[]; base: string }[] = [];
  if (Array.isArray(value['general_tools']))
    out.push({ list: value['general_tools'], base: 'general_tools' });
  if (Array.isArray(value['states']))
    value['states'].forEach((s, i) => {
      if (isPlainObject(s) && Array.isArray(s['tools']))
        out.push({ list: s['tools'], base: `states[${i}].tools` });
    });
  if (out.length === 0 && typeof value['type'] === 'string')
    out.push({ list: [value], base: 'tools' });
  return out;
}

/**
 * Retell's own tool types that run inside Retell (its docs' pre-defined tools). A snake_case type
 * not listed is read as a newer one of them; any other type (`apiRequest`, `webhook`, `function`)
 * is another platform's, and the tool is not imported.
 */
const RETELL_BUILT_INS = new Set([
  'send_sms',
  'check_availability_cal',
  'book_appointment_cal',
  'press_digit',
  'extract_dynamic_variable',
  'agent_swap',
  'mcp',
]);

function isRetellType(type: string): boolean {
  return RETELL_BUILT_INS.has(type) || /^[a-z]+(_[a-z0-9]+)+$/.test(type);
}

function toDraft(t: RetellTool, w: ToolWarnings): DraftTool | undefined {
  const known = KNOWN[t.type];
  if (known === undefined && !isRetellType(t.type)) {
    w.warn(
      ['type'],
      `"${t.type}" is not a Retell tool type (Retell's: ${Object.keys(KNOWN).join(', ')} and its pre-defined ones, such as ${[...RETELL_BUILT_INS].slice(0, 3).join(', ')}); not imported`,
    );
    return undefined;
  }
  const d = draft(t.name, ['name'], t.description);
  if (known === undefined)
    w.warn(
      ['type'],
      `Retell tool type "${t.type}" runs inside Retell; imported as an action for the host to implement`,
    );
  else w.unknownFields(t, known);
  speech(t, w, d);
  if (t.type === 'custom') custom(t, w, d);
  else if (t.type === 'transfer_call') transfer(t, w, d);
  if (t.parameters !== undefined && t.type !== 'custom') parameters(t.parameters, w, d);
  return d;
}

function speech(t: RetellTool, w: ToolWarnings, d: DraftTool): void {
  if (t.speak_during_execution !== true) return;
  const text = t.execution_message_description;
  if (t.execution_message_type === 'static_text' && text !== undefined && text !== '') {
    d.options.speech = {
      ...d.options.speech,
      before: { mode: 'always', phrases: { '*': [text] } },
    };
  } else {
    w.warn(
      ['execution_message_description'],
      'Retell generates this message with its model from the description (execution_message_type "prompt"); switchboard speaks fixed phrases: set options.speech.before',
    );
  }
}

function parameters(schema: Record<string, unknown>, w: ToolWarnings, d: DraftTool): void {
  ({
    properties: d.properties,
    required: d.required,
    extras: d.schemaExtras,
  } = objectParts(cleanSchema(w, ['parameters'], schema)));
}

function custom(t: RetellTool, w: ToolWarnings, d: DraftTool): void {
  if (t.parameters !== undefined) parameters(t.parameters, w, d);
  const method = t.method ?? 'POST';
  const inQuery = ['get', 'delete'].includes(method.toLowerCase());
  if (t.args_at_root !== true)
    w.warn(
      ['args_at_root'],
      'Retell POSTs { call, name, args } unless args_at_root is true; switchboard sends the arguments at the root of the body: adapt the server',
    );
  if (t.speak_after_execution === false)
    w.warn(
      ['speak_after_execution'],
      'the model always answers after a switchboard tool result; ignored',
    );
  if (t['enable_typing_sound'] !== undefined)
    w.warn(['enable_typing_sound'], "typing sounds are the voice host's; ignored");
  const pairs: string[] = [];
  for (const [key, value] of Object.entries(t.query_params ?? {})) {
    const pair = `${encodeURIComponent(key)}=${hasVendorVariable(value) ? value : encodeURIComponent(value)}`;
    pairs.push(pair);
  }
  const url = appendQuery(t.url ?? '', pairs);
  const mapped = mapUrl(
    w,
    t.query_params !== undefined ? ['query_params'] : ['url'],
    url,
    RETELL_DIALECT,
    inQuery,
  );
  const timeoutMs = t.timeout_ms ?? RETELL_DEFAULT_TIMEOUT_MS;
  setHttp(d, mapped, {
    method,
    location: inQuery ? 'query' : 'body',
    methodField: ['method'],
    timeoutSecs: timeoutSecs(w, ['timeout_ms'], timeoutMs / 1000),
  });
  if (t.url === undefined) w.warn(['url'], 'no url; imported as an action');
  const headers: VendorHeader[] = Object.entries(t.headers ?? {}).map(([name, value]) => ({
    name,
    field: ['headers', name],
    value:
      hasVendorVariable(value) && !/^(bearer|basic)\s/i.test(value)
        ? { kind: 'variable', name: value }
        : { kind: 'literal', value },
  }));
  const service = serviceName(undefined, t.url ?? '');
  if (headersToService(w, headers, service, t.url ?? '')) d.service = service;
  for (const [to, path] of Object.entries(t.response_variables ?? {})) {
    const from = toJmesPath(path);
    if (from === undefined)
      w.warn(['response_variables', to], `"${path}" is not a plain path; not imported`);
    else (d.options.save ??= []).push({ from, to });
  }
}

function transfer(t: RetellTool, w: ToolWarnings, d: DraftTool): void {
  const dest = t.transfer_destination;
  const field: FieldPath = ['transfer_destination'];
  if (t['transfer_option'] !== undefined)
    w.warn(['transfer_option'], "how the transfer is made (cold/warm) is the host's; not imported");
  if (t['custom_sip_headers'] !== undefined)
    w.warn(['custom_sip_headers'], "SIP headers are the host's; not imported");
  if (dest?.type === 'predefined' && dest.number !== undefined) {
    if (dest.extension !== undefined)
      w.warn([...field, 'extension'], "extension digits are the host's; not imported");
    transferDestination(d, [{ value: dest.number }], w, field);
  } else {
    w.warn(
      field,
      "an inferred destination (a prompt) has no switchboard equivalent: the host's transfer action decides",
    );
  }
}
