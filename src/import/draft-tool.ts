/**
 * The platform-neutral draft every importer fills, and its one way out to a Syllable-format
 * definition: names made valid, constants typed as static parameters (or `@override` rules for
 * values a static parameter cannot hold), methods switchboard has no endpoint for turned into
 * actions, keys in a stable order so committed imports diff cleanly.
 */
import type { FieldPath, ToolWarnings } from './conversion-context.js';
import type { MappedUrl } from './http-parts.js';
import { objectSchema } from './json-schema.js';
import { mustacheLiteral } from './variables.js';
import type {
  ImportedOptionsJson,
  JsonSchemaJson,
  StaticParameterJson,
  ToolDefinitionJson,
} from './types.js';

/** An HTTP call as a platform describes it. */
export interface DraftHttp {
  readonly url: string;
  /** As written by the platform (any case). */
  readonly method: string;
  readonly location: 'body' | 'form' | 'query';
  readonly timeoutSecs?: number;
  /** Where the method was written, for the warning when it has no endpoint here. */
  readonly methodField: FieldPath;
  /** Where the URL was written (default `url`), for warnings about it. */
  readonly urlField?: FieldPath;
  /** Set when the URL cannot be an endpoint URL; the tool becomes an action. */
  readonly unusable?: string;
}

/** What an importer collects for one tool. */
export interface DraftTool {
  name: string;
  nameField: FieldPath;
  description?: string;
  properties: Record<string, JsonSchemaJson>;
  required: string[];
  /** Root keywords of the argument schema besides its properties (`additionalProperties: false`). */
  schemaExtras: JsonSchemaJson;
  http?: DraftHttp;
  service?: string;
  statics: StaticParameterJson[];
  /** Names in `statics`, so a vendor tool with thousands of hidden values adds each in O(1). */
  staticNames: Set<string>;
  defaults: Record<string, unknown>;
  options: ImportedOptionsJson;
  result?: unknown;
}

/**
 * Makes the draft an HTTP call to a URL from `mapUrl`: the URL's hidden parameters join the
 * statics, and a URL that cannot be an endpoint URL marks the call unusable (imported as an action).
 */
export function setHttp(
  d: DraftTool,
  url: MappedUrl,
  call: Omit<DraftHttp, 'url' | 'unusable'>,
): void {
  d.statics.push(...url.statics);
  for (const s of url.statics) d.staticNames.add(s.name);
  d.http = { url: url.url, ...call, ...(url.ok ? {} : { unusable: url.reason ?? 'bad URL' }) };
}

/** An empty draft. */
export function draft(name: string, nameField: FieldPath, description?: string): DraftTool {
  return {
    name,
    nameField,
    ...(description !== undefined && description !== '' ? { description } : {}),
    // Keyed by vendor names: a name like `__proto__` must be an own key, not the prototype.
    properties: Object.create(null) as Record<string, JsonSchemaJson>,
    required: [],
    schemaExtras: {},
    statics: [],
    staticNames: new Set(),
    defaults: Object.create(null) as Record<string, unknown>,
    options: {},
  };
}

/**
 * Adds a vendor literal the model never sees: a static parameter when its type allows (string,
 * integer, boolean, list of strings), else an `@override` rule with the value. A string static
 * parameter is a mustache template, so the literal is escaped: it is sent as written.
 */
export function addConstant(
  d: DraftTool,
  name: string,
  value: unknown,
  description?: string,
): void {
  addHidden(d, name, typeof value === 'string' ? mustacheLiteral(value) : value, description);
}

/**
 * Adds a hidden value from a template the import wrote on purpose (a vendor variable translated
 * to `{{vars.…}}`), as a string static parameter.
 */
export function addTemplate(
  d: DraftTool,
  name: string,
  template: string,
  description?: string,
): void {
  addHidden(d, name, template, description);
}

function addHidden(d: DraftTool, name: string, value: unknown, description?: string): void {
  const type = staticType(value);
  if (type === undefined) {
    d.defaults[name] = { transform: { action: 'override', value: structuredClone(value) } };
    return;
  }
  // A later value for the same name replaces the earlier one (rare: scan only then).
  if (d.staticNames.has(name)) d.statics = d.statics.filter((s) => s.name !== name);
  d.staticNames.add(name);
  d.statics.push({
    name,
    type,
    default: structuredClone(value),
    ...(description !== undefined && description !== '' ? { description } : {}),
  });
}

function staticType(value: unknown): StaticParameterJson['type'] | undefined {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'boolean';
  if (Number.isInteger(value)) return 'int';
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return 'data_source_list';
  return undefined;
}

const METHODS = new Set(['get', 'post', 'put', 'delete']);
const FUNCTION_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** The Syllable-format definition of a draft. */
export function finishDraft(w: ToolWarnings, d: DraftTool): ToolDefinitionJson {
  let name = d.name;
  if (!FUNCTION_NAME.test(name)) {
    name = name.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 64) || 'tool';
    w.warn(d.nameField, `"${d.name}" is not a valid function name here; renamed "${name}"`);
  }
  w.tool = name;
  let endpoint: ToolDefinitionJson['endpoint'];
  const http = d.http;
  if (http !== undefined) {
    const method = http.method.toLowerCase();
    if (http.unusable !== undefined) {
      w.warn(
        http.urlField ?? ['url'],
        `${http.unusable}: not an endpoint URL switchboard can call; imported as an action for the host to implement`,
      );
    } else if (!METHODS.has(method)) {
      w.warn(
        http.methodField,
        `${http.method.toUpperCase()} has no switchboard endpoint (get, post, put, delete); imported as an action for the host to implement`,
      );
    } else {
      orphanPlaceholders(w, d, http.url, http.urlField ?? ['url']);
      endpoint = {
        url: http.url,
        method: method as 'get' | 'post' | 'put' | 'delete',
        argument_location: http.location,
        ...(http.timeoutSecs !== undefined ? { timeout: http.timeoutSecs } : {}),
      };
    }
  }
  const options = pruneOptions(d.options);
  return {
    type: endpoint !== undefined ? 'endpoint' : 'action',
    tool: {
      type: 'function',
      function: {
        name,
        // A tool description is mustache too (rendered into the model's tool list): kept literal.
        ...(d.description !== undefined ? { description: mustacheLiteral(d.description) } : {}),
        parameters: objectSchema(d.properties, [...new Set(d.required)], undefined, d.schemaExtras),
      },
    },
    ...(endpoint !== undefined ? { endpoint } : {}),
    ...(d.service !== undefined && endpoint !== undefined ? { service: d.service } : {}),
    ...(d.statics.length > 0 ? { static_parameters: d.statics } : {}),
    ...(Object.keys(d.defaults).length > 0 ? { defaults: d.defaults } : {}),
    ...(d.result !== undefined ? { result: d.result } : {}),
    ...(options !== undefined ? { options } : {}),
  };
}

function pruneOptions(o: ImportedOptionsJson): ImportedOptionsJson | undefined {
  const out: ImportedOptionsJson = {};
  if (o.speech !== undefined && Object.keys(o.speech).length > 0) out.speech = o.speech;
  if (o.bridge_phrases !== undefined && Object.keys(o.bridge_phrases).length > 0)
    out.bridge_phrases = o.bridge_phrases;
  if (o.save !== undefined && o.save.length > 0) out.save = o.save;
  if (o.background !== undefined) out.background = o.background;
  if (o.side_effects !== undefined) out.side_effects = o.side_effects;
  return Object.keys(out).length > 0 ? out : undefined;
}

/** `a.b[0].c` / `$.a.b` (a platform's JSON path) → JMESPath, or undefined when not a plain path. */
export function toJmesPath(path: string): string | undefined {
  const trimmed = path.replace(/^\$\.?/, '');
  if (!/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*|\[\d+\])*$/.test(trimmed))
    return undefined;
  return trimmed;
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
  // An empty condition or description (what an export leaves for the author to write) says nothing.
  targets = targets.map((t) => (t.description === '' ? { value: t.value } : t));
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

/**
 * A URL placeholder naming no parameter would not load. The platform fills it from the model's
 * arguments, so it becomes a required string parameter the model fills, with a warning.
 */
function orphanPlaceholders(w: ToolWarnings, d: DraftTool, url: string, field: FieldPath): void {
  const path = url.split('?')[0]!;
  for (const m of path.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)) {
    const name = m[1]!;
    if (
      Object.hasOwn(d.properties, name) ||
      d.staticNames.has(name) ||
      Object.hasOwn(d.defaults, name)
    )
      continue;
    d.properties[name] = { type: 'string', description: `Fills {${name}} in the URL` };
    d.required.push(name);
    w.warn(
      field,
      `placeholder {${name}} names no parameter; added as a required string parameter the model fills`,
    );
  }
}
