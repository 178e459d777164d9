/**
 * Syllable-format definitions → Ultravox selected tools (the reverse of ultravox.ts): endpoints
 * become temporary HTTP tools with one parameter location, hidden literals static parameters,
 * `{{vars.session.id}}` the call-id automatic parameter; `hangUp` the built-in; other actions
 * client tools.
 */
import type { ToolDefinition } from '../definition/types.js';
import {
  beforePhrases,
  descriptionOf,
  destinationKind,
  exportViews,
  unexpressedExtras,
  unexpressedRule,
  writtenText,
  type ExportView,
} from './export-view.js';
import type { ExportResult } from './types.js';
import { mustacheText } from './variables.js';

const PLATFORM = 'Ultravox';

/** Exports definitions as Ultravox `selectedTools` entries. */
export function exportUltravox(defs: readonly ToolDefinition[]): ExportResult {
  return exportViews(defs, (v) => {
    unexpressedExtras(v, PLATFORM);
    speech(v);
    if (v.kind === 'end_call') return builtIn(v, 'hangUp', 'End the call.');
    const target = v.def.staticParameters.find((s) => s.name === 'destination')?.default;
    // One fixed number or SIP URI is what Ultravox's coldTransfer built-in takes as `target`.
    if (v.kind === 'transfer' && typeof target === 'string' && destinationKind(target) !== 'agent')
      return {
        ...builtIn(v, 'coldTransfer', 'Transfer the call to a human operator.'),
        parameterOverrides: { target: writtenText(target) },
      };
    return { temporaryTool: definition(v) };
  });
}

/** A selected built-in tool, overriding its name and description where the definition differs. */
function builtIn(v: ExportView, toolName: string, description: string): Record<string, unknown> {
  const f = v.def.tool.function;
  const own = descriptionOf(v.def);
  return {
    toolName,
    ...(f.name !== toolName ? { nameOverride: f.name } : {}),
    ...(own !== undefined && own !== description ? { descriptionOverride: own } : {}),
  };
}

function speech(v: ExportView): void {
  const o = v.def.options;
  if (
    beforePhrases(v.def).size > 0 ||
    Object.keys(o.bridgePhrases).length > 0 ||
    o.speech.onError.size > 0
  )
    v.w.warn(['options', 'speech'], 'Ultravox tools carry no spoken phrases; not exported');
}

function location(v: ExportView, name: string): string {
  const endpoint = v.def.endpoint;
  if (endpoint === undefined) return 'PARAMETER_LOCATION_BODY';
  if (endpoint.pathParams.includes(name)) return 'PARAMETER_LOCATION_PATH';
  return endpoint.argumentLocation === 'query' || endpoint.argumentLocation === 'path'
    ? 'PARAMETER_LOCATION_QUERY'
    : 'PARAMETER_LOCATION_BODY';
}

function definition(v: ExportView): Record<string, unknown> {
  const def = v.def;
  const f = def.tool.function;
  const dynamicParameters = Object.entries(v.properties).map(([name, schema]) => ({
    name,
    location: location(v, name),
    schema,
    required: v.required.includes(name),
  }));
  const staticParameters: Record<string, unknown>[] = [];
  const automaticParameters: Record<string, unknown>[] = [];
  for (const s of def.staticParameters) {
    if (s.default === '{{vars.session.id}}')
      automaticParameters.push({
        name: s.name,
        location: location(v, s.name),
        knownValue: 'KNOWN_PARAM_CALL_ID',
      });
    else if (typeof s.default === 'string' && mustacheText(s.default) === undefined)
      v.w.warn(
        ['static_parameters', s.name],
        'Ultravox static parameters are literal values (no variables); not exported',
      );
    else
      staticParameters.push({
        name: s.name,
        location: location(v, s.name),
        value: typeof s.default === 'string' ? mustacheText(s.default) : s.default,
      });
  }
  for (const rule of v.rules) {
    if (
      rule.action === 'override' &&
      !rule.conditional &&
      rule.value !== undefined &&
      !rule.key.includes('.')
    )
      staticParameters.push({ name: rule.key, location: location(v, rule.key), value: rule.value });
    else
      unexpressedRule(
        v,
        rule,
        PLATFORM,
        'only unconditional overrides of a top-level argument with a literal',
      );
  }
  const endpoint = def.endpoint;
  if (endpoint !== undefined && def.service !== undefined)
    // A service says how switchboard authenticates, not how Ultravox should: the scheme is assumed.
    v.w.warn(
      ['service'],
      `service "${def.service}" exported as an httpAuth Bearer requirement of that name (assumed: a header or query key, as the service may send, is not known from a definition); check it, and pass the key as authTokens.${def.service}`,
    );
  if (endpoint?.argumentLocation === 'form')
    v.w.warn(
      ['endpoint', 'argument_location'],
      'Ultravox sends a JSON body; form encoding is not exported',
    );
  return {
    modelToolName: f.name,
    ...(f.description !== undefined ? { description: descriptionOf(def) } : {}),
    ...(dynamicParameters.length > 0 ? { dynamicParameters } : {}),
    ...(staticParameters.length > 0 ? { staticParameters } : {}),
    ...(automaticParameters.length > 0 ? { automaticParameters } : {}),
    ...(endpoint !== undefined && def.service !== undefined
      ? {
          requirements: {
            httpSecurityOptions: {
              options: [{ requirements: { [def.service]: { httpAuth: { scheme: 'Bearer' } } } }],
            },
          },
        }
      : {}),
    ...(endpoint !== undefined && endpoint.timeoutSecs !== 20
      ? { timeout: `${endpoint.timeoutSecs}s` }
      : {}),
    // Only a declaration: every GET is `none` by default, and Ultravox precomputes a tool marked so.
    ...(def.options.sideEffects === 'none' && endpoint !== undefined && endpoint.method !== 'get'
      ? { precomputable: true }
      : {}),
    ...(endpoint !== undefined
      ? { http: { baseUrlPattern: endpoint.url, httpMethod: endpoint.method.toUpperCase() } }
      : { client: {} }),
    ...(endpoint === undefined && def.hasResult && typeof def.result === 'string'
      ? { staticResponse: { responseText: def.result } }
      : {}),
  };
}
