/**
 * The Realtime server events switchboard acts on, parsed once at the edge (the server is not
 * trusted: a malformed event is ignored, never half-read). Both the GA names
 * (`response.output_audio_transcript.delta`) and the beta ones (`response.audio_transcript.delta`)
 * are understood. Audio deltas and every other event type are skipped without parsing.
 */
import { z } from 'zod';
import type { ModelUsage } from '../models/types.js';
import type { RealtimeServerError } from './types.js';

/** A complete function call of a response. */
export interface ServerFunctionCall {
  readonly callId: string;
  readonly name: string;
  readonly arguments: string;
}

/** The server events the link handles, as a discriminated union. */
export type ServerEvent =
  | { readonly type: 'response.created'; readonly responseId: string; readonly requestId?: string }
  | { readonly type: 'text-delta'; readonly responseId: string; readonly delta: string }
  | ({ readonly type: 'function-call'; readonly responseId: string } & ServerFunctionCall)
  | {
      readonly type: 'response.done';
      readonly responseId: string;
      readonly status: string;
      readonly reason: string;
      readonly calls: readonly ServerFunctionCall[];
      readonly usage?: ModelUsage;
    }
  | { readonly type: 'error'; readonly error: RealtimeServerError }
  | { readonly type: 'speech-started' }
  | { readonly type: 'user-item'; readonly itemId: string }
  | { readonly type: 'transcript'; readonly itemId: string; readonly text: string };

const TEXT_DELTAS = new Set([
  'response.output_audio_transcript.delta',
  'response.audio_transcript.delta',
  'response.output_text.delta',
  'response.text.delta',
]);

/**
 * Longest id accepted (response, call and item ids; the server's are about 30 characters): 256.
 * Ids are remembered to recognise replays, so their length is bounded with their number.
 */
export const MAX_ID_LENGTH = 256;
const id = z.string().min(1).max(MAX_ID_LENGTH);

const functionCallItem = z.object({
  type: z.literal('function_call'),
  call_id: id,
  name: z.string().min(1),
  arguments: z.string(),
});

const created = z.object({
  response: z.object({
    id,
    metadata: z.object({ switchboard_request: z.string().optional() }).nullish(),
  }),
});
const textDelta = z.object({ response_id: id, delta: z.string() });
const argumentsDone = z.object({
  response_id: id,
  call_id: id,
  name: z.string().min(1),
  arguments: z.string(),
});
const itemDone = z.object({ response_id: id, item: z.unknown() });
const done = z.object({
  response: z.object({
    id,
    status: z.string().optional(),
    status_details: z.unknown().optional(),
    output: z.array(z.unknown()).optional(),
    usage: z.object({ input_tokens: z.number(), output_tokens: z.number() }).partial().nullish(),
  }),
});
const errorEvent = z.object({
  error: z
    .object({
      code: z.string().nullish(),
      type: z.string().nullish(),
      message: z.string().nullish(),
      event_id: z.string().nullish(),
    })
    .nullish(),
});
const userItem = z.object({
  item: z.object({ id, type: z.literal('message'), role: z.literal('user') }),
});
const transcript = z.object({ item_id: id, transcript: z.string() });

/** Reads a raw server event; undefined for events switchboard does not act on, or malformed ones. */
export function readServerEvent(raw: unknown): ServerEvent | undefined {
  if (typeof raw !== 'object' || raw === null || !Object.hasOwn(raw, 'type')) return undefined;
  const type = (raw as { type: unknown }).type;
  if (typeof type !== 'string') return undefined;
  if (TEXT_DELTAS.has(type)) {
    const e = textDelta.safeParse(raw);
    return e.success
      ? { type: 'text-delta', responseId: e.data.response_id, delta: e.data.delta }
      : undefined;
  }
  switch (type) {
    case 'response.created': {
      const e = created.safeParse(raw);
      if (!e.success) return undefined;
      const requestId = e.data.response.metadata?.switchboard_request;
      return {
        type: 'response.created',
        responseId: e.data.response.id,
        ...(requestId === undefined ? {} : { requestId }),
      };
    }
    case 'response.function_call_arguments.done': {
      const e = argumentsDone.safeParse(raw);
      return e.success
        ? {
            type: 'function-call',
            responseId: e.data.response_id,
            callId: e.data.call_id,
            name: e.data.name,
            arguments: e.data.arguments,
          }
        : undefined;
    }
    case 'response.output_item.done': {
      const e = itemDone.safeParse(raw);
      const item = e.success ? functionCallItem.safeParse(e.data.item) : undefined;
      return e.success && item?.success === true
        ? {
            type: 'function-call',
            responseId: e.data.response_id,
            callId: item.data.call_id,
            name: item.data.name,
            arguments: item.data.arguments,
          }
        : undefined;
    }
    case 'response.done': {
      const e = done.safeParse(raw);
      if (!e.success) return undefined;
      const r = e.data.response;
      const calls: ServerFunctionCall[] = [];
      for (const item of r.output ?? []) {
        const c = functionCallItem.safeParse(item);
        if (c.success)
          calls.push({ callId: c.data.call_id, name: c.data.name, arguments: c.data.arguments });
      }
      const usage = r.usage;
      return {
        type: 'response.done',
        responseId: r.id,
        status: r.status ?? 'completed',
        reason: statusReason(r.status_details),
        calls,
        ...(usage?.input_tokens !== undefined && usage.output_tokens !== undefined
          ? { usage: { inputTokens: usage.input_tokens, outputTokens: usage.output_tokens } }
          : {}),
      };
    }
    case 'error': {
      const e = errorEvent.safeParse(raw);
      const err = e.success ? e.data.error : undefined;
      return {
        type: 'error',
        error: {
          code: err?.code ?? err?.type ?? 'unknown',
          message: err?.message ?? 'the Realtime server reported an error',
          ...(typeof err?.event_id === 'string' ? { eventId: err.event_id } : {}),
        },
      };
    }
    case 'input_audio_buffer.speech_started':
      return { type: 'speech-started' };
    case 'conversation.item.created':
    case 'conversation.item.added': {
      const e = userItem.safeParse(raw);
      return e.success ? { type: 'user-item', itemId: e.data.item.id } : undefined;
    }
    case 'conversation.item.input_audio_transcription.completed': {
      const e = transcript.safeParse(raw);
      return e.success
        ? { type: 'transcript', itemId: e.data.item_id, text: e.data.transcript }
        : undefined;
    }
    default:
      return undefined;
  }
}

function statusReason(details: unknown): string {
  if (typeof details !== 'object' || details === null) return 'no details';
  const error = Object.hasOwn(details, 'error') ? (details as { error: unknown }).error : undefined;
  if (typeof error === 'object' && error !== null && Object.hasOwn(error, 'message')) {
    const message = (error as { message: unknown }).message;
    if (typeof message === 'string') return message;
  }
  const reason = Object.hasOwn(details, 'reason')
    ? (details as { reason: unknown }).reason
    : undefined;
  return typeof reason === 'string' ? reason : 'no details';
}
