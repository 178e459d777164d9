/**
 * Ultravox tools → Syllable-format definitions. Schema: Ultravox's OpenAPI document
 * (`ultravox.v1.BaseToolDefinition`, `DynamicParameter`, `StaticParameter`, `AutomaticParameter`,
 * `BaseHttpToolDetails`, `ToolRequirements`, `SelectedTool`, `Tool`) as vendored in
 * tryAGI/Ultravox `src/libs/Ultravox/openapi.yaml`. Table: docs/import.md.
 */
import {
  KNOWN,
  MARKS,
  ULTRAVOX_DIALECT,
  ultravoxToolSchema,
  type UltravoxTool,
} from './ultravox-schema.js';
import { isPlainObject } from '../own-data.js';
import {
  foreignTool,
  importResult,
  locateTools,
  parseVendor,
  ToolWarnings,
  vendorError,
  type FieldPath,
  type SourceInfo,
} from './conversion-context.js';
import {
  addConstant,
  addTemplate,
  draft,
  finishDraft,
  setHttp,
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
import { cleanSchema } from './json-schema.js';
import { builtInDraft, isBuiltIn } from './ultravox-built-ins.js';
import type { ConversionWarning, ImportResult, ToolDefinitionJson } from './types.js';

export { ULTRAVOX_DIALECT, LOCATIONS } from './ultravox-schema.js';
/**
 * Imports an Ultravox document: a call or agent config (`selectedTools`), a list of selected
 * tools, tool objects (`{ name, definition }`, also `{ results: [...] }`) or bare definitions.
 */
export function importUltravox(value: unknown, source: SourceInfo): ImportResult {
  const expected = 'selectedTools, a list of Ultravox tools, { "results": [...] }, or one tool';
  const found = locateTools(value, {
    keys: ['selectedTools', 'results', 'tools', 'callTemplate.selectedTools'],
    isOneTool: (v) =>
      ['modelToolName', 'http', 'temporaryTool', 'definition', 'toolName'].some((k) => k in v),
    expected,
    source,
  });
  const warnings: ConversionWarning[] = [];
  const tools: ToolDefinitionJson[] = [];
  for (const [index, item] of found.list.entries()) {
    const base = `${found.base}[${index}]`;
    const w = new ToolWarnings(warnings, base);
    if (!isPlainObject(item))
      throw vendorError([{ path: base, message: 'expected a tool object' }], source);
    if (typeof item['toolName'] === 'string' && item['temporaryTool'] === undefined) {
      const name = item['toolName'];
      w.tool = name;
      if (!isBuiltIn(name)) {
        w.warn(
          ['toolName'],
          `"${name}" names a tool stored in Ultravox; its definition is not in this file; not imported`,
        );
        continue;
      }
      tools.push(finishDraft(w, builtInDraft(item, w)));
      continue;
    }
    if (typeof item['toolId'] === 'string') {
      w.warn(
        ['toolId'],
        'a tool stored in Ultravox, referenced by id; its definition is not in this file; not imported',
      );
      continue;
    }
    const [key, name] = isPlainObject(item['temporaryTool'])
      ? ['temporaryTool', undefined]
      : isPlainObject(item['definition'])
        ? ['definition', typeof item['name'] === 'string' ? item['name'] : undefined]
        : [undefined, undefined];
    if (key === undefined) {
      // A bare definition is read leniently (every field optional): one with none of Ultravox's
      // fields and another platform's (a Vapi or Retell `type`, ElevenLabs' `tool_config`) is
      // that platform's tool, and making it an action would hide the wrong `--from`.
      const foreign = foreignTool(item, MARKS, 'Ultravox');
      if (foreign !== undefined) {
        if (typeof item['name'] === 'string') w.tool = item['name'];
        w.warn([foreign.field], foreign.message);
        continue;
      }
    }
    const def = key === undefined ? item : item[key];
    const at = key === undefined ? base : `${base}.${key}`;
    const t = parseVendor(ultravoxToolSchema, def, at, source);
    const tw = new ToolWarnings(warnings, at, t.modelToolName ?? name);
    const outer = new ToolWarnings(warnings, base, t.modelToolName ?? name);
    if (key === 'temporaryTool') selectedToolFields(item, outer);
    else if (key === 'definition')
      outer.unknownFields(item, ['name', 'definition', 'toolId', 'created', 'ownership']);
    const d = toDraft(t, tw, name);
    if (key === 'temporaryTool') overrides(item, outer, d);
    tools.push(finishDraft(tw, d));
  }
  return importResult(tools, warnings, expected, found.list, source);
}

function selectedToolFields(item: Record<string, unknown>, w: ToolWarnings): void {
  w.unknownFields(item, [
    'temporaryTool',
    'nameOverride',
    'parameterOverrides',
    'authTokens',
    'descriptionOverride',
  ]);
  if (isPlainObject(item['authTokens']))
    for (const key of Object.keys(item['authTokens']))
      w.warn(
        ['authTokens', key],
        "a secret value; not imported: configure the tool's service with it",
      );
}

function overrides(item: Record<string, unknown>, w: ToolWarnings, d: DraftTool): void {
  if (typeof item['nameOverride'] === 'string') {
    d.name = item['nameOverride'];
    d.nameField = ['nameOverride'];
  }
  if (typeof item['descriptionOverride'] === 'string') d.description = item['descriptionOverride'];
  if (isPlainObject(item['parameterOverrides'])) {
    const fixed = Object.entries(item['parameterOverrides']);
    const names = new Set(fixed.map(([name]) => name));
    d.required = d.required.filter((r) => !names.has(r));
    for (const [name, value] of fixed) {
      delete d.properties[name];
      addConstant(d, name, value);
    }
  }
}

function toDraft(t: UltravoxTool, w: ToolWarnings, name: string | undefined): DraftTool {
  w.unknownFields(t, KNOWN);
  const d = draft(
    t.modelToolName ?? name ?? 'tool',
    t.modelToolName !== undefined ? ['modelToolName'] : ['name'],
    t.description,
  );
  if (t.precomputable === true) {
    // A GET is side-effect free in switchboard already: writing it would say nothing, and the
    // export could not tell a declared GET from any other (it writes `precomputable` only for a
    // declaration that differs from the method's default).
    if ((t.http?.httpMethod ?? '').toUpperCase() === 'GET')
      w.warn(
        ['precomputable'],
        'a GET is side-effect free in switchboard by default (options.side_effects: none); exporting back to Ultravox leaves precomputable out (its default, false)',
      );
    else d.options.side_effects = 'none';
  }
  if (
    t.defaultReaction !== undefined &&
    !['AGENT_REACTION_SPEAKS', 'AGENT_REACTION_UNSPECIFIED'].includes(t.defaultReaction)
  )
    w.warn(
      ['defaultReaction'],
      `${t.defaultReaction}: the model always answers after a switchboard tool result; ignored`,
    );
  const body = [...(t.dynamicParameters ?? []), ...(t.staticParameters ?? [])].some(
    (p) => p.location === 'PARAMETER_LOCATION_BODY',
  );
  const method = t.http?.httpMethod ?? 'GET';
  // A GET or DELETE has no body: switchboard sends its arguments in the query string whatever
  // the definition says, so the import says so (each BODY parameter is warned as misplaced).
  const noBody = ['get', 'delete'].includes(method.toLowerCase());
  const argsIn: 'body' | 'query' = t.http === undefined || (body && !noBody) ? 'body' : 'query';
  const headers: VendorHeader[] = [];
  const queryConstants: string[] = [];
  for (const [i, p] of (t.dynamicParameters ?? []).entries()) {
    const field: FieldPath = ['dynamicParameters', i];
    if (p.location === 'PARAMETER_LOCATION_HEADER') {
      w.warn(
        field,
        `header "${p.name}" set by the model: switchboard headers are fixed per service; not imported`,
      );
      continue;
    }
    // Without http the tool is an action: its arguments go to the host, not into a request.
    if (t.http !== undefined) misplaced(w, field, p.location, argsIn);
    d.properties[p.name] = cleanSchema(w, [...field, 'schema'], p.schema ?? {});
    if (p.required === true) d.required.push(p.name);
  }
  for (const [i, p] of (t.staticParameters ?? []).entries()) {
    const field: FieldPath = ['staticParameters', i];
    if (p.location === 'PARAMETER_LOCATION_HEADER') {
      headers.push({
        name: p.name,
        value: { kind: 'literal', value: String(p.value) },
        field: [...field, 'value'],
      });
    } else if (
      p.location === 'PARAMETER_LOCATION_QUERY' &&
      argsIn === 'body' &&
      (typeof p.value === 'string' || typeof p.value === 'number' || typeof p.value === 'boolean')
    ) {
      queryConstants.push(`${encodeURIComponent(p.name)}=${encodeURIComponent(String(p.value))}`);
    } else {
      misplaced(w, field, p.location, argsIn);
      addConstant(d, p.name, p.value);
    }
  }
  for (const [i, p] of (t.automaticParameters ?? []).entries()) {
    const field: FieldPath = ['automaticParameters', i];
    if (p.knownValue === 'KNOWN_PARAM_CALL_ID' && p.location !== 'PARAMETER_LOCATION_HEADER') {
      misplaced(w, field, p.location, argsIn);
      addTemplate(d, p.name, '{{vars.session.id}}');
    } else {
      w.warn(
        [...field, 'knownValue'],
        `${p.knownValue ?? 'an automatic value'} has no switchboard equivalent (only the call id, vars.session.id); not imported`,
      );
    }
  }
  security(t, w, d, headers);
  if (t.http !== undefined) {
    const url = appendQuery(t.http.baseUrlPattern, queryConstants);
    const mapped = mapUrl(w, ['http', 'baseUrlPattern'], url, ULTRAVOX_DIALECT, argsIn === 'query');
    setHttp(d, mapped, {
      method,
      location: argsIn,
      methodField: ['http', 'httpMethod'],
      urlField: ['http', 'baseUrlPattern'],
      ...(t.timeout !== undefined
        ? { timeoutSecs: timeoutSecs(w, ['timeout'], Number.parseFloat(t.timeout)) }
        : {}),
    });
    if (t.staticResponse !== undefined)
      w.warn(['staticResponse'], "an endpoint's result is its response; ignored");
  } else {
    w.warn(
      [
        t.client !== undefined
          ? 'client'
          : t.dataConnection !== undefined
            ? 'dataConnection'
            : 'http',
      ],
      'not an HTTP tool: imported as an action the host implements',
    );
    if (t.staticResponse?.responseText !== undefined) d.result = t.staticResponse.responseText;
    if (t.timeout !== undefined) w.warn(['timeout'], 'an action has no endpoint timeout; ignored');
  }
  return d;
}

function misplaced(
  w: ToolWarnings,
  field: FieldPath,
  at: string | undefined,
  argsIn: 'body' | 'query',
): void {
  const where =
    at === 'PARAMETER_LOCATION_QUERY'
      ? 'query'
      : at === 'PARAMETER_LOCATION_BODY'
        ? 'body'
        : undefined;
  if (where !== undefined && where !== argsIn)
    w.warn(
      [...field, 'location'],
      `switchboard sends all arguments one way; this ${where} parameter goes in the ${argsIn === 'body' ? 'request body' : 'query string'}`,
    );
}

function security(t: UltravoxTool, w: ToolWarnings, d: DraftTool, headers: VendorHeader[]): void {
  const options = t.requirements?.httpSecurityOptions?.options ?? [];
  const all = [...headers];
  let ref: string | undefined;
  options.forEach((option, i) => {
    for (const [key, req] of Object.entries(option.requirements ?? {})) {
      const field: FieldPath = [
        'requirements',
        'httpSecurityOptions',
        'options',
        i,
        'requirements',
        key,
      ];
      ref ??= key;
      const header = isPlainObject(req['headerApiKey'])
        ? String(req['headerApiKey']['name'])
        : isPlainObject(req['httpAuth'])
          ? 'authorization'
          : undefined;
      if (header !== undefined)
        all.push({ name: header, value: { kind: 'secret', ref: key }, field });
      else
        w.warn(
          field,
          'an API key in the query string cannot come from a service (services add headers); not imported',
        );
    }
  });
  if (t.requirements !== undefined) {
    const req = t.requirements as Record<string, unknown>;
    if (req['requiredParameterOverrides'] !== undefined)
      w.warn(
        ['requirements', 'requiredParameterOverrides'],
        'pass these values per session with toolDefaults; not enforced at import',
      );
  }
  const service = serviceName(ref, t.http?.baseUrlPattern ?? '');
  if (headersToService(w, all, service, t.http?.baseUrlPattern ?? '')) d.service = service;
}
