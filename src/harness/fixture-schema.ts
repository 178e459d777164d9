/**
 * The fixture format (docs/harness.md): one conversation per YAML or JSON file, validated once with zod.
 *
 * Free-form JSON values (tool arguments, response bodies, variables, expected values) are kept as
 * `unknown` so zod never rebuilds them: a key named `__proto__` in a fixture stays plain data.
 * Every object of the format itself is strict, so a typo (`expct:`) is reported with its path.
 */
import { z } from 'zod';
import { didYouMean } from '../did-you-mean.js';
import { SESSION_EVENT_TYPES } from './event-types.js';

/** A value that is JSON data (checked loosely; matchers and the engine treat it as data). */
const json = z.unknown();

/** Keys of the format's own maps; `__proto__` would be read as a prototype by some code paths. */
const safeKey = z
  .string()
  .refine((k) => k !== '__proto__', { message: 'the key "__proto__" is not allowed' });

const jsonObject = z.custom<Record<string, unknown>>(
  (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
  { message: 'expected an object' },
);

/** `{ regex: "…" }` or `{ any: true }`, alone: the loose matchers of match.ts. */
function isMatcherForm(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  if (keys.length !== 1) return false;
  const only: unknown = Object.getOwnPropertyDescriptor(value, keys[0]!)?.value;
  return (keys[0] === 'regex' && typeof only === 'string') || (keys[0] === 'any' && only === true);
}

/**
 * An expected text (a reply, a language, a tool error's code): a string or a loose matcher.
 * Anything else could never equal the string the session gives, so it is refused at load
 * instead of failing every run (`reply: 5`, `code: 404`, `{ regx: "…" }`).
 */
const expectedText = z.custom<unknown>(
  (value) => typeof value === 'string' || isMatcherForm(value),
  {
    error: (issue) =>
      `expected a string, { regex: "…" } or { any: true }, got ${describeValue(issue.input)}`,
  },
);

/** A few words on a value, for messages. */
function describeValue(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? typeof value : text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** Methods of HTTP (any case): a misspelt one (`DELET`) could never select a request. */
const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];
const httpMethod = z.string().refine((m) => HTTP_METHODS.includes(m.toUpperCase()), {
  error: (issue) =>
    `expected an HTTP method (${HTTP_METHODS.join('|')}, any case), got ${describeValue(issue.input)}${didYouMean(String(issue.input).toUpperCase(), HTTP_METHODS)}`,
});

/** Expected headers: names to values (or loose matchers), checked as a subset. */
const expectedHeaders = z.custom<Record<string, unknown>>(
  (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
  {
    error: (issue) =>
      `expected an object of header names to values, got ${describeValue(issue.input)}`,
  },
);

/** One tool call of a scripted model step: parsed `args`, or the raw `arguments` string. */
export const scriptedToolCallSchema = z
  .strictObject({
    name: z.string().min(1),
    args: jsonObject.optional(),
    /** The raw argument string exactly as the model sends it (to test malformed JSON). */
    arguments: z.string().optional(),
    id: z.string().min(1).optional(),
  })
  .refine((c) => !(c.args !== undefined && c.arguments !== undefined), {
    message: 'give either args or arguments, not both',
  });

/** One scripted model step: what the model answers to one request. */
export const modelStepSchema = z
  .strictObject({
    /** Streamed text; a list streams each element as its own delta. */
    text: z.union([z.string(), z.array(z.string())]).optional(),
    tool_calls: z.array(scriptedToolCallSchema).min(1).optional(),
    /** Wait before answering (and between text chunks). */
    delay_ms: z.number().int().min(0).max(60_000).optional(),
    /** Make this model call fail with this message (a provider outage). */
    error: z.string().optional(),
  })
  .refine((s) => s.text !== undefined || s.tool_calls !== undefined || s.error !== undefined, {
    message: 'a model step needs text, tool_calls, error, or text with tool_calls',
  });

/**
 * An expected event: matched partially, so any keys, but a `type` that names no event
 * (`sayy`) could never match and is refused with the type it is close to.
 */
const expectedEvent = jsonObject.superRefine((value, ctx) => {
  const type = Object.hasOwn(value, 'type') ? value['type'] : undefined;
  if (typeof type === 'string' && !SESSION_EVENT_TYPES.includes(type))
    ctx.addIssue({
      code: 'custom',
      path: ['type'],
      message: `"${type}" is not a session event type${didYouMean(type, SESSION_EVENT_TYPES)}; types: ${SESSION_EVENT_TYPES.join(', ')}`,
    });
});

/** `match: partial` lets an expected item have fewer keys than the actual one. */
const matchMode = z.enum(['exact', 'partial']).optional();

export const expectedToolCallSchema = z.strictObject({
  name: z.string(),
  args: json.optional(),
  match: matchMode,
});

export const expectedRequestSchema = z.strictObject({
  method: httpMethod.optional(),
  url: json.optional(),
  query: json.optional(),
  json: json.optional(),
  form: json.optional(),
  body: json.optional(),
  /** Always a subset match: transports add headers of their own. */
  headers: expectedHeaders.optional(),
  match: matchMode,
});

/** A command run the turn made (the command double's record): name and argv. */
export const expectedCommandSchema = z.strictObject({
  command: z.string().optional(),
  /** The argv after the executable; `match: partial` lets it be a prefix-free subset check. */
  argv: json.optional(),
  match: matchMode,
});

export const expectedToolErrorSchema = z.strictObject({
  tool: z.string(),
  code: expectedText.optional(),
  message: expectedText.optional(),
  match: matchMode,
});

/** Expectations of one turn. Absent keys are not checked; `say: []` asserts nothing was said. */
export const turnExpectSchema = z.strictObject({
  tool_calls: z.array(expectedToolCallSchema).optional(),
  requests: z.array(expectedRequestSchema).optional(),
  /** Command runs, in order (docs/harness.md, "Command double"). */
  commands: z.array(expectedCommandSchema).optional(),
  say: z.array(json).optional(),
  language: expectedText.optional(),
  vars: jsonObject.optional(),
  /**
   * Workflow state after the turn, by task key (docs/workflows.md): `{ step, status, inputs,
   * local }`, matched partially (keys not written are not checked).
   */
  workflows: jsonObject.optional(),
  reply: expectedText.optional(),
  tool_errors: z.array(expectedToolErrorSchema).optional(),
  /** Events expected in this order, each matched partially; other events may sit in between. */
  events: z.array(expectedEvent).optional(),
  agent: expectedText.optional(),
  /** The model call failed (the turn ended without a reply); matches the error's message. */
  model_error: expectedText.optional(),
  ended: z.boolean().optional(),
  interrupted: z.boolean().optional(),
});

/** Caller barge-in during a turn: interrupt when the first event of a type is seen. */
export const interruptSchema = z.strictObject({
  on: z
    .enum(['text-delta', 'tool-call', 'http-request', 'action', 'say', 'speech-wait'])
    .optional(),
  after_ms: z.number().int().min(0).max(60_000).optional(),
});

/** An utterance point (docs/voice.md): the first speaking event whose text contains `text`. */
const speechPointSchema = z.union([
  z.string().min(1),
  z.strictObject({
    text: z.string().min(1),
    /** Milliseconds after the utterance appears. Default 0. */
    after_ms: z.number().int().min(0).max(60_000).optional(),
  }),
]);

export const turnSchema = z.strictObject({
  /** Changes applied between turns, as a host would (restoring the session from its state). */
  before: z
    .strictObject({ vars: jsonObject.optional(), language: z.string().optional() })
    .optional(),
  user: z.string(),
  model: z.array(modelStepSchema),
  interrupt: interruptSchema.optional(),
  /** Acknowledge playback of these utterances (session `speech_ack: host`), in any order. */
  spoken: z.array(speechPointSchema).optional(),
  /** Barge in when this utterance appears (plus `after_ms`); refused while a call is locked. */
  interrupt_after: speechPointSchema.optional(),
  expect: turnExpectSchema.optional(),
});

/** One HTTP exchange the harness answers instead of the network. */
export const httpExchangeSchema = z.strictObject({
  request: z.strictObject({
    method: httpMethod,
    url: z.string().url(),
    /** When given, the request's query string must contain these parameters to match. */
    query: z.record(safeKey, z.union([z.string(), z.array(z.string())])).optional(),
  }),
  response: z
    .strictObject({
      status: z.number().int().min(100).max(599).default(200),
      json: json.optional(),
      text: z.string().optional(),
      body: z.string().optional(),
      headers: z.record(safeKey, z.string()).optional(),
      delay_ms: z.number().int().min(0).max(120_000).optional(),
      /** Fail at the transport level instead of answering (connection reset). */
      error: z.enum(['network']).optional(),
    })
    .default({ status: 200 }),
  /** How many requests this exchange answers. Default 1. */
  times: z.number().int().min(1).max(100).default(1),
});

/**
 * One run a command double answers instead of a process (docs/harness.md, "Command double"):
 * chosen by its `argv` (exact, when given), answered with stdout (`json` or `stdout`), `stderr`
 * and an exit code, or a failure to start.
 */
export const commandExchangeSchema = z.strictObject({
  /** When given, the run's argv must equal it to match. */
  argv: z.array(z.string()).optional(),
  response: z
    .strictObject({
      /** stdout: this value's JSON text. */
      json: json.optional(),
      /** stdout as written. */
      stdout: z.string().optional(),
      stderr: z.string().optional(),
      exit_code: z.number().int().min(0).max(255).default(0),
      delay_ms: z.number().int().min(0).max(120_000).optional(),
      /** Fail to start (as a missing program does: `spawn_failed`). */
      error: z.enum(['spawn_failed']).optional(),
    })
    .refine((r) => !(r.json !== undefined && r.stdout !== undefined), {
      message: 'give either json or stdout, not both',
    })
    .default({ exit_code: 0 }),
  /** How many runs this exchange answers. Default 1. */
  times: z.number().int().min(1).max(100).default(1),
});

/** Canned result of a host action for the fixture's session. */
export const fixtureActionSchema = z.strictObject({
  result: json.optional(),
  handoff: z.string().optional(),
  end_session: z.union([z.boolean(), z.strictObject({ reason: z.string().optional() })]).optional(),
  say: z.string().optional(),
  vars: jsonObject.optional(),
  /** Make the handler throw this message (a `handler_error` tool error). */
  error: z.string().optional(),
});

const agentSchema = z.strictObject({
  prompt: z.string(),
  tools: z.array(z.string()).optional(),
  /** Static parameter values for this agent, per tool (win over `session.tool_defaults`). */
  tool_defaults: z.record(safeKey, jsonObject).optional(),
});

export const fixtureSessionSchema = z.strictObject({
  /** Session id (`vars.session.id`). Default `fixture`. */
  id: z.string().min(1).optional(),
  /** The wall clock at the start, ISO 8601, so `vars.session.date` is reproducible. */
  now: z
    .string()
    .refine((s) => !Number.isNaN(Date.parse(s)), { message: 'expected an ISO 8601 date-time' })
    .optional(),
  language: z.string().optional(),
  languages: z.array(z.string()).optional(),
  vars: jsonObject.optional(),
  prompt: z.string().optional(),
  agents: z.record(safeKey, agentSchema).optional(),
  agent: z.string().optional(),
  tool_defaults: z.record(safeKey, jsonObject).optional(),
  services: jsonObject.optional(),
  max_tool_rounds: z.number().int().min(1).max(64).optional(),
  on_missing_template_value: z.enum(['skip', 'error']).optional(),
  /** The host's `systemValues`: `vars.session.source`/`target` (caller, number called), `timezone`. */
  system_values: z
    .strictObject({
      source: z.string().optional(),
      target: z.string().optional(),
      timezone: z.string().min(1).optional(),
    })
    .optional(),
  /** Who acknowledges speech (docs/voice.md). Default `auto`. */
  speech_ack: z.enum(['host', 'auto']).optional(),
  bridge: z
    .strictObject({
      threshold_secs: z.number().positive().optional(),
      phrases: z.record(safeKey, z.record(safeKey, z.array(z.string()))).optional(),
    })
    .optional(),
});

/** A whole fixture file. */
export const fixtureSchema = z.strictObject({
  name: z.string().min(1),
  description: z.string().optional(),
  /** A tools file relative to the fixture, or the definitions inline. */
  tools: z.union([z.string().min(1), z.array(json), jsonObject], {
    error:
      'expected a tools file path (relative to the fixture), a list of paths, or inline tool definitions',
  }),
  session: fixtureSessionSchema.default({}),
  actions: z.record(safeKey, fixtureActionSchema).default({}),
  http: z.array(httpExchangeSchema).default([]),
  /**
   * Commands by name, each with the runs it answers: the session registers each name (its path is
   * never run) and the command double answers in place of processes.
   */
  commands: z.record(safeKey, z.array(commandExchangeSchema)).default({}),
  turns: z.array(turnSchema).min(1),
});

/** A parsed fixture (defaults applied). */
export type Fixture = z.output<typeof fixtureSchema>;
// The parts a package entry exports are named through Fixture (its schema is exported): named
// through their own schemas, which no entry exports, their declarations would lead a user to names
// they cannot import.
export type FixtureTurn = Fixture['turns'][number];
export type TurnExpect = NonNullable<FixtureTurn['expect']>;
export type ModelStep = FixtureTurn['model'][number];
export type ScriptedToolCall = z.output<typeof scriptedToolCallSchema>;
export type HttpExchange = Fixture['http'][number];
export type CommandExchange = Fixture['commands'][string][number];
export type FixtureAction = Fixture['actions'][string];
export type FixtureSession = z.output<typeof fixtureSessionSchema>;
export type InterruptSpec = z.output<typeof interruptSchema>;
