/**
 * readServerEvent: the edge where the Realtime server's events are parsed (docs/realtime.md).
 * Both the GA and the beta event names are understood; an event that does not fit is ignored.
 */
import { describe, expect, it } from 'vitest';
import { readServerEvent } from '../../src/realtime/server-events.js';

describe('readServerEvent', () => {
  it('reads the transcript and text deltas under their GA and beta names', () => {
    for (const type of [
      'response.output_audio_transcript.delta',
      'response.audio_transcript.delta',
      'response.output_text.delta',
      'response.text.delta',
    ])
      expect(readServerEvent({ type, response_id: 'resp_1', delta: 'Hi' }), type).toEqual({
        type: 'text-delta',
        responseId: 'resp_1',
        delta: 'Hi',
      });
  });

  it('ignores an event naming an empty response, call or item id', () => {
    const call = { type: 'function_call', call_id: 'call_1', name: 'note', arguments: '{}' };
    expect(readServerEvent({ type: 'response.created', response: { id: '' } })).toBeUndefined();
    expect(
      readServerEvent({ type: 'response.text.delta', response_id: '', delta: 'x' }),
    ).toBeUndefined();
    expect(
      readServerEvent({
        type: 'response.function_call_arguments.done',
        response_id: 'resp_1',
        call_id: '',
        name: 'note',
        arguments: '{}',
      }),
    ).toBeUndefined();
    expect(
      readServerEvent({
        type: 'response.output_item.done',
        response_id: 'resp_1',
        item: { ...call, call_id: '' },
      }),
    ).toBeUndefined();
    expect(
      readServerEvent({
        type: 'conversation.item.input_audio_transcription.completed',
        item_id: '',
        transcript: 'hello',
      }),
    ).toBeUndefined();
    // The same events with ids are read.
    expect(readServerEvent({ type: 'response.created', response: { id: 'r' } })).toEqual({
      type: 'response.created',
      responseId: 'r',
    });
    expect(
      readServerEvent({ type: 'response.output_item.done', response_id: 'resp_1', item: call }),
    ).toMatchObject({ type: 'function-call', callId: 'call_1' });
  });

  it("takes only the caller's message items as user items", () => {
    const item = (role: string) => ({
      type: 'conversation.item.added',
      item: { id: `item_${role}`, type: 'message', role, content: [] },
    });
    expect(readServerEvent(item('user'))).toEqual({ type: 'user-item', itemId: 'item_user' });
    // The model's own answer (and a system item) is not what the caller said.
    expect(readServerEvent(item('assistant'))).toBeUndefined();
    expect(readServerEvent(item('system'))).toBeUndefined();
  });

  it('reads a response.done without a status as completed, with its usage', () => {
    expect(
      readServerEvent({
        type: 'response.done',
        response: { id: 'resp_1', usage: { input_tokens: 12, output_tokens: 5 } },
      }),
    ).toEqual({
      type: 'response.done',
      responseId: 'resp_1',
      status: 'completed',
      reason: 'no details',
      calls: [],
      usage: { inputTokens: 12, outputTokens: 5 },
    });
    // Usage missing one of its counts is no usage.
    const partial = readServerEvent({
      type: 'response.done',
      response: { id: 'resp_2', status: 'completed', usage: { input_tokens: 12 } },
    });
    expect(partial).toBeDefined();
    expect(partial).not.toHaveProperty('usage');
  });

  it("reads the function calls of a response.done's output, and only those", () => {
    const item = (callId: string) => ({
      type: 'function_call',
      call_id: callId,
      name: 'note',
      arguments: '{"text":"x"}',
    });
    expect(
      readServerEvent({
        type: 'response.done',
        response: {
          id: 'resp_1',
          status: 'completed',
          output: [
            { type: 'message', role: 'assistant', content: [] },
            item('call_1'),
            { ...item('call_2'), name: '' },
            item('call_3'),
          ],
        },
      }),
    ).toMatchObject({
      calls: [
        { callId: 'call_1', name: 'note', arguments: '{"text":"x"}' },
        { callId: 'call_3', name: 'note', arguments: '{"text":"x"}' },
      ],
    });
  });

  it("a failed response's reason: the error's message, else the reason", () => {
    const reason = (details: unknown) =>
      readServerEvent({
        type: 'response.done',
        response: { id: 'r', status: 'failed', status_details: details },
      });
    expect(
      reason({ type: 'failed', reason: 'other', error: { message: 'upstream down' } }),
    ).toMatchObject({ status: 'failed', reason: 'upstream down' });
    expect(reason({ type: 'incomplete', reason: 'max_output_tokens' })).toMatchObject({
      reason: 'max_output_tokens',
    });
    expect(reason(null)).toMatchObject({ reason: 'no details' });
  });

  it("an error event's code is its code, its type only when it has none", () => {
    expect(
      readServerEvent({
        type: 'error',
        error: {
          type: 'invalid_request_error',
          code: 'response_cancel_not_active',
          message: 'no active response',
          event_id: 'evt_1',
        },
      }),
    ).toEqual({
      type: 'error',
      error: {
        code: 'response_cancel_not_active',
        message: 'no active response',
        eventId: 'evt_1',
      },
    });
    expect(readServerEvent({ type: 'error', error: { type: 'server_error' } })).toMatchObject({
      error: { code: 'server_error' },
    });
  });
});
