/**
 * What a Realtime server can make switchboard keep is bounded by count: unfinished responses,
 * server-started responses waiting for a turn, remembered ids, and what one response carries.
 * Each bound is asserted as the number of things kept after a storm, never as memory or time.
 */
import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { attachRealtime, MAX_WAITING_SERVER_TURNS } from '../../src/realtime/attach-realtime.js';
import { MAX_EVENTS_PER_SLICE } from '../../src/realtime/read-slices.js';
import { MAX_OPEN_RESPONSES, MAX_RECENT_IDS } from '../../src/realtime/open-responses.js';
import { RealtimeLink } from '../../src/realtime/realtime-link.js';
import { MAX_ID_LENGTH } from '../../src/realtime/server-events.js';
import {
  MAX_RESPONSE_CALLS,
  MAX_RESPONSE_CHARS,
  type ResponseBuffer,
} from '../../src/realtime/response-buffer.js';
import type { ChatMessage } from '../../src/models/types.js';
import type { RealtimeConnection, RealtimeServerError } from '../../src/realtime/types.js';
import type { SessionEvent } from '../../src/session/types.js';

const created = (id: string) => ({ type: 'response.created', response: { id, metadata: null } });
const done = (id: string) => ({ type: 'response.done', response: { id, status: 'completed' } });
const call = (responseId: string, callId: string, args = '{}') => ({
  type: 'response.function_call_arguments.done',
  response_id: responseId,
  call_id: callId,
  name: 'note',
  arguments: args,
});
const text = (responseId: string, delta: string) => ({
  type: 'response.output_audio_transcript.delta',
  response_id: responseId,
  delta,
});

/** A link with a host that takes every server response and records what it is told. */
function linkRig(history: ChatMessage[] = []) {
  const sent: Record<string, unknown>[] = [];
  const errors: RealtimeServerError[] = [];
  const taken: ResponseBuffer[] = [];
  const link = new RealtimeLink({
    send: (e) => void sent.push(e),
    toolType: () => 'log',
    history: () => history,
    serverResponse: (b) => (taken.push(b), 'taken'),
    speechStarted: () => undefined,
    userItem: () => undefined,
    transcript: () => undefined,
    serverError: (e) => void errors.push(e),
  });
  const cancels = () => sent.filter((e) => e.type === 'response.cancel').length;
  return { link, sent, errors, taken, cancels };
}

describe('RealtimeLink bounds', () => {
  it(`keeps at most ${MAX_OPEN_RESPONSES} unfinished responses; the rest are cancelled and reported`, async () => {
    const { link, sent, errors, taken } = linkRig();
    for (let i = 0; i < 1000; i++) link.receive(created(`resp_${i}`));
    expect(link.responses.size).toBe(MAX_OPEN_RESPONSES);
    expect(taken).toHaveLength(MAX_OPEN_RESPONSES);
    // One cancel (the server runs one response: the latest) and one report per turn of the loop.
    await loopTurn();
    expect(sent.filter((e) => e.type === 'response.cancel')).toEqual([
      { type: 'response.cancel', response_id: 'resp_999' },
    ]);
    expect(errors).toEqual([
      {
        code: 'too_many_responses',
        message: `realtime: ${1000 - MAX_OPEN_RESPONSES} responses (the last resp_999) were cancelled: ${MAX_OPEN_RESPONSES} responses are already unfinished`,
      },
    ]);
    // Finished responses free their place.
    for (let i = 0; i < MAX_OPEN_RESPONSES; i++) link.receive(done(`resp_${i}`));
    expect(link.responses.size).toBe(0);
    link.receive(created('resp_next'));
    expect(link.responses.size).toBe(1);
  });

  it(`remembers the last ${MAX_RECENT_IDS} call ids and response ids, no more`, () => {
    const { link, errors } = linkRig();
    let n = 0;
    for (let r = 0; r < 60; r++) {
      link.receive(created(`resp_${r}`));
      for (let c = 0; c < 100; c++) link.receive(call(`resp_${r}`, `call_${n++}`));
      link.receive(done(`resp_${r}`));
    }
    expect(link.responses.rememberedCalls).toBe(MAX_RECENT_IDS);
    expect(link.responses.rememberedResponses).toBe(60);
    expect(errors).toEqual([]);
    // A recent id replayed is dropped; the oldest ids are forgotten (bounded memory).
    link.receive(created('resp_replay'));
    link.receive(call('resp_replay', `call_${n - 1}`));
    link.receive(call('resp_replay', 'call_0'));
    expect(errors.map((e) => e.code)).toEqual(['duplicate_call_id']);
    for (let r = 0; r < MAX_RECENT_IDS; r++)
      (link.receive(created(`more_${r}`)), link.receive(done(`more_${r}`)));
    expect(link.responses.rememberedResponses).toBe(MAX_RECENT_IDS);
  });

  it(`ignores ids longer than ${MAX_ID_LENGTH} characters (ids are remembered)`, () => {
    const { link, taken } = linkRig();
    link.receive(created('r'.repeat(MAX_ID_LENGTH + 1)));
    link.receive(created('resp_ok'));
    link.receive(call('resp_ok', 'c'.repeat(MAX_ID_LENGTH + 1)));
    expect(taken.map((b) => b.id)).toEqual(['resp_ok']);
    expect(link.responses.rememberedResponses).toBe(1);
    expect(link.responses.rememberedCalls).toBe(0);
  });

  it('a repeat naming the pending request fails that model call instead of leaving it waiting', async () => {
    const { link, sent, errors } = linkRig();
    link.receive(created('resp_x'));
    link.receive(done('resp_x'));
    const stream = link.stream({ messages: [], tools: [], signal: new AbortController().signal });
    const reading = (async () => {
      for await (const _ of stream) void _;
    })();
    await loopTurn();
    const request = sent.find((e) => e.type === 'response.create') as {
      response: { metadata: { switchboard_request: string } };
    };
    link.receive({
      type: 'response.created',
      response: { id: 'resp_x', metadata: request.response.metadata },
    });
    await expect(reading).rejects.toMatchObject({
      code: 'bad_response',
      message: expect.stringContaining('reused response id resp_x'),
    });
    expect(errors.map((e) => e.code)).toEqual(['duplicate_response']);
  });

  it('a call id of the restored history is never run again', () => {
    const { link, errors, taken } = linkRig([
      { role: 'user', content: 'pay' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_old', type: 'function', function: { name: 'note', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_old', content: '{}' },
    ]);
    link.markSynced();
    link.receive(created('resp_1'));
    link.receive(call('resp_1', 'call_old'));
    link.receive(call('resp_1', 'call_new'));
    expect(taken[0]!.kept).toBe(1);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toMatch(/replayed call id call_old of the session history/);
  });

  it(`a response with more than ${MAX_RESPONSE_CALLS} calls fails as bad_response and keeps nothing`, async () => {
    const { link, taken, cancels } = linkRig();
    link.receive(created('resp_big'));
    for (let c = 0; c < 1000; c++) link.receive(call('resp_big', `c_${c}`));
    const buffer = taken[0]!;
    expect(buffer.kept).toBe(0);
    expect(link.responses.size).toBe(0);
    expect(cancels()).toBe(1);
    await expect(drain(buffer)).rejects.toMatchObject({
      code: 'bad_response',
      message: expect.stringContaining(`more than ${MAX_RESPONSE_CALLS} function calls`),
    });
  });

  it(`a response with more than ${MAX_RESPONSE_CHARS} characters fails as bad_response and keeps nothing`, async () => {
    const { link, taken } = linkRig();
    link.receive(created('resp_long'));
    const chunk = 'x'.repeat(64 * 1024);
    for (let i = 0; i < 40; i++) link.receive(text('resp_long', chunk));
    const buffer = taken[0]!;
    expect(buffer.kept).toBe(0);
    expect(link.responses.size).toBe(0);
    await expect(drain(buffer)).rejects.toMatchObject({ code: 'bad_response' });
  });
});

describe('attachRealtime bounds', () => {
  it(`lets at most ${MAX_WAITING_SERVER_TURNS} server-started responses wait for a turn; the rest are cancelled`, async () => {
    const { connection, emit, sent } = memoryConnection();
    const events: SessionEvent[] = [];
    const errors: RealtimeServerError[] = [];
    const attachment = attachRealtime({
      connection,
      onServerError: (e) => errors.push(e),
      session: { tools: await loadTools([]), onEvent: (e) => events.push(e) },
    });
    // One synchronous storm: no turn starts in between.
    for (let i = 0; i < 1000; i++) emit(created(`resp_${i}`));
    await loopTurn();
    const cancelled = sent.filter((e) => e.type === 'response.cancel').map((e) => e.response_id);
    expect(cancelled).toEqual(['resp_999']);
    expect(errors.map((e) => e.code)).toEqual(['too_many_responses']);
    expect(errors[0]!.message).toContain(`${1000 - MAX_WAITING_SERVER_TURNS} responses`);
    for (let i = 0; i < MAX_WAITING_SERVER_TURNS; i++) emit(done(`resp_${i}`));
    await attachment.session.idle();
    expect(events.filter((e) => e.type === 'turn-end')).toHaveLength(MAX_WAITING_SERVER_TURNS);
    // The waiting places are free again.
    emit(created('resp_later'));
    emit(done('resp_later'));
    await attachment.session.idle();
    expect(events.filter((e) => e.type === 'turn-end')).toHaveLength(MAX_WAITING_SERVER_TURNS + 1);
    await attachment.close();
  });
});

describe('attachRealtime reading', () => {
  it(`pauses the socket after ${MAX_EVENTS_PER_SLICE} events until the event loop has turned`, async () => {
    const { connection, emit } = memoryConnection();
    const calls: string[] = [];
    const socketed: RealtimeConnection = {
      ...connection,
      socket: {
        readyState: 1,
        on: () => undefined,
        pause: () => void calls.push('pause'),
        resume: () => void calls.push('resume'),
      },
    };
    const attachment = attachRealtime({
      connection: socketed,
      session: { tools: await loadTools([]) },
    });
    const noise = { type: 'response.output_audio.delta', response_id: 'r', delta: 'AAAA' };
    for (let i = 0; i < MAX_EVENTS_PER_SLICE - 1; i++) emit(noise);
    expect(calls).toEqual([]);
    for (let i = 0; i < 1000; i++) emit(noise); // events the socket had already read
    expect(calls).toEqual(['pause']);
    await loopTurn();
    expect(calls).toEqual(['pause', 'resume']);
    for (let i = 0; i < MAX_EVENTS_PER_SLICE - 1; i++) emit(noise); // a new slice
    expect(calls).toEqual(['pause', 'resume']);
    await attachment.close();
  });

  it('does not resume a socket paused before the attachment was closed', async () => {
    const { connection, emit } = memoryConnection();
    const calls: string[] = [];
    const attachment = attachRealtime({
      connection: {
        ...connection,
        socket: {
          readyState: 1,
          on: () => undefined,
          pause: () => void calls.push('pause'),
          resume: () => void calls.push('resume'),
        },
      },
      session: { tools: await loadTools([]) },
    });
    const noise = { type: 'response.output_audio.delta', response_id: 'r', delta: 'AAAA' };
    for (let i = 0; i < MAX_EVENTS_PER_SLICE; i++) emit(noise);
    expect(calls).toEqual(['pause']);
    await attachment.close();
    await loopTurn();
    // The connection was let go: its reading is the host's again.
    expect(calls).toEqual(['pause']);
  });
});

const loopTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

async function drain(buffer: ResponseBuffer): Promise<void> {
  for await (const _ of buffer.read(new AbortController().signal)) void _;
}

/** A Realtime connection in memory: `emit` delivers a server event synchronously. */
function memoryConnection() {
  const sent: Record<string, unknown>[] = [];
  let listener: ((event: unknown) => void) | undefined;
  const connection: RealtimeConnection = {
    send: (e) => void sent.push(e as unknown as Record<string, unknown>),
    on: (type: string, l: (event: unknown) => void) => {
      if (type === 'event') listener = l;
    },
  };
  return { connection, sent, emit: (event: object) => listener?.(event) };
}
