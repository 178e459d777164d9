/**
 * attachRealtime's own handling of events (docs/realtime.md, "What happens, event by event"),
 * driven through an in-memory connection whose `emit` delivers a server event synchronously:
 * errors reported once, the transcription model named on a language switch, queued says dropped
 * on barge-in, waiting places freed by `restore`, transcripts patching only the turn's own
 * message, and nothing sent once the attachment is closed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { actionResult } from '../../src/handlers/action-result.js';
import { attachRealtime, MAX_WAITING_SERVER_TURNS } from '../../src/realtime/attach-realtime.js';
import type {
  AttachRealtimeOptions,
  RealtimeAttachment,
  RealtimeConnection,
  RealtimeServerError,
} from '../../src/realtime/types.js';
import type { SessionEvent } from '../../src/session/types.js';
import { realtimeRig, until, type RealtimeRig } from './helpers.js';

const language = {
  type: 'context',
  tool: {
    type: 'function',
    function: {
      name: 'set_language',
      parameters: {
        type: 'object',
        properties: { language: { type: 'string' } },
        required: ['language'],
      },
    },
  },
  defaults: { message: { transform: { action: 'default', value: 'Claro, en español.' } } },
};
const transfer = {
  type: 'action',
  tool: {
    type: 'function',
    function: { name: 'transfer', parameters: { type: 'object', properties: {} } },
  },
};

const created = (id: string, requestId?: string) => ({
  type: 'response.created',
  response: {
    id,
    metadata: requestId === undefined ? null : { switchboard_request: requestId },
  },
});
const done = (id: string) => ({ type: 'response.done', response: { id, status: 'completed' } });
const call = (responseId: string, callId: string, name: string, args: object) => ({
  type: 'response.function_call_arguments.done',
  response_id: responseId,
  call_id: callId,
  name,
  arguments: JSON.stringify(args),
});
const text = (responseId: string, delta: string) => ({
  type: 'response.output_audio_transcript.delta',
  response_id: responseId,
  delta,
});
const userItem = (id: string) => ({
  type: 'conversation.item.added',
  item: { id, type: 'message', role: 'user', content: [] },
});
const transcript = (itemId: string, text: string) => ({
  type: 'conversation.item.input_audio_transcription.completed',
  item_id: itemId,
  transcript: text,
});
const loopTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A Realtime connection in memory: `emit` delivers a server event, `fail` a transport error. */
function memoryConnection() {
  const sent: Record<string, unknown>[] = [];
  const listeners = new Map<string, (value: unknown) => void>();
  const connection: RealtimeConnection = {
    send: (e) => void sent.push(e as unknown as Record<string, unknown>),
    on: (type: string, l: (value: unknown) => void) => void listeners.set(type, l),
  };
  return {
    connection,
    sent,
    emit: (event: object) => listeners.get('event')?.(event),
    fail: (error: unknown) => listeners.get('error')?.(error),
  };
}

let attachment: RealtimeAttachment | undefined;
let rig: RealtimeRig | undefined;
afterEach(async () => {
  await attachment?.close();
  await rig?.close();
  attachment = undefined;
  rig = undefined;
});

async function attach(
  options: Partial<Omit<AttachRealtimeOptions, 'connection' | 'session'>> & {
    tools?: unknown[];
    session?: Partial<AttachRealtimeOptions['session']>;
  } = {},
) {
  const memory = memoryConnection();
  const events: SessionEvent[] = [];
  const errors: RealtimeServerError[] = [];
  const { tools = [], session, ...rest } = options;
  attachment = attachRealtime({
    connection: memory.connection,
    onServerError: (e) => errors.push(e),
    ...rest,
    session: { tools: await loadTools(tools), ...session, onEvent: (e) => events.push(e) },
  });
  return { ...memory, events, errors, attachment };
}

/** A server-started response calling set_language: the turn's say waits behind it. */
async function languageTurn(options: Parameters<typeof attach>[0] = {}) {
  const rt = await attach({
    tools: [language],
    session: { languages: ['en-US', 'es-US'] },
    ...options,
  });
  rt.emit(created('resp_1'));
  rt.emit(call('resp_1', 'call_1', 'set_language', { language: 'es-US' }));
  await until(() => rt.events.some((e) => e.type === 'say'), 'say');
  return rt;
}

const creates = (sent: Record<string, unknown>[]) =>
  sent.filter((e) => e.type === 'response.create');
/** The request id switchboard put in a `response.create` (the server echoes it). */
const requestOf = (create: Record<string, unknown>) =>
  (create.response as { metadata: { switchboard_request: string } }).metadata.switchboard_request;

describe('attachRealtime events', () => {
  it('a language switch names the transcription model given', async () => {
    const rt = await languageTurn({ transcriptionModel: 'whisper-1' });
    const update = rt.sent.filter((e) => e.type === 'session.update').at(-1)!;
    expect(update.session).toMatchObject({
      audio: { input: { transcription: { model: 'whisper-1', language: 'es' } } },
    });
  });

  it("the caller's speech drops the say queued behind the running response", async () => {
    const rt = await languageTurn();
    // The message is queued: the server runs one response at a time.
    expect(creates(rt.sent)).toEqual([]);
    rt.emit({ type: 'input_audio_buffer.speech_started' });
    rt.emit(done('resp_1'));
    await rt.attachment.session.idle();
    await loopTurn();
    expect(creates(rt.sent)).toEqual([]);
    // The call's output still reaches the server.
    expect(
      rt.sent.filter(
        (e) =>
          e.type === 'conversation.item.create' &&
          (e.item as { type: string }).type === 'function_call_output',
      ),
    ).toHaveLength(1);
  });

  it('restore frees the places of the server-started turns it drops', async () => {
    const rt = await attach();
    const state = rt.attachment.session.toJSON();
    // The first turn runs; three wait behind it.
    for (let i = 0; i < 4; i++) rt.emit(created(`resp_${i}`));
    await until(() => rt.events.some((e) => e.type === 'turn-start'), 'turn-start');
    await rt.attachment.restore(state);
    // The restored session has all its waiting places.
    for (let i = 0; i < 4; i++) rt.emit(created(`resp_after_${i}`));
    await loopTurn();
    expect(rt.errors).toEqual([]);
    expect(rt.sent.filter((e) => e.type === 'response.cancel')).toEqual([]);
  });

  it('a session restored after the call ended takes the caller’s next response', async () => {
    const rt = await attach({
      tools: [transfer],
      session: { actions: { transfer: () => actionResult({ endSession: true }) } },
    });
    const state = rt.attachment.session.toJSON();
    void rt.attachment.session.send('transfer me').result.catch(() => undefined);
    await until(() => creates(rt.sent).length === 1, 'response.create');
    rt.emit(created('resp_1', requestOf(creates(rt.sent)[0]!)));
    rt.emit(call('resp_1', 'call_1', 'transfer', {}));
    rt.emit(done('resp_1'));
    await until(() => rt.events.some((e) => e.type === 'session-end'), 'session-end');
    await rt.attachment.restore(state);
    rt.emit(created('resp_2'));
    await loopTurn();
    expect(rt.sent.filter((e) => e.type === 'response.cancel')).toEqual([]);
    expect(rt.events.filter((e) => e.type === 'turn-start')).toHaveLength(2);
  });

  it('with transcriptWaitMs, the turn starts when the transcript arrives, carrying it', async () => {
    // A wait far longer than the test: only the transcript can start the turn in time.
    const rt = await attach({ transcriptWaitMs: 600_000 });
    rt.emit(userItem('item_1'));
    rt.emit(created('resp_1'));
    await loopTurn();
    expect(rt.events.filter((e) => e.type === 'turn-start')).toEqual([]);
    rt.emit(transcript('item_1', 'I need a refill'));
    await until(() => rt.events.some((e) => e.type === 'turn-start'), 'turn-start');
    expect(rt.events.find((e) => e.type === 'turn-start')).toMatchObject({
      user: 'I need a refill',
    });
  });

  it('a response waiting for its transcript is cancelled when the session ended meanwhile', async () => {
    let release: () => void = () => undefined;
    const released = new Promise<void>((r) => (release = r));
    const rt = await attach({
      transcriptWaitMs: 600_000,
      tools: [transfer],
      session: {
        actions: { transfer: async () => (await released, actionResult({ endSession: true })) },
      },
    });
    // The caller's turn hands off; the transfer runs after its response.
    rt.emit(created('resp_0'));
    rt.emit(call('resp_0', 'call_1', 'transfer', {}));
    rt.emit(done('resp_0'));
    await until(() => rt.events.some((e) => e.type === 'tool-call'), 'the transfer started');
    // The caller speaks again: the server answers; the turn waits for the transcript.
    rt.emit(userItem('item_1'));
    rt.emit(created('resp_1'));
    release();
    await until(() => rt.events.some((e) => e.type === 'session-end'), 'session-end');
    rt.emit(transcript('item_1', 'wait, one more thing'));
    expect(rt.sent.filter((e) => e.type === 'response.cancel')).toEqual([
      { type: 'response.cancel', response_id: 'resp_1' },
    ]);
  });

  it('variables a call changes after a barge-in are sent with session.update at once', async () => {
    let release: () => void = () => undefined;
    const released = new Promise<void>((r) => (release = r));
    const rt = await attach({
      tools: [transfer],
      session: {
        prompt: 'The caller is {{vars.name}}.',
        vars: { name: 'unknown' },
        actions: {
          transfer: async () => (await released, actionResult({ vars: { name: 'Ada' } })),
        },
      },
    });
    rt.emit(created('resp_1'));
    rt.emit(call('resp_1', 'call_1', 'transfer', {}));
    rt.emit(done('resp_1'));
    await until(() => rt.events.some((e) => e.type === 'tool-call'), 'the transfer started');
    // The caller barges in: the turn ends without another model call, the transfer finishes.
    rt.emit({ type: 'input_audio_buffer.speech_started' });
    release();
    await until(() => rt.events.some((e) => e.type === 'vars'), 'vars');
    await rt.attachment.session.idle();
    // The server has the new prompt before the caller's next response starts.
    const update = rt.sent.filter((e) => e.type === 'session.update').at(-1)!;
    expect((update.session as { instructions: string }).instructions).toContain(
      'The caller is Ada.',
    );
  });

  it("a typed turn and the caller's speech each read their own response", async () => {
    const rt = await attach();
    const typed = rt.attachment.session.send('typed question');
    // The caller speaks before the typed turn asked: the server answers the speech first.
    rt.emit(created('resp_speech'));
    rt.emit(text('resp_speech', 'Answer to the speech.'));
    rt.emit(done('resp_speech'));
    await until(() => creates(rt.sent).length === 1, 'the typed turn’s response.create');
    rt.emit(created('resp_typed', requestOf(creates(rt.sent)[0]!)));
    rt.emit(text('resp_typed', 'Answer to the text.'));
    rt.emit(done('resp_typed'));
    expect((await typed.result).content).toBe('Answer to the text.');
    await rt.attachment.session.idle();
    const ends = rt.events.filter((e) => e.type === 'turn-end').map((e) => e.content);
    expect(ends).toEqual(['Answer to the text.', 'Answer to the speech.']);
  });

  it('typed turns do not widen the bound on server-started responses waiting', async () => {
    const rt = await attach();
    for (let i = 0; i < 2; i++) {
      const typed = rt.attachment.session.send(`typed ${i}`);
      await until(() => creates(rt.sent).length === i + 1, 'response.create');
      rt.emit(created(`resp_typed_${i}`, requestOf(creates(rt.sent)[i]!)));
      rt.emit(done(`resp_typed_${i}`));
      await typed.result;
    }
    for (let i = 0; i < 100; i++) rt.emit(created(`resp_${i}`));
    await loopTurn();
    expect(rt.errors.map((e) => e.message)).toEqual([
      expect.stringContaining(`${100 - MAX_WAITING_SERVER_TURNS} responses`),
    ]);
  });

  it("a late transcript does not overwrite a restored history's message", async () => {
    const rt = await attach();
    const state = rt.attachment.session.toJSON();
    rt.emit({
      type: 'conversation.item.added',
      item: { id: 'item_1', type: 'message', role: 'user', content: [] },
    });
    rt.emit(created('resp_1'));
    await until(() => rt.events.some((e) => e.type === 'turn-start'), 'turn-start');
    await rt.attachment.restore({
      ...state,
      history: [
        { role: 'user', content: 'typed before' },
        { role: 'assistant', content: 'ok' },
      ],
    });
    // The transcript of the old session's turn arrives after the restore.
    rt.emit({
      type: 'conversation.item.input_audio_transcription.completed',
      item_id: 'item_1',
      transcript: 'spoken in the old turn',
    });
    expect(rt.attachment.session.toJSON().history[0]).toEqual({
      role: 'user',
      content: 'typed before',
    });
  });

  it('sends nothing once closed, even when a call in flight finishes after', async () => {
    let started = false;
    let release: () => void = () => undefined;
    const released = new Promise<void>((r) => (release = r));
    const rt = await attach({
      tools: [transfer],
      session: { actions: { transfer: async () => ((started = true), await released, {}) } },
    });
    void rt.attachment.session.send('transfer me').result.catch(() => undefined);
    await until(() => creates(rt.sent).length === 1, 'response.create');
    rt.emit(created('resp_1', requestOf(creates(rt.sent)[0]!)));
    rt.emit(call('resp_1', 'call_1', 'transfer', {}));
    rt.emit(done('resp_1'));
    await until(() => started, 'the action started');
    const before = rt.sent.length;
    const closing = rt.attachment.close();
    release();
    await closing;
    expect(rt.sent.slice(before)).toEqual([]);
  });
});

describe('attachRealtime errors, with the openai package’s OpenAIRealtimeWS', () => {
  const note = {
    type: 'log',
    tool: { type: 'function', function: { name: 'note', parameters: { type: 'object' } } },
  };

  it('a server error event is reported once (the client emits it as event and as error)', async () => {
    rig = await realtimeRig({ tools: [note], steps: [] });
    rig.server.emit({
      type: 'error',
      error: { type: 'invalid_request_error', code: 'rate_limit_exceeded', message: 'slow down' },
    });
    await until(() => rig!.log.includes('error'), 'the error event');
    await loopTurn();
    expect(rig.serverErrors).toEqual([{ code: 'rate_limit_exceeded', message: 'slow down' }]);
  });

  it('a transport error is reported as transport', async () => {
    rig = await realtimeRig({ tools: [note], steps: [] });
    // What the ws socket emits when the connection breaks; the client passes it on as `error`.
    rig.client.socket.emit('error', new Error('read ECONNRESET'));
    expect(rig.serverErrors).toEqual([{ code: 'transport', message: 'read ECONNRESET' }]);
  });

  it('a transport error of a connection of its own is reported as transport', async () => {
    const rt = await attach();
    rt.fail(new Error('socket hang up'));
    // A server error passed on as an error (as OpenAIRealtimeWS does) is not reported again.
    rt.fail(Object.assign(new Error('slow down'), { error: { code: 'rate_limit_exceeded' } }));
    expect(rt.errors).toEqual([{ code: 'transport', message: 'socket hang up' }]);
  });
});
