/**
 * The zod shape of an ElevenLabs tool config: the fields switchboard reads, with the wire
 * (snake_case) names of elevenlabs/elevenlabs-js v2.56.0 `src/serialization/types/`
 * (`WebhookToolConfigInput`, `WebhookToolApiSchemaConfigInput`, `SystemToolConfigInput`,
 * `ClientToolConfigInput`).
 */
import { z } from 'zod';
import type { ToolMarks } from './conversion-context.js';
import type { VariableDialect } from './variables.js';

/** ElevenLabs dynamic variables: `{{name}}`; `system__conversation_id` is the session id. */
export const ELEVENLABS_DIALECT: VariableDialect = {
  // ElevenLabs' system dynamic variables with a switchboard system value; the other `system__*`
  // ones (`system__call_sid`, `system__agent_id`…) stay session variables, with a warning.
  system: new Map([
    ['system__conversation_id', 'session.id'],
    ['system__caller_id', 'session.source'],
    ['system__called_number', 'session.target'],
    ['system__time_utc', 'session.datetime'],
  ]),
  unmapped: { names: new Set(), prefixes: ['system__'] },
  platform: 'ElevenLabs',
};

const str = z.string({ error: 'expected a string' });
const num = z.number({ error: 'expected a number' });
const bool = z.boolean({ error: 'expected a boolean' });

/** A property schema: literal, object or array (checked loosely; walked by {@link properties}). */
const propertySchema = z.record(z.string(), z.unknown(), {
  error: 'expected a property schema object',
});

export const apiSchema = z.looseObject({
  url: str,
  method: str.optional(),
  request_headers: z
    .record(
      z.string(),
      z.union(
        [
          str,
          z.looseObject({ secret_id: str }),
          z.looseObject({ variable_name: str }),
          z.looseObject({ env_var_label: str }),
        ],
        {
          error: 'expected a string, { secret_id }, { variable_name } or { env_var_label }',
        },
      ),
    )
    .optional(),
  path_params_schema: z
    .record(z.string(), propertySchema, { error: 'expected an object of property schemas' })
    .optional(),
  query_params_schema: z
    .looseObject({
      properties: z.record(z.string(), propertySchema, { error: 'expected an object' }),
      required: z.array(str).optional(),
    })
    .optional(),
  request_body_schema: propertySchema.optional(),
  content_type: str.optional(),
  auth_connection: z
    .looseObject({ auth_connection_id: str.optional(), env_var_label: str.optional() })
    .optional(),
});

/** One ElevenLabs tool config (webhook, system or client). */
export const elevenLabsToolSchema = z.looseObject({
  type: z
    .enum(['webhook', 'system', 'client', 'mcp'], {
      error: 'expected one of webhook|system|client|mcp',
    })
    .optional(),
  name: str,
  description: str.optional(),
  response_timeout_secs: num.optional(),
  disable_interruptions: bool.optional(),
  force_pre_tool_speech: bool.optional(),
  pre_tool_speech: str.optional(),
  execution_mode: str.optional(),
  assignments: z
    .array(z.looseObject({ dynamic_variable: str, value_path: str, source: str.optional() }), {
      error: 'expected a list',
    })
    .optional(),
  api_schema: apiSchema.optional(),
  parameters: propertySchema.optional(),
  params: z
    .looseObject({
      system_tool_type: str,
      transfers: z.array(z.looseObject({ condition: str.optional() })).optional(),
    })
    .optional(),
});
export type ElevenLabsTool = z.output<typeof elevenLabsToolSchema>;

export const COMMON = [
  'type',
  'name',
  'description',
  'response_timeout_secs',
  'disable_interruptions',
  'force_pre_tool_speech',
  'pre_tool_speech',
  'execution_mode',
  'assignments',
  'tool_call_sound',
  'tool_call_sound_behavior',
  'tool_error_handling_mode',
  'dynamic_variables',
];

/** What tells an ElevenLabs tool config from another platform's tool. */
export const MARKS: ToolMarks = {
  own: ['type', 'api_schema', 'params', 'parameters', 'expects_response'],
  foreign: new Map([
    ['definition', "an Ultravox tool's"],
    ['temporaryTool', "an Ultravox tool's"],
    ['modelToolName', "an Ultravox tool's"],
    ['http', "an Ultravox tool's"],
    ['dynamicParameters', "an Ultravox tool's"],
    ['function', "a Vapi tool's"],
    ['server', "a Vapi tool's"],
  ]),
};
