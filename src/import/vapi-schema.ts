/**
 * The zod shape of a Vapi tool: the fields switchboard reads, typed as VapiAI/server-sdk-typescript
 * v2.0.0 types them (`CreateFunctionToolDto`, `CreateApiRequestToolDto`, `CreateEndCallToolDto`,
 * `CreateTransferCallToolDto`, `ToolMessageStart`, `ToolMessageDelayed`, `Server`), and the fields
 * each tool type may carry (any other is warned about).
 */
import { z } from 'zod';
import type { VariableDialect } from './variables.js';

/**
 * Vapi's variables: Liquid `{{name}}`. Its call variables (docs.vapi.ai, "The variable bag") that
 * switchboard has a system value for map to it: the call id, the caller's number (`source`), the
 * number called (`target`), the time. The first Vapi name of a value is the one export writes.
 * The other call variables (`transport.callSid`, `customer.name`…) stay session variables of the
 * same name, with a warning.
 */
export const VAPI_DIALECT: VariableDialect = {
  system: new Map([
    ['call.id', 'session.id'],
    ['customer.number', 'session.source'],
    ['phoneNumber.number', 'session.target'],
    ['now', 'session.datetime'],
    ['currentDateTime', 'session.datetime'],
    ['date', 'session.date'],
  ]),
  unmapped: {
    names: new Set(['time', 'year', 'month', 'day', 'messages', 'transcript', 'prompt']),
    prefixes: ['call.', 'customer.', 'phoneNumber.', 'transport.', 'assistant.'],
  },
  platform: 'Vapi',
};

const str = z.string({ error: 'expected a string' });
const num = z.number({ error: 'expected a number' });
const bool = z.boolean({ error: 'expected a boolean' });
const obj = z.record(z.string(), z.unknown(), { error: 'expected an object' });

export const messageSchema = z.looseObject({
  type: str,
  content: str.optional(),
  contents: z
    .array(z.looseObject({ text: str.optional(), language: str.optional() }), {
      error: 'expected a list',
    })
    .optional(),
  blocking: bool.optional(),
  timingMilliseconds: num.optional(),
  conditions: z.array(z.unknown(), { error: 'expected a list' }).optional(),
});

const functionSchema = z.looseObject({
  name: str,
  description: str.optional(),
  parameters: obj.optional(),
  strict: bool.optional(),
});

/** One Vapi tool (the fields switchboard reads; others are warned about). */
export const vapiToolSchema = z.looseObject({
  type: str,
  function: functionSchema.optional(),
  messages: z.array(messageSchema, { error: 'expected a list of messages' }).optional(),
  server: z
    .looseObject({
      url: str.optional(),
      timeoutSeconds: num.optional(),
      credentialId: str.optional(),
      headers: obj.optional(),
    })
    .optional(),
  async: bool.optional(),
  parameters: z
    .array(z.looseObject({ key: str, value: z.unknown() }), {
      error: 'expected a list of { key, value }',
    })
    .optional(),
  // apiRequest
  name: str.optional(),
  description: str.optional(),
  method: str.optional(),
  url: str.optional(),
  body: obj.optional(),
  headers: obj.optional(),
  timeoutSeconds: num.optional(),
  credentialId: str.optional(),
  variableExtractionPlan: z
    .looseObject({
      aliases: z
        .array(z.looseObject({ key: str, value: str }), { error: 'expected a list' })
        .optional(),
    })
    .optional(),
  // transferCall
  destinations: z
    .array(
      z.looseObject({
        type: str,
        number: str.optional(),
        sipUri: str.optional(),
        assistantName: str.optional(),
        description: str.optional(),
        message: z.unknown().optional(),
      }),
      { error: 'expected a list of destinations' },
    )
    .optional(),
});
export type VapiTool = z.output<typeof vapiToolSchema>;

const API_FIELDS = ['id', 'orgId', 'createdAt', 'updatedAt'];
const COMMON = ['type', 'function', 'messages', 'rejectionPlan', ...API_FIELDS];
export const KNOWN: Record<string, string[]> = {
  function: [...COMMON, 'server', 'async', 'parameters', 'variableExtractionPlan'],
  apiRequest: [
    ...COMMON,
    'name',
    'description',
    'method',
    'url',
    'body',
    'headers',
    'timeoutSeconds',
    'credentialId',
    'variableExtractionPlan',
    'parameters',
    'backoffPlan',
  ],
  endCall: COMMON,
  transferCall: [...COMMON, 'destinations'],
};

/** One spoken message. */
export type VapiMessage = z.output<typeof messageSchema>;
