/**
 * Turns one shape-checked raw definition into the resolved, fully-defaulted {@link ToolDefinition}:
 * spellings merged, defaults filled, rules and JSON Schema compiled, meaning linted.
 */
import type { DefinitionIssue } from '../errors.js';
import { didYouMean } from '../did-you-mean.js';
import { checkSaveExpression } from '../expressions/jmespath-check.js';
import { resolveVoiceOptions } from './voice-options.js';
import { compileDefaults } from '../transform/compile-defaults.js';
import { checkMustache } from '../expressions/mustache.js';
import { compileContext } from './workflow/compile-task.js';
import { checkEndpointUrl } from './endpoint-url.js';
import { joinPath } from './json-path.js';
import { lintDefinition } from './lint.js';
import { DEFINITION_FIELDS } from './unknown-fields.js';
import { checkParameters } from './parameters-check.js';
import type { RawDefinition } from './schema.js';
import type {
  ArgumentLocation,
  CommandSpec,
  EndpointConfig,
  FunctionTool,
  JsonSchema,
  StaticParameter,
  ToolDefinition,
  ToolOptions,
  ToolType,
} from './types.js';
import type { ValidatorFactory } from './validator.js';

/** Where a definition sits and what compiles its schema. */
export interface ResolveContext {
  readonly path: string;
  readonly index: number;
  readonly file: string | undefined;
  readonly validators: ValidatorFactory;
}

/** The resolved definition (absent when it has errors) and every issue found. */
export interface ResolveResult {
  readonly definition?: ToolDefinition;
  readonly issues: DefinitionIssue[];
}

const FORBIDDEN_NAMES: ReadonlySet<string> = new Set(['__proto__', 'prototype', 'constructor']);
const DEFAULT_TIMEOUT_SECS = 20;

/** Resolves one definition. Never throws for a bad definition; returns issues instead. */
export function resolveDefinition(raw: RawDefinition, ctx: ResolveContext): ResolveResult {
  const issues: DefinitionIssue[] = [];
  const file = ctx.file;
  const at = (
    path: string,
    code: string,
    message: string,
    severity: 'error' | 'warning' = 'error',
  ): void => {
    issues.push({ code, severity, path, message, ...(file !== undefined ? { file } : {}) });
  };
  const path = (...segments: string[]): string => segments.reduce(joinPath, ctx.path);

  for (const key of Object.keys(raw)) {
    if (!KNOWN.has(key))
      at(
        path(key),
        'unknown_field',
        `is not a field of a tool definition${didYouMean(key, KNOWN)}; ignored`,
        'warning',
      );
  }
  const both = (
    a: string,
    b: string,
    where: Record<string, unknown> | undefined,
    base: string[],
  ): void => {
    if (where && Object.hasOwn(where, a) && Object.hasOwn(where, b)) {
      at(path(...base, b), 'both_spellings', `both "${a}" and "${b}" are given; use one`);
    }
  };
  both('static_parameters', 'staticParameters', raw, []);
  both('argument_location', 'argumentLocation', raw.endpoint, ['endpoint']);
  both('propagate_tool_result', 'propagateToolResult', raw.options, ['options']);
  both('retry_count', 'retryCount', raw, []);
  both('flag_case', 'flagCase', raw.command, ['command']);
  both('bridge_phrases', 'bridgePhrases', raw.options, ['options']);

  const type: ToolType =
    raw.type ?? (raw.endpoint ? 'endpoint' : raw.command ? 'command' : 'action');
  const spec = raw.tool.function;
  const name = spec.name;

  // Static parameters.
  const staticParameters: StaticParameter[] = [];
  (raw.static_parameters ?? raw.staticParameters ?? []).forEach((p, i) => {
    const where = path(raw.static_parameters ? 'static_parameters' : 'staticParameters') + `[${i}]`;
    const param: StaticParameter = {
      name: p.name,
      type: p.type ?? 'string',
      required: p.required ?? false,
      ...(p.default !== undefined ? { default: structuredClone(p.default) } : {}),
      ...(p.description !== undefined ? { description: p.description } : {}),
    };
    if (FORBIDDEN_NAMES.has(p.name))
      at(joinPath(where, 'name'), 'forbidden_name', `"${p.name}" cannot be a parameter name`);
    if (staticParameters.some((s) => s.name === p.name)) {
      at(
        joinPath(where, 'name'),
        'duplicate_static',
        `static parameter "${p.name}" is declared twice`,
      );
    }
    if (param.required && param.default === undefined) {
      at(
        where,
        'static_required',
        `required static parameter "${p.name}" has no value (give it a "default")`,
      );
    }
    const typeProblem =
      param.default === undefined ? undefined : checkStaticValue(param.type, param.default);
    if (typeProblem) at(joinPath(where, 'default'), 'static_type', typeProblem);
    const templateProblem =
      typeof param.default === 'string' ? checkMustache(param.default) : undefined;
    if (templateProblem)
      at(
        joinPath(where, 'default'),
        'template_syntax',
        `invalid mustache template: ${templateProblem}`,
      );
    staticParameters.push(param);
  });
  const staticNames = new Set(staticParameters.map((p) => p.name));

  // The function schema the model sees: static parameters removed.
  const parameters = modelSchema(spec.parameters, staticNames);
  const tool: FunctionTool = {
    type: 'function',
    function: {
      name,
      ...(spec.description !== undefined ? { description: spec.description } : {}),
      parameters,
      ...(spec.strict !== undefined ? { strict: spec.strict } : {}),
    },
  };
  if (spec.description !== undefined) {
    const problem = checkMustache(spec.description);
    if (problem)
      at(
        path('tool', 'function', 'description'),
        'template_syntax',
        `invalid mustache template: ${problem}`,
      );
  }
  if (type === 'context' && Object.hasOwn(raw, 'result')) {
    for (const found of mustacheProblems(raw.result, path('result')))
      at(found.path, 'template_syntax', found.message);
  }
  const checked = checkParameters({
    written: spec.parameters ?? {},
    compiled: parameters,
    path: path('tool', 'function', 'parameters'),
    file,
    validators: ctx.validators,
  });
  issues.push(...checked.issues);
  const validator = checked.validator;

  // Endpoint.
  let endpoint: EndpointConfig | undefined;
  let writtenLocation: ArgumentLocation | undefined;
  if (raw.endpoint) {
    const e = raw.endpoint;
    writtenLocation = e.argument_location ?? e.argumentLocation;
    const check = checkEndpointUrl(e.url);
    for (const problem of check.problems) at(path('endpoint', 'url'), 'bad_url', problem);
    endpoint = {
      url: e.url,
      method: e.method,
      argumentLocation: resolveLocation(e.method, writtenLocation),
      timeoutSecs: e.timeout ?? DEFAULT_TIMEOUT_SECS,
      pathParams: check.pathParams,
    };
  }

  const command: CommandSpec | undefined =
    raw.command === undefined
      ? undefined
      : {
          name: raw.command.name,
          subcommand: [...(raw.command.subcommand ?? [])],
          positional: [...(raw.command.positional ?? [])],
          flagCase: raw.command.flag_case ?? raw.command.flagCase ?? 'as_written',
          timeoutSecs: raw.command.timeout ?? DEFAULT_TIMEOUT_SECS,
        };

  // Options.
  const rawOptions = raw.options ?? {};
  (rawOptions.save ?? []).forEach((rule, i) => {
    const problem = checkSaveExpression(rule.from);
    if (problem) at(path('options', 'save') + `[${i}].from`, 'bad_save', problem);
  });
  const options: ToolOptions = {
    propagateToolResult:
      rawOptions.propagate_tool_result ?? rawOptions.propagateToolResult ?? false,
    save: (rawOptions.save ?? []).map((r) => ({ from: r.from, to: r.to })),
    bridgePhrases: structuredClone(rawOptions.bridge_phrases ?? rawOptions.bridgePhrases ?? {}),
    ...(rawOptions.handoff !== undefined ? { handoff: rawOptions.handoff } : {}),
    ...resolveVoiceOptions(rawOptions, {
      type,
      ...(endpoint ? { method: endpoint.method } : {}),
      path: path('options'),
      report: (issue) => issues.push({ ...issue, ...(file !== undefined ? { file } : {}) }),
    }),
  };

  // Defaults.
  const rawDefaults = structuredClone(raw.defaults ?? {});
  const compiled = compileDefaults(rawDefaults, { path: path('defaults') });
  for (const issue of compiled.issues)
    issues.push(file !== undefined && issue.file === undefined ? { ...issue, file } : issue);

  issues.push(
    ...lintDefinition({
      path: ctx.path,
      file,
      type,
      hasEndpoint: endpoint !== undefined,
      hasCommand: command !== undefined,
      positional: command?.positional ?? [],
      ...(endpoint ? { method: endpoint.method } : {}),
      ...(writtenLocation ? { writtenLocation } : {}),
      pathParams: endpoint?.pathParams ?? [],
      schemaParams: new Set(Object.keys(propertiesOf(spec.parameters))),
      requiredParams: requiredOf(spec.parameters),
      staticParams: staticNames,
      rules: compiled.compiled.rules,
    }),
  );

  // context.task: workflows (docs/workflows.md).
  const compiledTasks = compileContext(Object.hasOwn(raw, 'context') ? raw['context'] : undefined, {
    path: path('context'),
    file,
    owner: name,
    validators: ctx.validators,
  });
  issues.push(...compiledTasks.issues);

  if (issues.some((i) => i.severity === 'error') || validator === undefined) return { issues };
  const definition: ToolDefinition = {
    name,
    type,
    tool,
    ...(type === 'endpoint' && endpoint ? { endpoint } : {}),
    ...(type === 'command' && command ? { command } : {}),
    defaults: compiled.compiled,
    rawDefaults,
    staticParameters,
    hasResult: Object.hasOwn(raw, 'result'),
    ...(Object.hasOwn(raw, 'result') ? { result: structuredClone(raw.result) } : {}),
    options,
    ...(raw.service !== undefined ? { service: raw.service } : {}),
    ...callPolicyOf(raw),
    validator,
    tasks: compiledTasks.tasks,
    source: {
      ...(file !== undefined ? { file } : {}),
      index: ctx.index,
      ...(ctx.path !== `tools[${ctx.index}]` ? { path: ctx.path } : {}),
    },
  };
  return { definition, issues };
}

const KNOWN: ReadonlySet<string> = new Set([
  ...DEFINITION_FIELDS,
  'timeout',
  'retryCount',
  'retry_count',
  // Syllable fields this engine accepts and ignores.
  'context',
  'name',
  'id',
]);

/**
 * Where the arguments go. A GET or DELETE carries no body, so `body`/`form` written on one (as
 * Syllable's own SDK examples do) falls back to the query string, with lint's warning.
 */
function resolveLocation(
  method: EndpointConfig['method'],
  written: ArgumentLocation | undefined,
): ArgumentLocation {
  const hasBody = method === 'post' || method === 'put';
  if (written === undefined) return hasBody ? 'body' : 'query';
  if (!hasBody && (written === 'body' || written === 'form')) return 'query';
  return written;
}

/** `timeout`/`retryCount` (Symphony tool config) as the resolved `callPolicy`, when written. */
function callPolicyOf(raw: RawDefinition): Pick<ToolDefinition, 'callPolicy'> {
  const retryCount = raw.retryCount ?? raw.retry_count;
  if (raw.timeout === undefined && retryCount === undefined) return {};
  return {
    callPolicy: {
      ...(raw.timeout === undefined ? {} : { timeoutMs: raw.timeout }),
      retryCount: retryCount ?? 0,
    },
  };
}

function propertiesOf(schema: JsonSchema | undefined): Record<string, unknown> {
  const props = schema?.['properties'];
  return props !== null && typeof props === 'object' && !Array.isArray(props)
    ? (props as Record<string, unknown>)
    : {};
}

/** Top-level `required` names of a parameters schema (strings only; ajv checks the rest). */
function requiredOf(schema: JsonSchema | undefined): readonly string[] {
  const required = schema?.['required'];
  return Array.isArray(required) ? required.filter((r) => typeof r === 'string') : [];
}

/** The schema without static parameters (they are hidden from the model). */
function modelSchema(schema: JsonSchema | undefined, hidden: ReadonlySet<string>): JsonSchema {
  if (schema === undefined) return { type: 'object', properties: {} };
  const copy = structuredClone(schema);
  if (hidden.size === 0) return copy;
  const props = propertiesOf(copy);
  for (const name of hidden) delete props[name];
  const required = copy['required'];
  if (Array.isArray(required)) copy['required'] = required.filter((r) => !hidden.has(String(r)));
  return copy;
}

/** Why `value` does not fit a static parameter of `type` (a `{{` template passes for int and boolean), or undefined. */
export function checkStaticValue(
  type: StaticParameter['type'],
  value: unknown,
): string | undefined {
  const isTemplate = typeof value === 'string' && value.includes('{{');
  switch (type) {
    case 'string':
      return typeof value === 'string'
        ? undefined
        : `expected a string, got ${JSON.stringify(value)}`;
    case 'int':
      return Number.isInteger(value) || isTemplate
        ? undefined
        : `expected an integer, got ${JSON.stringify(value)}`;
    case 'boolean':
      return typeof value === 'boolean' || isTemplate
        ? undefined
        : `expected a boolean, got ${JSON.stringify(value)}`;
    case 'data_source_list':
      return Array.isArray(value) && value.every((v) => typeof v === 'string')
        ? undefined
        : `expected a list of strings, got ${JSON.stringify(value)}`;
    default: {
      const exhaustive: never = type;
      return `unknown type ${String(exhaustive)}`;
    }
  }
}

/** Mustache syntax problems in every string of a context tool's `result` (rendered at call time). */
function mustacheProblems(value: unknown, path: string): { path: string; message: string }[] {
  if (typeof value === 'string') {
    const problem = checkMustache(value);
    return problem ? [{ path, message: `invalid mustache template: ${problem}` }] : [];
  }
  if (Array.isArray(value)) return value.flatMap((v, i) => mustacheProblems(v, `${path}[${i}]`));
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => mustacheProblems(v, joinPath(path, k)));
  }
  return [];
}
