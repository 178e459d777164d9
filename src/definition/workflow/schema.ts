/**
 * The zod schema of `context.task` (Syllable's v1alpha tasks: `steps`, `expression`, `event`,
 * `import`), as the SDK's component models describe them (docs/workflows.md §9, field by field):
 * StepsTask, Step, StepTools, StepEventActions, NextStep, the `*Action` types, Variable,
 * InputParameter, ConditionalText, CelExpression, JMESPathExpression, CaseExpression,
 * ExpressionTask, EventTask. Shapes only; meaning (step ids, reachability, expressions that
 * compile) and the warnings for fields not honoured are in compile-task.ts.
 *
 * Both spellings the SDK history shows are accepted: `valueFrom`/`value_from`,
 * `allowGoToStep`/`allow_go_to_step`. `null` is accepted wherever the SDK allows it and means
 * "absent".
 */
import type { z as Z } from 'zod';
import { once, zod } from '../../lazy-deps.js';

/**
 * Builds the task schemas with the `z` given; {@link taskSchemas} holds the one built on first use
 * (so importing the package loads no zod).
 */
function buildSchemas(z: typeof Z) {
  const str = (what = 'a string') => z.string({ error: `expected ${what}` });
  const nullish = <T extends Z.ZodType>(schema: T) => schema.nullable().optional();

  /** `{"type":"cel","expression":…}` */
  const celExpression = z.strictObject({
    type: z.literal('cel', { error: 'expected "cel"' }),
    expression: str('a CEL expression'),
  });

  /** `{"type":"jp"|"jmespath","expression":…}`; `type` defaults to `jp`. */
  const jmesPathExpression = z.strictObject({
    type: z.enum(['jp', 'jmespath'], { error: 'expected "jp", "jmespath" or "cel"' }).optional(),
    expression: str('a JMESPath expression'),
  });

  /** `{"case": [...]}`: reserved by Syllable ("future runtime support"); run with a warning. */
  const caseExpression = z.strictObject({ case: z.array(z.unknown()) });

  /** An expression as written: a JMESPath string, a typed object, or a (reserved) case expression. */
  const expressionSchema = z.union([str(), celExpression, jmesPathExpression, caseExpression], {
    error: 'expected a JMESPath string or {"type": "jp"|"jmespath"|"cel", "expression": "…"}',
  });

  const jsonValue = z.unknown();
  const ifField = nullish(expressionSchema);

  const setAction = z.strictObject({
    action: z.literal('set'),
    name: str('a variable name'),
    value: jsonValue.optional(),
    valueFrom: nullish(expressionSchema),
    value_from: nullish(expressionSchema),
    if: ifField,
  });
  const getAction = z.strictObject({
    action: z.enum(['get', 'load']),
    inputs: nullish(z.array(str('an input name'))),
    overwrite: z.boolean({ error: 'expected a boolean' }).optional(),
    value: jsonValue.optional(),
    valueFrom: nullish(expressionSchema),
    value_from: nullish(expressionSchema),
    if: ifField,
  });
  const incAction = z.strictObject({
    action: z.literal('inc'),
    name: str('a variable name'),
    by: z.number({ error: 'expected an integer' }).int({ error: 'expected an integer' }).optional(),
    if: ifField,
  });
  const saveAction = z.strictObject({
    action: z.literal('save'),
    name: nullish(str('a variable name')),
    inputs: nullish(z.array(str('an input name'))),
    if: ifField,
  });
  const callResultSave = z.strictObject({ from: expressionSchema, to: str('a variable name') });
  const callAction = z.strictObject({
    action: z.literal('call'),
    name: str('a tool name'),
    arguments: nullish(z.record(z.string(), jsonValue, { error: 'expected an object' })),
    result: nullish(z.strictObject({ save: z.array(callResultSave).optional() })),
    // SDK Nov 2025 – Apr 2026: true (synthetic or model), false (always the model), "required".
    autoPopulate: nullish(
      z.union([z.boolean(), z.string()], { error: 'expected true, false or "required"' }),
    ),
    if: ifField,
  });
  const sayAction = z.strictObject({
    action: z.literal('say'),
    text: str('the text to say'),
    role: z.enum(['user', 'assistant'], { error: 'expected "user" or "assistant"' }).optional(),
    if: ifField,
  });

  /** Builds a discriminated union of the allowed actions of one hook, with a clear error. */
  function actions<
    const T extends readonly [Z.core.$ZodTypeDiscriminable, ...Z.core.$ZodTypeDiscriminable[]],
  >(hook: string, allowed: string, options: T) {
    return nullish(
      z.array(
        z.discriminatedUnion('action', options, {
          error: (issue) => {
            const input = issue.input as { action?: unknown } | undefined;
            const name =
              input !== null && typeof input === 'object' && typeof input.action === 'string'
                ? `"${input.action}"`
                : 'an object without "action"';
            return `on.${hook} allows the actions ${allowed}; got ${name} (or a misspelt field)`;
          },
        }),
        { error: 'expected a list of actions' },
      ),
    );
  }

  const startActions = actions('start', 'set, inc, call, say', [
    setAction,
    incAction,
    callAction,
    sayAction,
  ]);

  const stepEventActions = z.strictObject({
    start: startActions,
    enter: actions('enter', 'get, set, inc, call, say', [
      getAction,
      setAction,
      incAction,
      callAction,
      sayAction,
    ]),
    presubmit: actions('presubmit', 'get, set, inc, save', [
      getAction,
      setAction,
      incAction,
      saveAction,
    ]),
    submit: actions('submit', 'set, inc, save, call, say', [
      setAction,
      incAction,
      saveAction,
      callAction,
      sayAction,
    ]),
  });

  const JSON_TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'] as const;

  const parameterFields = {
    name: str('a parameter name').regex(/^[A-Za-z0-9_-]{1,64}$/, {
      error: 'must be 1-64 characters of letters, digits, "_" or "-"',
    }),
    type: nullish(z.enum(JSON_TYPES, { error: `expected one of ${JSON_TYPES.join('|')}` })),
    description: nullish(str()),
    title: nullish(str()),
    format: nullish(str()),
    pattern: nullish(str()),
    enum: nullish(z.array(str())),
    examples: nullish(z.array(jsonValue)),
  };

  /**
   * InputParameter: one field of the generated submit tool. `required` defaults to true.
   * `default` is switchboard's (the SDK's InputParameter has none): the JSON Schema `default`,
   * filled in when the model leaves the input out, as a tool parameter's is.
   */
  const inputParameter = z.strictObject({
    ...parameterFields,
    required: z.boolean({ error: 'expected a boolean' }).optional(),
    default: jsonValue.optional(),
  });

  /** Variable: a task variable with an initial value. */
  const variable = z.strictObject({
    ...parameterFields,
    name: str('a variable name').min(1, { error: 'must not be empty' }),
    value: jsonValue.optional(),
    valueFrom: nullish(expressionSchema),
    value_from: nullish(expressionSchema),
  });

  const conditionalText = z.strictObject({ if: ifField, text: str() });

  const nextStep = z.union(
    [
      str('a step id'),
      z.strictObject({
        id: str('a step id'),
        if: ifField,
        requires: nullish(z.array(str('an input name'))),
      }),
    ],
    { error: 'expected a step id or {"id": …, "if"?: …, "requires"?: […]}' },
  );

  const stepTools = z.strictObject({
    call: nullish(z.boolean({ error: 'expected a boolean' })),
    allow: nullish(z.array(str('a tool name'))),
    allowGoToStep: nullish(z.boolean({ error: 'expected a boolean' })),
    allow_go_to_step: nullish(z.boolean({ error: 'expected a boolean' })),
  });

  /** Step. `instructions` is a list (the current reference); a lone string is accepted too. */
  const step = z.strictObject({
    id: str('a step id').min(1, { error: 'must not be empty' }),
    goal: str('the step goal'),
    instructions: z.union([str(), z.array(z.union([str(), conditionalText]))]).optional(),
    tools: stepTools.optional(),
    inputs: z.array(inputParameter, { error: 'expected a list of inputs' }).optional(),
    on: stepEventActions.optional(),
    next: z.array(nextStep, { error: 'expected a list of next steps' }).optional(),
  });

  const toolInfo = z.strictObject({
    name: nullish(
      str('a tool name').regex(/^[A-Za-z0-9_-]{1,64}$/, {
        error: 'must be 1-64 characters of letters, digits, "_" or "-"',
      }),
    ),
    description: nullish(str()),
  });

  const taskBase = {
    id: nullish(str('a task id')),
    version: z.literal('v1alpha', { error: 'expected "v1alpha"' }).optional(),
    config: nullish(z.record(z.string(), jsonValue)),
    variables: nullish(z.array(variable, { error: 'expected a list of variables' })),
    metadata: nullish(
      z.looseObject({ priority: nullish(z.number().int()), parent_tool_name: nullish(str()) }),
    ),
    tool: nullish(toolInfo),
  };

  const stepsTaskSchema = z.strictObject({
    ...taskBase,
    type: z.literal('steps'),
    start: z.enum(['auto', 'manual'], { error: 'expected "auto" or "manual"' }).optional(),
    steps: z.array(step, { error: 'expected a list of steps' }).min(1, {
      error: 'a steps task needs at least one step',
    }),
  });

  const expressionTaskSchema = z.strictObject({
    ...taskBase,
    type: z.literal('expression'),
    inputs: z.array(inputParameter, { error: 'expected a list of inputs' }).optional(),
    expression: nullish(expressionSchema),
    output: jsonValue.optional(),
    on: z
      .strictObject({
        start: startActions,
        submit: actions('submit', 'set, inc, save, call, say', [
          setAction,
          incAction,
          saveAction,
          callAction,
          sayAction,
        ]),
      })
      .optional(),
  });

  const eventTaskSchema = z.strictObject({
    ...taskBase,
    type: z.literal('event'),
    on: z.strictObject({ start: startActions }).optional(),
  });

  const importTaskSchema = z.strictObject({
    ...taskBase,
    type: z.literal('import'),
    file: z.union([str(), z.array(str())]),
  });

  /** One task; `type` picks the schema (the SDK's discriminator). */
  const taskSchema = z.discriminatedUnion(
    'type',
    [stepsTaskSchema, expressionTaskSchema, eventTaskSchema, importTaskSchema],
    { error: 'expected a task with "type": "steps" | "expression" | "event" | "import"' },
  );

  return {
    taskSchema,
    expressionSchema,
    stepsTaskSchema,
    expressionTaskSchema,
    eventTaskSchema,
    step,
    inputParameter,
    variable,
    setAction,
    getAction,
    incAction,
    saveAction,
    callAction,
    sayAction,
  };
}

/** The task schemas, built on first use. */
export const taskSchemas = once(() => buildSchemas(zod()));

type Schemas = ReturnType<typeof buildSchemas>;
export type RawExpression = Z.output<Schemas['expressionSchema']>;
export type RawTask = Z.output<Schemas['taskSchema']>;
export type RawStepsTask = Z.output<Schemas['stepsTaskSchema']>;
export type RawExpressionTask = Z.output<Schemas['expressionTaskSchema']>;
export type RawEventTask = Z.output<Schemas['eventTaskSchema']>;
export type RawStep = Z.output<Schemas['step']>;
export type RawAction =
  | Z.output<Schemas['setAction']>
  | Z.output<Schemas['getAction']>
  | Z.output<Schemas['incAction']>
  | Z.output<Schemas['saveAction']>
  | Z.output<Schemas['callAction']>
  | Z.output<Schemas['sayAction']>;
export type RawInput = Z.output<Schemas['inputParameter']>;
export type RawVariable = Z.output<Schemas['variable']>;
