/**
 * The submit tool a task or step offers the model: its JSON Schema built from the declared
 * inputs, its compiled validator, and the checks on the input names themselves.
 */
import type { RawInput } from './schema.js';
import type { GeneratedTool, JsonSchemaObject, WorkflowInput } from './types.js';
import { FORBIDDEN, type At, type CompileTaskOptions } from './compile-options.js';

export function toInput(i: RawInput): WorkflowInput {
  return { name: i.name, required: i.required ?? true };
}

export function checkInputNames(inputs: readonly RawInput[], path: string, at: At): void {
  const seen = new Set<string>();
  inputs.forEach((i, n) => {
    if (FORBIDDEN.has(i.name))
      at(`${path}[${n}].name`, 'forbidden_name', `"${i.name}" cannot be an input name`);
    if (i.name === 'go_to_step')
      at(`${path}[${n}].name`, 'reserved_name', '"go_to_step" is reserved for allowGoToStep');
    if (seen.has(i.name))
      at(`${path}[${n}].name`, 'duplicate_input', `input "${i.name}" is declared twice`);
    seen.add(i.name);
  });
}

/** The submit tool's JSON Schema (parameters from the inputs) and its compiled validator. */
export function generateTool(
  inputs: readonly RawInput[],
  goToStep: boolean,
  stepIds: readonly string[],
  path: string,
  options: CompileTaskOptions,
  at: At,
): GeneratedTool | undefined {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const i of inputs) {
    const schema: JsonSchemaObject = {};
    if (i.type !== undefined && i.type !== null) schema['type'] = i.type;
    for (const k of ['description', 'title', 'format', 'pattern', 'enum', 'examples'] as const) {
      const v = i[k];
      if (v !== undefined && v !== null) schema[k] = structuredClone(v);
    }
    if (i.default !== undefined) schema['default'] = structuredClone(i.default);
    Object.defineProperty(properties, i.name, {
      value: schema,
      enumerable: true,
      writable: true,
      configurable: true,
    });
    if (i.required ?? true) required.push(i.name);
  }
  if (goToStep)
    properties['go_to_step'] = {
      type: 'string',
      enum: [...stepIds],
      description: 'Escape hatch: jump to this step instead of submitting the current one.',
    };
  // Closed: a key the definition did not declare is refused, so a submission can never carry a
  // name a later `save` would write over a session variable.
  const parameters: JsonSchemaObject = {
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
  try {
    const validator = options.validators.compile(parameters);
    checkDefaults(inputs, properties, path, options, at);
    return { parameters, validator };
  } catch (error) {
    at(
      path,
      'bad_schema',
      `the inputs do not make a valid JSON Schema: ${(error as Error).message}`,
    );
    return undefined;
  }
}

/**
 * Each input's `default` must pass its own schema: the validator fills it in unchecked, so a bad
 * one would make every submission without that input fail, blaming the model.
 */
function checkDefaults(
  inputs: readonly RawInput[],
  properties: Readonly<Record<string, unknown>>,
  path: string,
  options: CompileTaskOptions,
  at: At,
): void {
  inputs.forEach((i, n) => {
    if (i.default === undefined || !Object.hasOwn(properties, i.name)) return;
    const { default: _default, ...own } = properties[i.name] as JsonSchemaObject;
    void _default;
    const check = options.validators.compile(own).validate(i.default);
    if (check.ok) return;
    const text = check.failures.map((f) => `${f.path === '' ? '' : `${f.path}: `}${f.message}`);
    at(
      `${path}[${n}].default`,
      'bad_default',
      `does not match input "${i.name}": ${text.slice(0, 3).join('; ')}`,
    );
  });
}
