/**
 * Lenient reading of what Syllable itself accepts (docs/definitions.md, "Lenient loading"): runs
 * on one raw definition before the zod shape check and returns a normalised copy plus a warning
 * naming each rewrite. A definition that Syllable's API, SDKs or docs accept never fails to load
 * for one of these reasons. The caller's value is never modified.
 */
import type { DefinitionIssue } from '../errors.js';
import { getOwn, isPlainObject } from '../own-data.js';
import { joinPath } from './json-path.js';

/** The normalised definition (same value when nothing changed) and one warning per rewrite. */
export interface NormaliseResult {
  readonly value: unknown;
  /** JSON path of the definition proper (`tools[i].definition` for an API tool object). */
  readonly path: string;
  readonly issues: DefinitionIssue[];
}

type Plain = Record<string, unknown>;

/** Fields Syllable's `ToolDefinition` declares `OptionalNullable`: `null` there means "not set". */
const NULLABLE_TOP: readonly string[] = [
  'type',
  'endpoint',
  'context',
  'defaults',
  'static_parameters',
  'staticParameters',
  'result',
  'options',
  'service',
];

/**
 * Keywords that mark an object as a JSON Schema rather than a bare map of properties. A bare map
 * may have a property *named* `type` or `description`, so those count only with a schema value.
 */
const SCHEMA_KEYWORDS: readonly string[] = [
  'properties',
  'required',
  'additionalProperties',
  'patternProperties',
  '$ref',
  '$schema',
  '$defs',
  'definitions',
  'anyOf',
  'oneOf',
  'allOf',
  'not',
  'enum',
  'const',
  'items',
];

/**
 * Normalises one raw definition at `path` (`tools[i]`).
 *
 * - a Syllable API tool object (`{ name, definition, service_id, … }`) → its `definition`, with
 *   its `service_name` as `service` when the definition names none;
 * - `null` in a nullable Syllable field → the field is absent (silently: it is valid Syllable);
 * - `tool` without `"type": "function"` → `"function"`;
 * - `parameters` as a bare property map, `{}`, a schema without `"type"`, or not an object.
 */
export function normaliseDefinition(
  raw: unknown,
  path: string,
  file: string | undefined,
): NormaliseResult {
  const issues: DefinitionIssue[] = [];
  const warn = (at: string, code: string, message: string): void => {
    issues.push({
      code,
      severity: 'warning',
      path: at,
      message,
      ...(file !== undefined ? { file } : {}),
    });
  };
  if (!isPlainObject(raw)) return { value: raw, path, issues };

  let def: Plain = raw;
  let serviceOfObject: string | undefined;
  const wrapped = getOwn(raw, 'definition');
  if (!Object.hasOwn(raw, 'tool') && isPlainObject(wrapped)) {
    serviceOfObject = apiServiceName(raw, wrapped);
    const notice = apiObjectNotice(raw, wrapped);
    if (notice !== undefined) {
      const read =
        serviceOfObject !== undefined ? `, with "service": ${JSON.stringify(serviceOfObject)}` : '';
      warn(
        path,
        'api_object',
        `is a Syllable API tool object; its "definition" is loaded${read}${notice}`,
      );
    }
    def = wrapped;
    path = joinPath(path, 'definition');
  }

  const out: Plain = { ...def };
  // The tool's Syllable service is where its auth lives, as `service` is here (handlers.md).
  if (serviceOfObject !== undefined) out['service'] = serviceOfObject;
  for (const key of NULLABLE_TOP) {
    if (Object.hasOwn(out, key) && out[key] === null) delete out[key];
  }
  const endpoint = getOwn(out, 'endpoint');
  if (isPlainObject(endpoint)) out['endpoint'] = withoutNulls(endpoint, ['timeout']);
  const options = getOwn(out, 'options');
  if (isPlainObject(options))
    out['options'] = withoutNulls(options, ['propagate_tool_result', 'propagateToolResult']);
  for (const key of ['static_parameters', 'staticParameters']) {
    const list = getOwn(out, key);
    if (Array.isArray(list))
      out[key] = list.map((p: unknown) =>
        isPlainObject(p) ? withoutNulls(p, ['description', 'default']) : p,
      );
  }

  const defaults = getOwn(out, 'defaults');
  if (Object.hasOwn(out, 'defaults') && !isPlainObject(defaults)) {
    warn(
      joinPath(path, 'defaults'),
      'defaults_ignored',
      `is ${JSON.stringify(defaults)}, not an object of rules; no defaults apply`,
    );
    delete out['defaults'];
  }

  const context = getOwn(out, 'context');
  if (isPlainObject(context))
    out['context'] = normaliseContext(context, joinPath(path, 'context'), warn);

  const tool = getOwn(out, 'tool');
  if (isPlainObject(tool)) out['tool'] = normaliseTool(tool, joinPath(path, 'tool'), warn);
  return { value: out, path, issues };
}

function normaliseTool(
  tool: Plain,
  path: string,
  warn: (at: string, code: string, message: string) => void,
): Plain {
  const out: Plain = { ...tool };
  if (!Object.hasOwn(out, 'type')) {
    warn(path, 'tool_type_missing', 'has no "type"; "function" assumed');
  }
  const fn = getOwn(out, 'function');
  if (!isPlainObject(fn)) return out;
  const f: Plain = { ...withoutNulls(fn, ['description', 'parameters']) };
  out['function'] = f;
  if (!Object.hasOwn(f, 'parameters')) return out;
  const at = joinPath(joinPath(path, 'function'), 'parameters');
  const params = f['parameters'];
  if (!isPlainObject(params)) {
    warn(
      at,
      'parameters_ignored',
      `is ${JSON.stringify(params)}, not a JSON Schema object; the tool takes no parameters`,
    );
    f['parameters'] = { type: 'object', properties: {} };
    return out;
  }
  const keys = Object.keys(params);
  if (keys.length === 0) {
    warn(at, 'parameters_empty', 'is {}; read as { "type": "object", "properties": {} }');
    f['parameters'] = { type: 'object', properties: {} };
    return out;
  }
  if (isSchema(params)) {
    if (!Object.hasOwn(params, 'type') && Object.hasOwn(params, 'properties')) {
      warn(at, 'parameters_type_missing', 'has "properties" but no "type"; "object" assumed');
      f['parameters'] = { type: 'object', ...params };
    }
    return out;
  }
  if (keys.every((k) => isPlainObject(params[k]))) {
    warn(
      at,
      'parameters_property_map',
      `is a bare map of properties (${keys.map((k) => `"${k}"`).join(', ')}); read as { "type": "object", "properties": { … } }`,
    );
    f['parameters'] = { type: 'object', properties: { ...params } };
  }
  return out;
}

/**
 * `context.task` entries Syllable's schema accepts but that cannot run here are dropped with a
 * warning, before the workflow compiler (docs/workflows.md) sees them: an `import` task (Syllable
 * loads a local file, "for internal developer use only") and a `steps` task with no steps (its
 * `steps` list is optional in Syllable's schema; such a task does nothing).
 */
function normaliseContext(
  context: Plain,
  path: string,
  warn: (at: string, code: string, message: string) => void,
): Plain {
  const task = getOwn(context, 'task');
  const at = joinPath(path, 'task');
  if (Array.isArray(task)) {
    const kept = task.filter((t: unknown, i) => !ignoredTask(t, `${at}[${i}]`, warn));
    return kept.length === task.length ? context : { ...context, task: kept };
  }
  if (task === null || ignoredTask(task, at, warn)) {
    const out: Plain = { ...context };
    delete out['task'];
    return out;
  }
  return context;
}

function ignoredTask(
  task: unknown,
  at: string,
  warn: (at: string, code: string, message: string) => void,
): boolean {
  if (!isPlainObject(task)) return false;
  const type = getOwn(task, 'type') ?? 'steps';
  if (type === 'import') {
    warn(
      at,
      'task_not_supported',
      'an "import" task loads a local tool file (Syllable: for internal developer use only); ignored — inline the tool instead',
    );
    return true;
  }
  const steps = getOwn(task, 'steps');
  if (
    type === 'steps' &&
    (steps === undefined || steps === null || (Array.isArray(steps) && steps.length === 0))
  ) {
    warn(at, 'task_empty', 'a "steps" task without steps does nothing; ignored');
    return true;
  }
  return false;
}

/** The API object's service name fields: the REST spelling and the TypeScript SDK's. */
const SERVICE_NAME_KEYS: readonly string[] = ['service_name', 'serviceName'];

/**
 * The fields Syllable's API puts around a definition (`ToolResponse`, `ToolCreateRequest`,
 * `ToolUpdateRequest`, snake_case on the wire and camelCase in the TypeScript SDK): bookkeeping
 * that says nothing about what a call does, so an API object carrying only these loads without a
 * warning (and passes `strict`). `service_name` is read (`apiServiceName`).
 */
const API_OBJECT_KEYS: ReadonlySet<string> = new Set([
  'definition',
  'name',
  'id',
  'service_id',
  'serviceId',
  ...SERVICE_NAME_KEYS,
  'last_updated',
  'lastUpdated',
  'last_updated_by',
  'lastUpdatedBy',
  'last_updated_comments',
  'lastUpdatedComments',
  'version_number',
  'versionNumber',
  'prompts_info',
  'promptsInfo',
  'agents_info',
  'agentsInfo',
  'validation_issues',
  'validationIssues',
]);

/**
 * What an API tool object's warning must say, or nothing when the object is what Syllable's API
 * returns: fields Syllable does not define (a typo, or another tool's fields) are named as
 * ignored, a `service_name` other than the definition's own `service` is named (the definition's
 * wins), and issues Syllable's own validation recorded on the tool are counted, since the tool
 * may not behave as written there either.
 */
function apiObjectNotice(raw: Plain, definition: Plain): string | undefined {
  const unknown = Object.keys(raw).filter((k) => !API_OBJECT_KEYS.has(k));
  const own = getOwn(definition, 'service');
  const named = SERVICE_NAME_KEYS.map((k) => getOwn(raw, k)).find((n) => typeof n === 'string');
  const recorded = getOwn(raw, 'validation_issues') ?? getOwn(raw, 'validationIssues');
  const parts: string[] = [];
  if (unknown.length > 0) {
    parts.push(`${unknown.map((k) => JSON.stringify(k)).join(', ')} ignored`);
  }
  if (typeof own === 'string' && typeof named === 'string' && named !== '' && named !== own) {
    parts.push(`its service_name ${JSON.stringify(named)} ignored: the definition names "service"`);
  }
  if (Array.isArray(recorded) && recorded.length > 0) {
    parts.push(`Syllable recorded ${recorded.length} validation issue(s) on it`);
  }
  return parts.length > 0 ? ` (${parts.join('; ')})` : undefined;
}

/**
 * The service an API tool object belongs to (`service_name`, or the SDK's `serviceName`), when
 * its definition names none itself: a definition's own non-null `service` wins. Syllable keeps a
 * tool's auth on its service, so dropping the name would send the tool's calls without it.
 */
function apiServiceName(raw: Plain, definition: Plain): string | undefined {
  const own = getOwn(definition, 'service');
  if (own !== undefined && own !== null) return undefined;
  for (const key of SERVICE_NAME_KEYS) {
    const name = getOwn(raw, key);
    if (typeof name === 'string' && name.length > 0) return name;
  }
  return undefined;
}

/** True when `value` reads as a JSON Schema (a `type` naming JSON types, or a schema keyword). */
function isSchema(value: Plain): boolean {
  const type = getOwn(value, 'type');
  if (typeof type === 'string') return true;
  if (Array.isArray(type) && type.every((t) => typeof t === 'string')) return true;
  return SCHEMA_KEYWORDS.some((k) => Object.hasOwn(value, k));
}

/** A copy of `value` without the listed keys whose value is `null`. */
function withoutNulls(value: Plain, keys: readonly string[]): Plain {
  if (!keys.some((k) => Object.hasOwn(value, k) && value[k] === null)) return value;
  const out: Plain = { ...value };
  for (const k of keys) if (Object.hasOwn(out, k) && out[k] === null) delete out[k];
  return out;
}
