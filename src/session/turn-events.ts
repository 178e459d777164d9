/**
 * The events every turn emits, made as plain records without an allocation site
 * (plain-records.ts): keys in the documented order, optional keys only when present.
 */
import type { HttpExchangeRecord } from '../handlers/types.js';
import type { TurnTimings } from '../observability/types.js';
import { plainRecord } from '../plain-records.js';
import type { SessionEvent, TurnEvent } from './types.js';

type EventOf<T extends SessionEvent['type']> = Extract<SessionEvent, { readonly type: T }>;

/** `http-request` and `http-response` events share one shape. */
interface HttpEventRecord {
  readonly type: 'http-request' | 'http-response';
  readonly callId: string;
  readonly request: HttpExchangeRecord;
}

/** `turn-start`; `callId` only for a turn a background result started. */
export const TurnStartEvent = plainRecord<
  EventOf<'turn-start'>,
  [turn: number, user: string, callId: string | undefined]
>(function (turn, user, callId) {
  this.type = 'turn-start';
  this.turn = turn;
  this.user = user;
  if (callId !== undefined) {
    this.reason = 'tool-result';
    this.callId = callId;
  }
});

/**
 * `text-delta`. Made without a speech id in the turn loop; the session's speech ledger stamps one
 * (a new record) before the event is recorded.
 */
export const TextDeltaEvent = plainRecord<
  Extract<TurnEvent, { readonly type: 'text-delta' }>,
  [text: string, speechId: string | undefined]
>(function (text, speechId) {
  this.type = 'text-delta';
  this.text = text;
  if (speechId !== undefined) this.speechId = speechId;
});

/** `tool-call`; `args` once the call's arguments were parsed. */
export const ToolCallEvent = plainRecord<
  EventOf<'tool-call'>,
  [callId: string, tool: string, rawArguments: string, args: Record<string, unknown> | undefined]
>(function (callId, tool, rawArguments, args) {
  this.type = 'tool-call';
  this.callId = callId;
  this.tool = tool;
  this.rawArguments = rawArguments;
  if (args !== undefined) this.args = args;
});

/** `tool-result`; `propagate` only when the definition asks for it. */
export const ToolResultEvent = plainRecord<
  EventOf<'tool-result'>,
  [callId: string, tool: string, output: unknown, durationSecs: number, propagate: boolean]
>(function (callId, tool, output, durationSecs, propagate) {
  this.type = 'tool-result';
  this.callId = callId;
  this.tool = tool;
  this.output = output;
  this.durationSecs = durationSecs;
  if (propagate) this.propagate = true;
});

/** `http-request` or `http-response`: the same shape. */
export const HttpEvent = plainRecord<
  HttpEventRecord,
  [type: 'http-request' | 'http-response', callId: string, request: HttpExchangeRecord]
>(function (type, callId, request) {
  this.type = type;
  this.callId = callId;
  this.request = request;
});

/** `turn-end`. */
export const TurnEndEvent = plainRecord<
  EventOf<'turn-end'>,
  [content: string, timings: TurnTimings]
>(function (content, timings) {
  this.type = 'turn-end';
  this.content = content;
  this.timings = timings;
});
