/**
 * Semantic lint of one resolved definition (docs/definitions.md): the mistakes a schema cannot see.
 * Errors block loading; warnings are reported with the tool set.
 */
import type { DefinitionIssue } from '../errors.js';
import type { CompiledRule } from '../transform/types.js';
import { formatPath, joinPath } from './json-path.js';
import type { ArgumentLocation, HttpMethod, ToolType } from './types.js';

/** What lint needs to know about one definition. */
export interface LintInput {
  readonly path: string;
  readonly file: string | undefined;
  readonly type: ToolType;
  readonly hasEndpoint: boolean;
  readonly hasCommand: boolean;
  /** `command.positional`: parameter names (empty for other types). */
  readonly positional: readonly string[];
  readonly method?: HttpMethod;
  /** The location as written (absent when defaulted). */
  readonly writtenLocation?: ArgumentLocation;
  readonly pathParams: readonly string[];
  /** Parameters the model can send (schema properties). */
  readonly schemaParams: ReadonlySet<string>;
  /** Top-level `required` names of the parameters schema. */
  readonly requiredParams: readonly string[];
  readonly staticParams: ReadonlySet<string>;
  readonly rules: readonly CompiledRule[];
}

/** Returns the lint issues of one definition. */
export function lintDefinition(input: LintInput): DefinitionIssue[] {
  const issues: DefinitionIssue[] = [];
  const at = (path: string, code: string, severity: 'error' | 'warning', message: string): void => {
    issues.push({
      code,
      severity,
      path,
      message,
      ...(input.file !== undefined ? { file: input.file } : {}),
    });
  };

  if (input.type === 'endpoint' && !input.hasEndpoint) {
    at(
      joinPath(input.path, 'type'),
      'missing_endpoint',
      'error',
      'type "endpoint" needs an "endpoint" object',
    );
  }
  if (input.type !== 'endpoint' && input.hasEndpoint) {
    at(
      joinPath(input.path, 'endpoint'),
      'unused_endpoint',
      'warning',
      `is ignored by a tool of type "${input.type}"`,
    );
  }
  if (input.type === 'command' && !input.hasCommand) {
    at(
      joinPath(input.path, 'type'),
      'missing_command',
      'error',
      'type "command" needs a "command" object naming a command the host registers',
    );
  }
  if (input.type !== 'command' && input.hasCommand) {
    at(
      joinPath(input.path, 'command'),
      'unused_command',
      'warning',
      `is ignored by a tool of type "${input.type}"`,
    );
  }
  input.positional.forEach((name, i) => {
    const where = `${formatPath(input.path, ['command', 'positional'])}[${i}]`;
    if (input.positional.indexOf(name) !== i)
      at(where, 'duplicate_positional', 'error', `"${name}" is listed twice`);
    else if (!input.schemaParams.has(name) && !input.staticParams.has(name))
      at(where, 'unknown_positional', 'warning', `"${name}" is not a parameter of the tool`);
  });
  if (
    (input.method === 'get' || input.method === 'delete') &&
    (input.writtenLocation === 'body' || input.writtenLocation === 'form')
  ) {
    at(
      joinPath(joinPath(input.path, 'endpoint'), 'argument_location'),
      'body_without_method',
      'warning',
      `a ${input.method.toUpperCase()} request has no body; the arguments are sent in the query string (write "query" or "path")`,
    );
  }

  // ajv's strictRequired is off (it also flags legitimate `required` inside anyOf branches), so
  // the top level is checked here: a required name the model is never told about fails every call
  // until the model guesses it, and strict OpenAI function calling refuses such a schema.
  for (const name of input.requiredParams) {
    if (!input.schemaParams.has(name) && !input.staticParams.has(name)) {
      at(
        formatPath(input.path, ['tool', 'function', 'parameters', 'required']),
        'unknown_required',
        'warning',
        `"${name}" is required but not declared in properties`,
      );
    }
  }

  // Names a value can come from: what the model sends, static parameters, and keys the rules create.
  const known = new Set<string>([...input.schemaParams, ...input.staticParams]);
  const created = new Set<string>();
  for (const rule of input.rules) created.add(rootOf(rule.key));
  const everywhere = new Set([...known, ...created]);

  for (const name of input.pathParams) {
    if (!everywhere.has(name)) {
      at(
        joinPath(joinPath(input.path, 'endpoint'), 'url'),
        'unknown_path_param',
        'error',
        `placeholder {${name}} names no parameter (not in the schema, static parameters or defaults)`,
      );
    }
  }

  for (const rule of input.rules) {
    const rulePath = `${joinPath(input.path, 'defaults')}[${JSON.stringify(rule.key)}]`;
    for (const field of rule.templateFields) {
      const name = parameterOf(field);
      if (name !== undefined && !everywhere.has(name)) {
        at(
          rulePath,
          'unknown_template_field',
          'warning',
          `format names {${field}}, but no parameter "${name}" exists`,
        );
      }
    }
    for (const key of rule.whenKeys) {
      const name = parameterOf(key);
      if (name !== undefined && !everywhere.has(name)) {
        at(rulePath, 'unknown_when_key', 'warning', `when.key "${key}" names no parameter`);
      }
    }
  }
  return issues;
}

/** The top-level parameter a template field or when key refers to; undefined for `vars.*`. */
function parameterOf(field: string): string | undefined {
  const root = rootOf(field);
  if (root === 'vars') return undefined;
  if (root === 'params') {
    const rest = field.slice('params'.length);
    if (rest === '') return undefined;
    return rootOf(rest.replace(/^\./, ''));
  }
  return root;
}

function rootOf(path: string): string {
  const match = /^[^.[]*/.exec(path);
  return match ? match[0] : path;
}
