/**
 * The zod schema of one raw tool definition (docs/definitions.md), accepting snake_case and camelCase
 * spellings. It checks shapes only; meaning (templates, placeholders, duplicates…) is checked by
 * lint.ts, and the resolved internal type is built by resolve.ts.
 */
import type { z as Z } from 'zod';
import { once, zod } from '../lazy-deps.js';
import { closestName } from '../did-you-mean.js';
import { voiceSchemas } from './voice-options.js';

const METHODS = ['get', 'post', 'put', 'delete'] as const;
const LOCATIONS = ['body', 'form', 'path', 'query'] as const;
const TYPES = ['action', 'endpoint', 'context', 'log', 'command'] as const;
const FLAG_CASES = ['as_written', 'snake_case', 'kebab-case'] as const;
const COMMAND_KEYS = ['name', 'subcommand', 'positional', 'flag_case', 'timeout'] as const;

function didYouMeanKey(key: string | undefined): string {
  const near = key === undefined ? undefined : closestName({ name: key, candidates: COMMAND_KEYS });
  return near === undefined ? '' : ` (did you mean "${near}"?)`;
}
const STATIC_TYPES = ['string', 'int', 'boolean', 'data_source_list'] as const;

/**
 * Builds the schemas with the `z` given; {@link definitionSchemas} holds the one built on the first
 * load (so importing the package loads no zod).
 */
function buildSchemas(z: typeof Z) {
  const voice = voiceSchemas(z);

  function oneOf<const T extends readonly string[]>(values: T, normalise = false) {
    const allowed = values.join('|');
    return z.unknown().transform((input, ctx) => {
      const value = normalise && typeof input === 'string' ? input.toLowerCase() : input;
      if (typeof value === 'string' && (values as readonly string[]).includes(value)) {
        return value as T[number];
      }
      const near =
        typeof input === 'string' ? closestName({ name: input, candidates: values }) : undefined;
      ctx.addIssue({
        code: 'custom',
        message:
          input === undefined
            ? `is required: one of ${allowed}`
            : `expected one of ${allowed}, got ${JSON.stringify(input)}${near !== undefined ? ` (did you mean "${near}"?)` : ''}`,
      });
      return z.NEVER;
    });
  }

  /** A tool or parameter name: what OpenAI accepts for function names. */
  const functionName = z.string({ error: 'expected a string' }).regex(/^[A-Za-z0-9_-]{1,64}$/, {
    error: 'must be 1-64 characters of letters, digits, "_" or "-"',
  });

  const jsonSchemaObject = z.record(z.string(), z.unknown(), {
    error: 'expected a JSON Schema object',
  });

  /** `tool`: the OpenAI function spec. */
  const functionToolSchema = z.object({
    type: z.literal('function', { error: 'expected "function"' }).optional(),
    function: z.object(
      {
        name: functionName,
        description: z.string({ error: 'expected a string' }).optional(),
        parameters: jsonSchemaObject.optional(),
        strict: z.boolean({ error: 'expected a boolean' }).optional(),
      },
      { error: 'expected an object with name, description and parameters' },
    ),
  });

  /** `endpoint`. */
  const endpointSchema = z.object({
    // What makes a URL usable (empty included) is endpoint-url.ts's alone: one mistake, one error.
    url: z.string({ error: 'expected a URL string' }),
    method: oneOf(METHODS, true),
    argument_location: oneOf(LOCATIONS).optional(),
    argumentLocation: oneOf(LOCATIONS).optional(),
    timeout: z
      .number({ error: 'expected a number of seconds' })
      .min(1, { error: 'must be at least 1 second' })
      .max(120, { error: 'must be at most 120 seconds' })
      .optional(),
  });

  /** An argv word written by the author: any text but a NUL, which no argv can carry. */
  const argvWord = z
    .string({ error: 'expected a string' })
    .min(1, { error: 'must not be empty' })
    .refine((w) => !w.includes('\u0000'), { error: 'must not contain a NUL character' });

  /** `command` (docs/handlers.md, "Command"). */
  const commandSchema = z.strictObject(
    {
      name: z
        .string({ error: 'expected the name of a command the host registers' })
        .regex(/^[A-Za-z0-9_-]{1,64}$/, {
          error:
            'must be 1-64 characters of letters, digits, "_" or "-" (a registered name, not a path)',
        }),
      subcommand: z.array(argvWord, { error: 'expected a list of words' }).optional(),
      positional: z.array(functionName, { error: 'expected a list of parameter names' }).optional(),
      flag_case: oneOf(FLAG_CASES).optional(),
      flagCase: oneOf(FLAG_CASES).optional(),
      timeout: z
        .number({ error: 'expected a number of seconds' })
        .min(1, { error: 'must be at least 1 second' })
        .max(120, { error: 'must be at most 120 seconds' })
        .optional(),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `${issue.keys.map((k) => JSON.stringify(k)).join(', ')} ${issue.keys.length > 1 ? 'are not settings' : 'is not a setting'} of a command${didYouMeanKey(issue.keys[0])}; settings: ${COMMAND_KEYS.join(', ')}`
          : 'expected { name, subcommand?, positional?, flag_case?, timeout? }',
    },
  );

  /** One static parameter. */
  const staticParameterSchema = z.object({
    name: z.string({ error: 'expected a string' }).min(1, { error: 'must not be empty' }),
    type: oneOf(STATIC_TYPES).optional(),
    required: z.boolean({ error: 'expected a boolean' }).optional(),
    default: z.unknown().optional(),
    description: z.string({ error: 'expected a string' }).optional(),
  });

  const saveRuleSchema = z.object({
    from: z.string({ error: 'expected a JMESPath string' }).min(1, { error: 'must not be empty' }),
    to: z.string({ error: 'expected a variable name' }).min(1, { error: 'must not be empty' }),
  });

  const bridgePhrasesSchema = z.record(
    z.string(),
    z.array(z.string({ error: 'expected a string' })),
    {
      error: 'expected { "<language>": ["phrase", …] }',
    },
  );

  /** `options`. */
  const optionsSchema = z.object({
    propagate_tool_result: z.boolean({ error: 'expected a boolean' }).optional(),
    propagateToolResult: z.boolean({ error: 'expected a boolean' }).optional(),
    save: z.array(saveRuleSchema, { error: 'expected a list of { from, to }' }).optional(),
    bridge_phrases: bridgePhrasesSchema.optional(),
    bridgePhrases: bridgePhrasesSchema.optional(),
    handoff: z
      .string({ error: 'expected an agent name' })
      .min(1, { error: 'must not be empty' })
      .optional(),
    speech: voice.speech.optional(),
    background: z.boolean({ error: 'expected a boolean' }).optional(),
    side_effects: voice.sideEffects.optional(),
    sideEffects: voice.sideEffects.optional(),
  });

  /**
   * `defaults`, kept as the very object written: z.record rebuilds it and silently drops an own
   * `"__proto__"` key (JSON.parse makes one), so that rule would vanish instead of being refused.
   */
  const rulesObject = z.custom<Record<string, unknown>>(
    (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
    { error: 'expected an object of rules' },
  );

  const retryCountSchema = z
    .int({ error: 'expected a whole number of retries' })
    .min(0, { error: 'must be at least 0' })
    .max(5, { error: 'must be at most 5' });

  /** One raw tool definition as written. Unknown fields pass through (reported as warnings). */
  const rawDefinitionSchema = z.looseObject({
    type: oneOf(TYPES).optional(),
    tool: functionToolSchema,
    endpoint: endpointSchema.optional(),
    command: commandSchema.optional(),
    defaults: rulesObject.optional(),
    static_parameters: z.array(staticParameterSchema, { error: 'expected a list' }).optional(),
    staticParameters: z.array(staticParameterSchema, { error: 'expected a list' }).optional(),
    result: z.unknown().optional(),
    options: optionsSchema.optional(),
    service: z.string({ error: 'expected a service name' }).min(1).optional(),
    // Symphony tool config: deadline of one attempt (ms) and extra attempts, any tool type.
    timeout: z
      .number({ error: 'expected a number of milliseconds' })
      .positive({ error: 'must be more than 0 ms' })
      .max(600_000, { error: 'must be at most 600000 ms (10 minutes)' })
      .optional(),
    retryCount: retryCountSchema.optional(),
    retry_count: retryCountSchema.optional(),
  });

  return {
    rawDefinitionSchema,
    functionToolSchema,
    endpointSchema,
    commandSchema,
    staticParameterSchema,
    saveRuleSchema,
    optionsSchema,
  };
}

/** The definition schemas, built on first use. */
export const definitionSchemas = once(() => buildSchemas(zod()));

/** The raw definition after shape validation. */
export type RawDefinition = Z.output<ReturnType<typeof buildSchemas>['rawDefinitionSchema']>;
