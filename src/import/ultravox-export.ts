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
  exportViews,
  unexpressedExtras,
  unexpressedRule,
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
    if (v.kind !== 'end_call') return { temporaryTool: definition(v) };
    if (v.def.name !== 'hangUp')
      v.w.warn(
        ['tool', 'function', 'name'],
        `Ultravox's built-in is hangUp; "${v.def.name}" becomes hangUp`,
      );
    return { toolName: 'hangUp' };
  });
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
