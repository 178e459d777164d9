/**
 * The zod shape of `ultravox.v1.BaseToolDefinition` (Ultravox's OpenAPI document, as vendored in
 * tryAGI/Ultravox `src/libs/Ultravox/openapi.yaml`, API 0.1.0): the fields switchboard reads.
 */
import { z } from 'zod';
import type { ToolMarks } from './conversion-context.js';
import type { VariableDialect } from './variables.js';

/** Ultravox has no template variables; the call id is an automatic parameter. */
export const ULTRAVOX_DIALECT: VariableDialect = { system: new Map() };

/** Ultravox's parameter locations. */
export const LOCATIONS = [
  'PARAMETER_LOCATION_UNSPECIFIED',
  'PARAMETER_LOCATION_QUERY',
  'PARAMETER_LOCATION_PATH',
  'PARAMETER_LOCATION_HEADER',
  'PARAMETER_LOCATION_BODY',
] as const;

const str = z.string({ error: 'expected a string' });
const location = z.enum(LOCATIONS, { error: `expected one of ${LOCATIONS.join('|')}` });

/** `ultravox.v1.BaseToolDefinition` (the fields switchboard reads). */
export const ultravoxToolSchema = z.looseObject({
  modelToolName: str.optional(),
  description: str.optional(),
  dynamicParameters: z
    .array(
      z.looseObject({
        name: str,
        location: location.optional(),
        schema: z
          .record(z.string(), z.unknown(), { error: 'expected a JSON Schema object' })
          .optional(),
        required: z.boolean({ error: 'expected a boolean' }).optional(),
      }),
      { error: 'expected a list' },
    )
    .optional(),
  staticParameters: z
    .array(z.looseObject({ name: str, location: location.optional(), value: z.unknown() }), {
      error: 'expected a list',
    })
    .optional(),
  automaticParameters: z
    .array(
      z.looseObject({ name: str, location: location.optional(), knownValue: str.optional() }),
      { error: 'expected a list' },
    )
    .optional(),
  requirements: z
    .looseObject({
      httpSecurityOptions: z
        .looseObject({
          options: z
            .array(
              z.looseObject({
                requirements: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
              }),
            )
            .optional(),
        })
        .optional(),
    })
    .optional(),
  timeout: str.regex(/^-?\d+(\.\d+)?s$/, { error: 'expected a duration such as "8s"' }).optional(),
  precomputable: z.boolean({ error: 'expected a boolean' }).optional(),
  http: z.looseObject({ baseUrlPattern: str, httpMethod: str.optional() }).optional(),
  client: z.record(z.string(), z.unknown()).optional(),
  dataConnection: z.record(z.string(), z.unknown()).optional(),
  defaultReaction: str.optional(),
  staticResponse: z.looseObject({ responseText: str.optional() }).optional(),
});
export type UltravoxTool = z.output<typeof ultravoxToolSchema>;

export const KNOWN = [
  'modelToolName',
  'description',
  'dynamicParameters',
  'staticParameters',
  'automaticParameters',
  'requirements',
  'timeout',
  'precomputable',
  'http',
  'client',
  'dataConnection',
  'defaultReaction',
  'staticResponse',
];

/** What tells a bare Ultravox definition from another platform's tool. */
export const MARKS: ToolMarks = {
  // `description` is every platform's: it says nothing about whose the tool is.
  own: KNOWN.filter((key) => key !== 'description'),
  foreign: new Map([
    ['type', "a Vapi, Retell or ElevenLabs tool's"],
    ['function', "a Vapi tool's"],
    ['server', "a Vapi tool's"],
    ['tool_config', "an ElevenLabs tool's"],
    ['api_schema', "an ElevenLabs tool's"],
  ]),
};
