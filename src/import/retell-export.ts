/**
 * Syllable-format definitions → Retell tools (the reverse of retell.ts): endpoints become custom
 * tools with `args_at_root: true` (the body switchboard sends), the end-call and transfer actions
 * Retell's `end_call` and `transfer_call`. Retell has no host-implemented tools: other actions
 * are not exported.
 */
import type { ToolDefinition } from '../definition/types.js';
import {
  beforePhrases,
  descriptionOf,
  exportViews,
  unexpressedRule,
  writtenText,
  type ExportView,
  sourcePath,
} from './export-view.js';
import { objectSchema } from './json-schema.js';
import { RETELL_DIALECT } from './retell.js';
import { ToolWarnings } from './conversion-context.js';
import type { ConversionWarning, ExportResult } from './types.js';
import { fromMustache } from './variables.js';

const PLATFORM = 'Retell';

/** Exports definitions as Retell tools (for a Retell LLM's `general_tools`). */
export function exportRetell(defs: readonly ToolDefinition[]): ExportResult {
  const result = exportViews(defs, retellTool);
  for (const def of defs) statesNotExported(def, result.warnings);
  return result;
}

/**
 * A step workflow is what a multi-state Retell LLM imports as (retell-states.ts). The export is
 * a list of tools, a Retell LLM's `general_tools`; the states, their edges and `starting_state`
 * are fields of the LLM beside that list, which the export does not write. The warning names the
 * states, so they can be recreated in Retell, and the tools that lose their state's limit.
 */
function statesNotExported(def: ToolDefinition, warnings: ConversionWarning[]): void {
  for (const task of def.tasks) {
    if (task.type !== 'steps') continue;
    const names = task.steps.map((s) => `"${s.id}"`).join(', ');
    const allows = task.steps.map((s) => s.tools.allow);
    const some = allows.every((a) => a !== undefined)
      ? [...new Set(allows.flat())].filter((t) => !allows.every((a) => a?.includes(t)))
      : [];
    new ToolWarnings(warnings, sourcePath(def), def.name).warn(
      ['context', 'task', 'steps'],
      `the states ${names} (starting in "${task.steps[0]?.id ?? ''}") are not exported: this export writes Retell tools (a Retell LLM's general_tools), and a Retell LLM's states, their edges and starting_state are fields of the LLM, which it does not write; recreate them in Retell${some.length > 0 ? `. ${some.map((t) => `"${t}"`).join(', ')}, allowed in some states only, ${some.length === 1 ? 'is exported as a general tool' : 'are exported as general tools'}, usable in every state` : ''}`,
    );
  }
}

function retellTool(v: ExportView): Record<string, unknown> | undefined {
  const def = v.def;
  const f = def.tool.function;
  const head = {
    name: f.name,
    ...(f.description !== undefined ? { description: descriptionOf(def) } : {}),
    ...speech(v),
  };
  for (const rule of v.rules)
    unexpressedRule(v, rule, PLATFORM, 'Retell has no argument transforms');
  if (v.kind === 'end_call') return { type: 'end_call', ...head };
  if (v.kind === 'transfer') {
    const fixed = def.staticParameters.find((s) => s.name === 'destination');
    const choices = v.properties['destination']?.['enum'];
    const number =
      typeof fixed?.default === 'string'
        ? writtenText(fixed.default)
        : Array.isArray(choices)
          ? String(choices[0])
          : '';
    if (fixed === undefined)
      v.w.warn(
        ['tool', 'function', 'parameters', 'properties', 'destination'],
        'a Retell transfer has one predefined number; the first is exported',
      );
    return {
      type: 'transfer_call',
      ...head,
      transfer_destination: { type: 'predefined', number },
      transfer_option: { type: 'cold_transfer' },
    };
  }
  if (v.kind === 'action') {
    v.w.warn(
      ['type'],
      'Retell has no host-implemented tools (custom tools call a URL); not exported',
    );
    return undefined;
  }
  return { type: 'custom', ...head, ...custom(v) };
}

function speech(v: ExportView): Record<string, unknown> {
  const o = v.def.options;
  if (Object.keys(o.bridgePhrases).length > 0)
    v.w.warn(
      ['options', 'bridge_phrases'],
      'Retell has one execution message; bridge phrases are not exported',
    );
  if (o.speech.onError.size > 0)
    v.w.warn(['options', 'speech', 'on_error'], 'no spoken error phrases in Retell; not exported');
  const before = beforePhrases(v.def);
  const text = before.get('*') ?? [...before.values()][0];
  if (before.size > 1)
    v.w.warn(
      ['options', 'speech', 'before'],
      'Retell has one execution message; other languages are not exported',
    );
  return text !== undefined
    ? {
        speak_during_execution: true,
        execution_message_type: 'static_text',
        execution_message_description: text,
      }
    : {};
}

function custom(v: ExportView): Record<string, unknown> {
  const def = v.def;
  const endpoint = def.endpoint!;
  let url = endpoint.url;
  // Keyed by names from the definition (a Map, so `__proto__` stays a name). The URL's own pairs
  // come first: switchboard sends them before the static values.
  const query = new Map<string, string>();
  const queryAt = url.indexOf('?');
  if (queryAt >= 0) {
    for (const pair of url.slice(queryAt + 1).split('&')) {
      const eq = pair.indexOf('=');
      const k = eq >= 0 ? pair.slice(0, eq) : pair;
      const key = decodeURIComponent(k);
      if (k === '') continue;
      if (query.has(key))
        v.w.warn(
          ['endpoint', 'url'],
          `the URL's query has "${key}" more than once and Retell's query_params hold one value per name: only the first is exported`,
        );
      else query.set(key, decodeURIComponent(eq >= 0 ? pair.slice(eq + 1) : ''));
    }
    url = url.slice(0, queryAt);
  }
  const inQuery = endpoint.argumentLocation === 'query';
  for (const s of def.staticParameters) {
    // An `int` or `boolean` static value is sent in the URL as its string form, as here.
    const text =
      typeof s.default === 'string'
        ? fromMustache(s.default, RETELL_DIALECT)
        : typeof s.default === 'number' || typeof s.default === 'boolean'
          ? String(s.default)
          : undefined;
    if (text === undefined) {
      v.w.warn(
        ['static_parameters', s.name],
        'Retell has string query parameters and URL variables only; not exported',
      );
    } else if (endpoint.pathParams.includes(s.name)) {
      url = url.replace(`{${s.name}}`, text);
    } else if (inQuery && !query.has(s.name)) {
      query.set(s.name, text);
    } else if (inQuery) {
      v.w.warn(
        ['static_parameters', s.name],
        `the URL's query has "${s.name}" already and Retell's query_params hold one value per name; not exported`,
      );
    } else {
      v.w.warn(['static_parameters', s.name], 'Retell has no fixed body values; not exported');
    }
  }
  if (endpoint.argumentLocation === 'form')
    v.w.warn(
      ['endpoint', 'argument_location'],
      'Retell sends a JSON body; form encoding is not exported',
    );
  if (def.service !== undefined)
    v.w.warn(
      ['service'],
      `service "${def.service}": Retell tools carry their headers; add them in Retell`,
    );
  if (def.options.speech.afterSpeech)
    v.w.warn(['options', 'speech', 'after_speech'], 'no Retell equivalent; not exported');
  return {
    url,
    method: endpoint.method.toUpperCase(),
    args_at_root: true,
    parameters: objectSchema(v.properties, v.required, undefined, v.extras),
    ...(query.size > 0 ? { query_params: Object.fromEntries(query) } : {}),
    timeout_ms: Math.round(endpoint.timeoutSecs * 1000),
    ...(def.options.save.length > 0
      ? { response_variables: Object.fromEntries(def.options.save.map((s) => [s.to, s.from])) }
      : {}),
  };
}
