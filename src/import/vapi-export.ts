/**
 * Syllable-format definitions → Vapi tools (the reverse of vapi.ts): endpoints become
 * `apiRequest` tools (the arguments as the JSON body, as switchboard sends them), the end-call and
 * transfer actions Vapi's `endCall` and `transferCall`, other actions `function` tools without a
 * server (Vapi then asks the assistant's server, i.e. the host).
 */
import type { ToolDefinition } from '../definition/types.js';
import {
  beforePhrases,
  descriptionOf,
  exportViews,
  unexpressedRule,
  destinationKind,
  writtenText,
  type ExportView,
  type RuleView,
} from './export-view.js';
import { isPlainObject } from '../own-data.js';
import { objectSchema } from './json-schema.js';
import type { ExportResult, JsonSchemaJson } from './types.js';
import { VAPI_DIALECT } from './vapi.js';
import { removedArguments, urlOnly, withQuery } from './vapi-export-query.js';
import { fromFormat, fromMustache, hasVendorVariable } from './variables.js';

/** Exports definitions as Vapi tools. */
export function exportVapi(defs: readonly ToolDefinition[]): ExportResult {
  return exportViews(defs, (v) => {
    const tool = vapiTool(v);
    if (v.kind !== 'http')
      for (const rule of v.rules)
        unexpressedRule(v, rule, 'Vapi', 'only apiRequest body properties take defaults');
    return tool;
  });
}

function vapiTool(v: ExportView): Record<string, unknown> {
  const def = v.def;
  const messages = messagesOf(v);
  const common = messages.length > 0 ? { messages } : {};
  switch (v.kind) {
    case 'http':
      // Vapi runs an apiRequest tool synchronously whatever its `async` says (VapiAI/gitops
      // docs/learnings/tools.md), and a function tool would send Vapi's envelope instead.
      if (def.options.background)
        v.w.warn(
          ['options', 'background'],
          'Vapi runs apiRequest tools synchronously (async has no effect there): the model waits for the result; not exported',
        );
      return { ...apiRequest(v), ...common };
    case 'end_call':
      if (def.name !== 'endCall')
        v.w.warn(
          ['tool', 'function', 'name'],
          `Vapi names its end-call tool itself; "${def.name}" becomes endCall`,
        );
      return { type: 'endCall', ...common };
    case 'transfer': {
      const dests = destinations(v);
      // Destinations that are all assistants were a handoff (or say one): Vapi's handoff tool.
      const handoff = dests.length > 0 && dests.every((d) => d['type'] === 'assistant');
      return {
        type: handoff ? 'handoff' : 'transferCall',
        ...namedFunction(v, handoff ? undefined : 'transferCall'),
        destinations: dests,
        ...common,
      };
    }
    case 'action':
      return {
        type: 'function',
        ...(def.options.background ? { async: true } : {}),
        function: fn(v),
        ...common,
        ...parametersOf(v),
      };
    default: {
      const _exhaustive: never = v.kind;
      throw new Error(`unknown tool kind ${String(_exhaustive)}`);
    }
  }
}

function fn(v: ExportView): Record<string, unknown> {
  const f = v.def.tool.function;
  return {
    name: f.name,
    ...(f.description !== undefined ? { description: descriptionOf(v.def) } : {}),
    parameters: objectSchema(v.properties, v.required, undefined, v.extras),
  };
}

/** Static parameters of a function tool: Vapi's `parameters` (key/value merged into the body). */
function parametersOf(v: ExportView): Record<string, unknown> {
  const out = v.def.staticParameters.flatMap((s) => {
    const value = liquid(v, s.name, s.default);
    return value === undefined ? [] : [{ key: s.name, value }];
  });
  return out.length > 0 ? { parameters: out } : {};
}

function liquid(v: ExportView, name: string, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const text = fromMustache(value, VAPI_DIALECT, false, new Set(Object.keys(v.properties)));
  if (text === undefined)
    v.w.warn(
      ['static_parameters', name],
      `"${value}" names a value Vapi has no variable for, or a variable named like an argument (Vapi reads it as the argument); not exported`,
    );
  return text;
}

function apiRequest(v: ExportView): Record<string, unknown> {
  const def = v.def;
  const endpoint = def.endpoint!;
  let url = endpoint.url;
  const properties: Record<string, JsonSchemaJson> = { ...v.properties };
  // Vapi's documented place for fixed values is the tool's `parameters` list (key/value, Liquid).
  const parameters = new Map<string, unknown>();
  for (const s of def.staticParameters) {
    const value = liquid(v, s.name, s.default);
    if (value === undefined) continue;
    // An `int` or `boolean` static value fills its path segment as the engine sends it.
    const segment =
      typeof value === 'number' || typeof value === 'boolean'
        ? encodeURIComponent(String(value))
        : value;
    if (endpoint.pathParams.includes(s.name) && typeof segment === 'string') {
      url = url.replace(`{${s.name}}`, segment);
      continue;
    }
    parameters.set(s.name, value);
  }
  const getLike = urlOnly(endpoint.method);
  const { removed, rest: rules } = getLike
    ? removedArguments(v, hiddenValues(v, parameters))
    : { removed: new Set<string>(), rest: hiddenValues(v, parameters) };
  // A GET's argument overridden by Liquid over the arguments is sent as that Liquid.
  const argQuery = new Map<string, string>();
  // Vapi fills `{{name}}` in the URL from the argument `name` the body declares (its docs' GET
  // example), which is what a placeholder filled by an argument means here.
  for (const p of endpoint.pathParams)
    if (url.includes(`{${p}}`)) {
      if (!Object.hasOwn(properties, p))
        v.w.warn(
          ['endpoint', 'url'],
          `placeholder {${p}} is filled by neither an argument nor a static value; kept as written`,
        );
      else url = url.replace(`{${p}}`, `{{${p}}}`);
    }
  const args = new Set(Object.keys(v.properties));
  for (const rule of rules) {
    const target = properties[rule.key];
    // An unconditional override of an argument by Liquid (what the import of a body value that
    // reads the arguments writes) is that property's `value`.
    const liquidValue =
      !rule.conditional && rule.action === 'override' && rule.format !== undefined
        ? fromFormat(rule.format, VAPI_DIALECT, args)
        : undefined;
    if (target !== undefined && liquidValue !== undefined) {
      if (getLike) argQuery.set(rule.key, liquidValue);
      else properties[rule.key] = { ...target, value: liquidValue };
      continue;
    }
    if (rule.conditional || rule.action !== 'default' || target === undefined) {
      unexpressedRule(
        v,
        rule,
        'Vapi',
        'a body property\'s "default" is an unconditional default of a top-level argument',
      );
      continue;
    }
    const value =
      rule.format !== undefined ? fromFormat(rule.format, VAPI_DIALECT, args) : rule.value;
    if (value === undefined)
      unexpressedRule(
        v,
        rule,
        'Vapi',
        'the template names a value Vapi has no variable for, or a variable named like an argument, which Vapi reads as the argument',
      );
    else properties[rule.key] = { ...target, default: value };
  }
  if (getLike) {
    const args = Object.keys(v.properties).filter(
      (p) => !endpoint.pathParams.includes(p) && !removed.has(p),
    );
    url = withQuery(
      v,
      url,
      args.map((p) => [p, argQuery.get(p) ?? `{{${p}}}`]),
      parameters,
    );
    parameters.clear();
  } else if (endpoint.argumentLocation === 'form')
    v.w.warn(
      ['endpoint', 'argument_location'],
      'Vapi sends a JSON body; form encoding is not exported',
    );
  // A service name is not a Vapi credential id (an imported "crm-prod" became the service crm_prod).
  if (def.service !== undefined)
    v.w.warn(
      ['service'],
      `service "${def.service}" exported as credentialId "${def.service}": set the id of the Vapi credential holding its auth, and add its headers in Vapi`,
    );
  return {
    type: 'apiRequest',
    name: def.name,
    ...(def.tool.function.description !== undefined ? { description: descriptionOf(def) } : {}),
    method: endpoint.method.toUpperCase(),
    url,
    body: objectSchema(properties, v.required, undefined, v.extras),
    ...(parameters.size > 0
      ? { parameters: [...parameters].map(([key, value]) => ({ key, value })) }
      : {}),
    ...(endpoint.timeoutSecs !== 20 ? { timeoutSeconds: endpoint.timeoutSecs } : {}),
    ...(def.service !== undefined ? { credentialId: def.service } : {}),
    ...(def.options.save.length > 0
      ? {
          variableExtractionPlan: {
            aliases: def.options.save.map((s) => ({ key: s.to, value: `{{${s.from}}}` })),
          },
        }
      : {}),
  };
}

/**
 * Unconditional overrides of a value the model does not fill (`metadata`), and dotted template
 * overrides inside it (`metadata.callId` = `{vars.transport.callSid}`), go back into `parameters`
 * as one value with Liquid where the templates were (what the import of such a value writes).
 * Returns the rules left for the body's defaults.
 */
function hiddenValues(v: ExportView, parameters: Map<string, unknown>): RuleView[] {
  const rest: RuleView[] = [];
  const args = new Set(Object.keys(v.properties));
  for (const rule of v.rules) {
    const hidden =
      !rule.conditional && rule.action === 'override' && !Object.hasOwn(v.properties, rule.key);
    if (hidden && !rule.key.includes('.') && rule.value !== undefined) {
      parameters.set(rule.key, structuredClone(rule.value));
      continue;
    }
    const [head, ...path] = rule.key.split('.');
    const text =
      rule.format !== undefined ? fromFormat(rule.format, VAPI_DIALECT, args) : undefined;
    // A hidden value rendered from the arguments (`"site:docs {{query}}"`) goes back as written.
    if (hidden && text !== undefined && path.length === 0) {
      parameters.set(head!, text);
      continue;
    }
    const into = parameters.get(head!);
    if (hidden && text !== undefined && path.length > 0 && setIn(into, path, text)) continue;
    rest.push(rule);
  }
  return rest;
}

/** Sets `path` inside `target` (plain objects only); false when a step is missing. */
function setIn(target: unknown, path: readonly string[], value: string): boolean {
  let at = target;
  for (const key of path.slice(0, -1)) {
    if (!isPlainObject(at) || !Object.hasOwn(at, key)) return false;
    at = at[key];
  }
  const last = path[path.length - 1]!;
  if (!isPlainObject(at) || !Object.hasOwn(at, last)) return false;
  // The value an import wrote still holds the Liquid as Vapi wrote it (spacing and all).
  const current = at[last];
  if (!(typeof current === 'string' && hasVendorVariable(current))) at[last] = value;
  return true;
}

function destinations(v: ExportView): Record<string, unknown>[] {
  const fixed = v.def.staticParameters.find((s) => s.name === 'destination');
  if (fixed !== undefined && typeof fixed.default === 'string')
    return [destination(writtenText(fixed.default), fixed.description)];
  const choices = v.properties['destination']?.['enum'];
  return Array.isArray(choices) ? choices.map((n) => destination(String(n))) : [];
}

/**
 * One Vapi destination for a transfer action's destination value: a SIP URI, a phone number (or a
 * Liquid variable holding one), else the name of an assistant (what a Vapi handoff imports as).
 */
function destination(value: string, description?: string): Record<string, unknown> {
  const described = description !== undefined ? { description } : {};
  switch (destinationKind(value)) {
    case 'sip':
      return { type: 'sip', sipUri: value, ...described };
    case 'number':
      return { type: 'number', number: value, ...described };
    case 'agent':
      return { type: 'assistant', assistantName: value, ...described };
  }
}

/**
 * The `function` of a Vapi built-in tool, written when the name or description is not Vapi's
 * default, so the model sees the same tool (a transfer tool named `transfer_to_billing` stays so).
 */
function namedFunction(v: ExportView, vapiDefault: string | undefined): Record<string, unknown> {
  const f = v.def.tool.function;
  if (f.name === vapiDefault && f.description === undefined) return {};
  return {
    function: {
      name: f.name,
      ...(f.description !== undefined ? { description: descriptionOf(v.def) } : {}),
    },
  };
}

/**
 * Spoken error phrases (mustache over `vars.*` and `args.*`) as Vapi Liquid, each with a warning
 * when it cannot say the same there: a literal `{{` (Vapi reads it as Liquid; kept, as an import
 * from Vapi had it) or a value Vapi has no variable for (`args.*`: exported as written).
 */
function liquidPhrases(v: ExportView, phrases: ReadonlyMap<string, string>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [language, text] of phrases) {
    const field = ['options', 'speech', 'on_error', '*', language];
    const exact = fromMustache(text, VAPI_DIALECT);
    const kept = exact ?? fromMustache(text, VAPI_DIALECT, true);
    if (kept === undefined)
      v.w.warn(field, `"${text}" names a value Vapi has no variable for; exported as written`);
    else if (exact === undefined)
      v.w.warn(field, 'a literal "{{" in the phrase is read by Vapi as Liquid');
    out.set(language, kept ?? text);
  }
  return out;
}

function contentOf(phrases: ReadonlyMap<string, string>): Record<string, unknown> {
  const star = phrases.get('*');
  if (phrases.size === 1 && star !== undefined) return { content: star };
  return {
    contents: [...phrases].map(([language, text]) => ({
      type: 'text',
      text,
      ...(language !== '*' ? { language } : {}),
    })),
  };
}

function messagesOf(v: ExportView): Record<string, unknown>[] {
  const def = v.def;
  const out: Record<string, unknown>[] = [];
  const before = beforePhrases(def);
  if (before.size > 0)
    out.push({
      type: 'request-start',
      ...contentOf(before),
      ...(def.options.speech.afterSpeech ? { blocking: true } : {}),
    });
  else if (def.options.speech.afterSpeech && v.kind === 'http')
    v.w.warn(
      ['options', 'speech', 'after_speech'],
      'Vapi blocks on a request-start message only; not exported without one',
    );
  const bridge = new Map(
    Object.entries(def.options.bridgePhrases).flatMap(([k, l]) =>
      l[0] !== undefined ? [[k, l[0]] as const] : [],
    ),
  );
  if (bridge.size > 0) out.push({ type: 'request-response-delayed', ...contentOf(bridge) });
  const failed = def.options.speech.onError.get('*');
  if (failed !== undefined && failed.size > 0)
    out.push({ type: 'request-failed', ...contentOf(liquidPhrases(v, failed)) });
  if ([...def.options.speech.onError.keys()].some((k) => k !== '*'))
    v.w.warn(
      ['options', 'speech', 'on_error'],
      'Vapi has one request-failed message; only the "*" class is exported',
    );
  if (!def.options.speech.interruptible)
    v.w.warn(['options', 'speech', 'interruptible'], 'no Vapi equivalent; not exported');
  return out;
}
