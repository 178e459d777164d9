/**
 * The shape of a Symphony configuration as written (zod), and the fields each object knows: a
 * field outside those is warned by name, a known field the engine does not use is warned with
 * why (docs/symphony.md has the table). Meaning (names that resolve, cycles, mappings) is checked
 * in check.ts.
 */
import { z } from 'zod';

const text = z.string({ error: 'expected a string' });
const name = text.min(1, { error: 'must not be empty' });
const names = z.array(name, { error: 'expected a list of names' });
const ms = (max: number) =>
  z
    .number({ error: 'expected a number of milliseconds' })
    .positive({ error: 'must be more than 0 ms' })
    .max(max, { error: `must be at most ${max} ms` });
const count = (min: number, max: number) =>
  z
    .int({ error: 'expected a whole number' })
    .min(min, { error: `must be at least ${min}` })
    .max(max, { error: `must be at most ${max}` });
const object = z.record(z.string(), z.unknown(), { error: 'expected an object' });
/** A host function given in an object configuration (never in a file). */
const hostFunction = z.custom<(...args: never[]) => unknown>((v) => typeof v === 'function', {
  error: 'expected a function',
});

/** Tool deadlines and agent/step timeouts: at most ten minutes, like a definition's `timeout`. */
export const MAX_TIMEOUT_MS = 600_000;

export const toolSchema = z.looseObject({
  name: name.regex(/^[A-Za-z0-9_-]{1,64}$/, {
    error: 'must be 1-64 letters, digits, _ or - (a model function name)',
  }),
  description: text.optional(),
  type: text.optional(),
  config: z
    .looseObject({
      inputSchema: z
        .looseObject({}, { error: 'expected a JSON Schema object' })
        .refine((s) => s['type'] === undefined || s['type'] === 'object', {
          error: 'the parameters of a tool must be a JSON Schema of type "object"',
        })
        .optional(),
    })
    .optional(),
  handler: z
    .union([name, hostFunction], { error: 'expected an action name or a function' })
    .optional(),
  timeout: ms(MAX_TIMEOUT_MS).optional(),
  retryCount: count(0, 5).optional(),
  maxCalls: count(1, 10_000).optional(),
  inputs: names.optional(),
  outputs: names.optional(),
  nlp: z.unknown().optional(),
  apiKey: z.unknown().optional(),
  maxSize: z.unknown().optional(),
  capabilities: z.unknown().optional(),
});

const llmSchema = z.union(
  [
    name,
    z.looseObject({
      model: name.optional(),
      provider: text.optional(),
      temperature: z
        .number({ error: 'expected a number' })
        .min(0, { error: 'must be at least 0' })
        .max(2, { error: 'must be at most 2' })
        .optional(),
      maxTokens: count(1, 10_000_000).optional(),
    }),
  ],
  { error: 'expected a model name or { model, temperature?, maxTokens?, provider? }' },
);

export const agentSchema = z.looseObject({
  name,
  description: text.optional(),
  task: text.optional(),
  tools: names.optional(),
  llm: llmSchema.optional(),
  systemPrompt: text.optional(),
  directives: z.union([text, z.array(text)], { error: 'expected a string or a list' }).optional(),
  maxCalls: count(1, 1000).optional(),
  timeout: ms(MAX_TIMEOUT_MS).optional(),
  capabilities: z.unknown().optional(),
});

const ruleSchema = z.looseObject({
  condition: name,
  assignTo: z.union([name, names], { error: 'expected a member name or a list of them' }),
});

export const teamSchema = z.looseObject({
  name,
  description: text.optional(),
  agents: z.array(z.unknown(), { error: 'expected a list of agents' }).min(1, {
    error: 'a team needs at least one agent',
  }),
  manager: z
    .union([z.boolean(), name], { error: 'expected true/false or an agent name' })
    .optional(),
  strategy: z
    .looseObject({
      name: text.optional(),
      description: text.optional(),
      coordinationRules: z
        .looseObject({
          maxParallelTasks: count(1, 64).optional(),
          taskTimeout: ms(MAX_TIMEOUT_MS).optional(),
        })
        .optional(),
    })
    .optional(),
  delegationStrategy: z
    .looseObject({
      type: z.enum(['rule-based', 'llm_driven', 'custom'], {
        error: 'expected rule-based, llm_driven or custom',
      }),
      rules: z.array(ruleSchema, { error: 'expected a list of rules' }).optional(),
      handler: name.optional(),
    })
    .optional(),
});

const retryConfigSchema = z.looseObject({
  enabled: z.boolean({ error: 'expected a boolean' }).optional(),
  maxAttempts: count(1, 20).optional(),
  delay: z
    .number({ error: 'expected a number of milliseconds' })
    .min(0, { error: 'must be at least 0 ms' })
    .max(MAX_TIMEOUT_MS, { error: `must be at most ${MAX_TIMEOUT_MS} ms` })
    .optional(),
  backoffFactor: z
    .number({ error: 'expected a number' })
    .min(1, { error: 'must be at least 1' })
    .max(10, { error: 'must be at most 10' })
    .optional(),
  retryableErrors: z.array(name, { error: 'expected a list of error codes' }).optional(),
});

export const stepSchema = z.looseObject({
  id: name.regex(/^[A-Za-z_][\w-]*$/, {
    error: 'must start with a letter or _ and hold letters, digits, _ or -',
  }),
  name: text.optional(),
  type: z.enum(['tool', 'agent', 'team'], { error: 'expected tool, agent or team' }),
  tool: name.optional(),
  agent: name.optional(),
  team: name.optional(),
  inputs: object.optional(),
  outputs: z
    .record(z.string(), text, { error: 'expected { variable: ".result.path" }' })
    .optional(),
  dependencies: names.optional(),
  retryConfig: retryConfigSchema.optional(),
  timeout: ms(MAX_TIMEOUT_MS).optional(),
});

const errorStrategySchema = z.union(
  [
    z.enum(['stop', 'continue', 'retry'], { error: 'expected stop, continue or retry' }),
    z.looseObject({
      type: z.enum(['stop', 'continue', 'retry'], { error: 'expected stop, continue or retry' }),
      maxAttempts: count(1, 20).optional(),
      delay: z
        .number({ error: 'expected a number of milliseconds' })
        .min(0, { error: 'must be at least 0 ms' })
        .max(MAX_TIMEOUT_MS, { error: `must be at most ${MAX_TIMEOUT_MS} ms` })
        .optional(),
    }),
  ],
  { error: 'expected stop, continue, retry or { type, maxAttempts?, delay? }' },
);

export const pipelineSchema = z.looseObject({
  name,
  description: text.optional(),
  steps: z.array(stepSchema, { error: 'expected a list of steps' }).min(1, {
    error: 'a pipeline needs at least one step',
  }),
  variables: object.optional(),
  errorStrategy: errorStrategySchema.optional(),
});

export const configSchema = z.looseObject({
  tools: z.array(z.unknown(), { error: 'expected a list of tools' }).optional(),
  agents: z.array(z.unknown(), { error: 'expected a list of agents' }).optional(),
  teams: z.array(z.unknown(), { error: 'expected a list of teams' }).optional(),
  pipelines: z.array(z.unknown(), { error: 'expected a list of pipelines' }).optional(),
});

export type RawTool = z.output<typeof toolSchema>;
export type RawAgent = z.output<typeof agentSchema>;
export type RawTeam = z.output<typeof teamSchema>;
export type RawStep = z.output<typeof stepSchema>;
export type RawPipeline = z.output<typeof pipelineSchema>;

/**
 * Known fields the engine keeps but does not act on, with why: each is warned by name so an
 * author knows it has no effect (the rest of the known fields are honoured or mapped).
 */
export const NOT_ACTED_ON: ReadonlyMap<string, string> = new Map([
  [
    'nlp',
    'natural-language tool matching is not done: the model picks tools from their descriptions',
  ],
  [
    'apiKey',
    'credentials belong to the host (session services), never to a configuration; not used',
  ],
  ['maxSize', 'not applied: tool results are capped by the session limits'],
  ['capabilities', 'kept as metadata; it changes nothing'],
]);

/** Known fields per object kind; anything else is warned as unknown. */
export const KNOWN_FIELDS = {
  config: ['tools', 'agents', 'teams', 'pipelines', 'name', 'description', 'version'],
  tool: Object.keys(toolSchema.shape),
  toolConfig: ['inputSchema'],
  agent: Object.keys(agentSchema.shape),
  llm: ['model', 'provider', 'temperature', 'maxTokens', 'baseURL', 'apiKey'],
  team: Object.keys(teamSchema.shape),
  strategy: ['name', 'description', 'coordinationRules'],
  coordinationRules: ['maxParallelTasks', 'taskTimeout'],
  delegationStrategy: ['type', 'rules', 'handler'],
  rule: ['condition', 'assignTo'],
  pipeline: Object.keys(pipelineSchema.shape),
  step: Object.keys(stepSchema.shape),
  retryConfig: Object.keys(retryConfigSchema.shape),
  errorStrategy: ['type', 'maxAttempts', 'delay'],
} as const;
