/**
 * Vapi's Liquid values in an imported tool: a fixed value (`parameters`, a body property's `value`)
 * becomes a static parameter, its Liquid a session-variable template; Liquid that reads one of the
 * model's arguments (`"site:docs {{query}}"`, `?q={{query}}`) becomes a rule over the arguments,
 * and a URL placeholder named after an argument is the argument's (docs/import.md, Vapi).
 */
import { checkEndpointUrl } from '../definition/endpoint-url.js';
import { isPlainObject } from '../own-data.js';
import type { FieldPath, ToolWarnings } from './conversion-context.js';
import { addConstant, addTemplate, type DraftTool } from './draft-tool.js';
import type { MappedUrl } from './http-parts.js';
import { VAPI_DIALECT } from './vapi-schema.js';
import {
  hasVendorVariable,
  mustacheParts,
  namesArgument,
  toFormat,
  toMustache,
} from './variables.js';

/**
 * Vapi fills `{{name}}` in an apiRequest URL from the model's arguments when the body declares
 * `name` (its docs' `…/orders/{{orderNumber}}` with body property `orderNumber`): the placeholder
 * is then the argument's, not a hidden value from a session variable.
 */
export function argumentPlaceholders(d: DraftTool, url: MappedUrl): MappedUrl {
  const args = new Set(Object.keys(d.properties));
  const statics = url.statics.filter((s) => {
    if (Object.hasOwn(d.properties, s.name) && s.default === `{{vars.${s.name}}}`) return false;
    // A query value whose Liquid reads an argument (`?q=site:{{query}}`) is rendered per call.
    const format = typeof s.default === 'string' ? argumentFormat(s.default, args) : undefined;
    if (format === undefined) return true;
    d.defaults[s.name] = { transform: { action: 'override', format } };
    return false;
  });
  return statics.length === url.statics.length ? url : { ...url, statics };
}

/**
 * A Vapi GET or DELETE (`method`) sends its URL alone: each of the model's arguments the URL
 * names nowhere, as a placeholder or a query key, gets an `@remove` rule after every other rule
 * (those reading it, `?q={{query}}`, run first), so switchboard does not add it to the query
 * string. Its body `default` fills nothing sent, so the rule takes its place.
 */
export function onlyTheUrl(d: DraftTool, w: ToolWarnings, url: MappedUrl, method: string): void {
  // `url.statics` (before argumentPlaceholders) holds every path variable and query key.
  const sent = new Set([
    ...checkEndpointUrl(url.url).pathParams,
    ...url.statics.map((s) => s.name),
  ]);
  const unsent: string[] = [];
  for (const name of Object.keys(d.properties)) {
    if (sent.has(name)) continue;
    // A rule's key is a dotted path and never a prototype name: such an argument stays sent.
    if (!PLAIN_KEY.test(name) || FORBIDDEN.has(name)) {
      w.warn(
        ['url'],
        `Vapi sends a ${method} request as its URL alone, but the model's argument "${name}" cannot be named by a rule: it is sent in the query string`,
      );
      continue;
    }
    unsent.push(name);
    delete d.defaults[name];
    d.defaults[name] = '@remove';
  }
  if (unsent.length === 0) return;
  const names = unsent.map((n) => `"${n}"`).join(', ');
  w.warn(
    ['url'],
    `Vapi sends a ${method} request as its URL alone: the model's ${unsent.length === 1 ? `argument ${names} is` : `arguments ${names} are`} named nowhere in it and not sent (an "@remove" rule each; the model still sees ${unsent.length === 1 ? 'it' : 'them'})`,
  );
}

/**
 * A translated template (`site:{{vars.query}}`) as a `defaults` format reading the arguments it
 * names (`site:{params.query}`); undefined when it names none.
 */
function argumentFormat(template: string, args: ReadonlySet<string>): string | undefined {
  const parts = mustacheParts(template);
  if (parts === undefined) return undefined;
  let named = false;
  let out = '';
  for (const p of parts) {
    if ('text' in p) out += p.text.replace(/[{}]/g, (c) => c + c);
    else if (p.variable.startsWith('vars.') && args.has(p.variable.slice(5))) {
      named = true;
      out += `{params.${p.variable.slice(5)}}`;
    } else out += `{${p.variable}}`;
  }
  return named ? out : undefined;
}

export function isArgument(d: DraftTool, name: string, value: unknown): boolean {
  const m = typeof value === 'string' ? /^\{\{\s*([A-Za-z_]\w*)\s*\}\}$/.exec(value) : null;
  return m !== null && m[1] === name && Object.hasOwn(d.properties, name);
}

export function constant(
  w: ToolWarnings,
  d: DraftTool,
  name: string,
  value: unknown,
  field: FieldPath,
  args: ReadonlySet<string>,
  description?: string,
): void {
  // Vapi values are Liquid: its variables are translated, the rest stays literal. Liquid that
  // reads one of the model's arguments (`"site:docs {{query}}"`) is rendered per call, from the
  // arguments: a rule over them, not a static value from session variables.
  const readsArgument = typeof value === 'string' && namesArgument(value, args);
  // A rule's key is a dotted path: a key that is not a plain name (`filter.q`) cannot be one, so
  // the value stays a static template, which reads the session variables; said, not silent.
  if (readsArgument && !PLAIN_KEY.test(name))
    w.warn(
      field,
      `"${value}" reads the model's arguments under the key "${name}", which a switchboard rule cannot address; imported reading the session variables of those names instead`,
    );
  if (readsArgument && PLAIN_KEY.test(name))
    d.defaults[name] = {
      transform: {
        action: 'override',
        format: toFormat(value, VAPI_DIALECT, (m) => w.warn(field, m), args),
      },
    };
  else if (typeof value === 'string')
    addTemplate(
      d,
      name,
      toMustache(value, VAPI_DIALECT, (m) => w.warn(field, m)),
      description,
    );
  else {
    addConstant(d, name, value, description);
    nestedLiquid(w, d, name, value, field, args);
  }
}

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;
// Segments the transform refuses in a rule's key (docs/transform.md, forbidden_segment).
const FORBIDDEN = new Set(['__proto__', 'prototype', 'constructor']);

/**
 * Vapi renders Liquid in strings nested in object and list values too. A string inside objects
 * becomes a dotted `@override` rule after the rule that writes the whole value (`"metadata.callId":
 * {transform: {action: override, format: "{vars.transport.callSid}"}}`); one inside a list cannot
 * be addressed by a rule and is a warning naming it (sent as the literal text).
 */
function nestedLiquid(
  w: ToolWarnings,
  d: DraftTool,
  key: string,
  value: unknown,
  field: FieldPath,
  args: ReadonlySet<string>,
  inList = false,
): void {
  if (typeof value === 'string') {
    if (!hasVendorVariable(value)) return;
    if (inList || key.split('.').some((k) => !PLAIN_KEY.test(k))) {
      w.warn(
        field,
        `the Liquid in "${value}" sits ${inList ? 'in a list' : 'under a key that is not a plain name'}, which a switchboard rule cannot address; sent as the literal text`,
      );
      return;
    }
    d.defaults[key] = {
      transform: {
        action: 'override',
        format: toFormat(value, VAPI_DIALECT, (m) => w.warn(field, m), args),
      },
    };
    return;
  }
  if (Array.isArray(value))
    value.forEach((v, i) => nestedLiquid(w, d, key, v, [...field, i], args, true));
  else if (isPlainObject(value))
    for (const [k, v] of Object.entries(value))
      nestedLiquid(w, d, `${key}.${k}`, v, [...field, k], args, inList);
}
