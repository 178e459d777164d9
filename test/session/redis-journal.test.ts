// The tool-call journal across a crash: a process dies mid-turn (its Redis connection is cut, so
// its lease expires); another process resumes the session, answers the journaled side-effecting
// call from the journal or with `outcome_unknown`, and never dispatches it again.
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it, inject } from 'vitest';
import { createClient } from 'redis';
import { createSession, resumeSession } from '../../src/session/create-session.js';
import { RedisSessionStore } from '../../src/redis/redis-store.js';
import type { ChatMessage, Model, ModelRequest, ModelStreamPart } from '../../src/models/types.js';
import { ScriptedModel } from '../../src/testing.js';
import { clinicTools } from './fixtures.js';

const url = inject('redisUrl');
const tools = await clinicTools();
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers) await close().catch(() => undefined);
});

/** Two "processes": stores with their own connections on one key prefix. */
async function twoProcesses() {
  const keyPrefix = `journal:${randomUUID()}:`;
  // A's lease must outlive a loaded machine's stalls until the test cuts A (at 300 ms, a stall of
  // 200 ms lost it before the call was journaled, and the test waited for a dispatch that never
  // came); B then waits for it to expire, at most this long.
  const options = { url, keyPrefix, leaseTtlMs: 2_000, leaseWaitMs: 10_000 };
  // Process A's client is made here so the test can cut it, as SIGKILL would.
  const clientA = createClient({ url });
  clientA.on('error', () => undefined);
  await clientA.connect();
  const a = new RedisSessionStore({ ...options, client: clientA });
  const b = await RedisSessionStore.connect(options);
  closers.push(() => b.close());
  // A third connection, the test's own, to look at the keys.
  const probe = createClient({ url });
  await probe.connect();
  closers.push(() => probe.close());
  /**
   * A dies: its connection cut, as SIGKILL would, and its lease run out at once, as its TTL would
   * (Redis's own expiry, made now: waiting the TTL out was most of these tests' time).
   */
  const crashA = async (id: string): Promise<void> => {
    clientA.destroy();
    await probe.pExpire(`${keyPrefix}l:${id}`, 1);
  };
  return { a, b, cutA: () => clientA.destroy(), crashA, keyPrefix, probe };
}

/**
 * A model that calls `book` once per user message (call id from the turn), then answers with what
 * it saw; `hangAfterTool` makes the answer never come (the process "dies" there).
 */
function bookingModel(hangAfterTool = false): Model & { seen: ChatMessage[][] } {
  const seen: ChatMessage[][] = [];
  return {
    name: 'booking',
    seen,
    async *stream(request: ModelRequest): AsyncIterable<ModelStreamPart> {
      seen.push([...request.messages]);
      const last = request.messages.at(-1);
      if (last?.role === 'user') {
        const turn = request.messages.filter((m) => m.role === 'user').length;
        yield {
          type: 'tool-call',
          call: { id: `book_${turn}`, name: 'book', arguments: '{"city":"Queens"}' },
        };
      } else {
        if (hangAfterTool) await new Promise(() => undefined);
        yield { type: 'text-delta', text: `saw ${last?.content ?? ''}` };
      }
      yield { type: 'finish' };
    },
  };
}

describe('tool-call journal', () => {
  it('a call whose process died before its result answers outcome_unknown and is never redone', async () => {
    const { a, b, crashA } = await twoProcesses();
    const dispatched: string[] = [];
    const never = new Promise<never>(() => undefined);
    const sa = createSession({
      tools,
      id: 's1',
      store: a,
      model: bookingModel(),
      actions: {
        book: (_args, ctx) => {
          dispatched.push(`a:${ctx.callId}`);
          return never;
        },
      },
    });
    await waitFor(() => dispatched.length === 1, sa.run('book me'));
    await crashA('s1');

    const model = bookingModel();
    const actions = {
      book: (_args: unknown, ctx: { callId: string }) => (
        dispatched.push(`b:${ctx.callId}`),
        'booked'
      ),
    };
    const sb =
      (await resumeSession('s1', { tools, model, store: b, actions })) ??
      createSession({ tools, id: 's1', model, store: b, actions });
    const result = await sb.run('are you there?');
    expect(dispatched).toEqual(['a:book_1', 'b:book_2']);
    const history = result.state.history;
    expect(history.slice(0, 3)).toEqual([
      { role: 'user', content: 'book me' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'book_1',
            type: 'function',
            function: { name: 'book', arguments: '{"city":"Queens"}' },
          },
        ],
      },
      {
        role: 'tool',
        tool_call_id: 'book_1',
        content: expect.stringContaining('"code":"outcome_unknown"'),
      },
    ]);
    expect(history.filter((m) => m.role === 'tool' && m.tool_call_id === 'book_1')).toHaveLength(1);
    expect(result.state.turns).toBe(2);
    expect((await b.get('s1'))?.turns).toBe(2);
  });

  it('a call whose result was journaled before the crash is answered from the journal', async () => {
    const { a, b, crashA, keyPrefix, probe } = await twoProcesses();
    let calls = 0;
    const sa = createSession({
      tools,
      id: 's2',
      store: a,
      model: bookingModel(true),
      actions: { book: () => (calls++, { booking: 'Q-17' }) },
    });
    await waitFor(() => calls === 1, sa.run('book me'));
    // The result record goes out while the model runs on: read until it is there (no clock).
    const journal = `${keyPrefix}j:s2`;
    while (!(await probe.lRange(journal, 0, -1)).some((r) => r.includes('Q-17')))
      await new Promise((r) => setTimeout(r, 10));
    await crashA('s2');

    const model = bookingModel();
    const sb = createSession({
      tools,
      id: 's2',
      model,
      store: b,
      actions: { book: () => (calls++, 'again') },
    });
    await sb.run('thanks');
    expect(calls).toBe(2); // book_1 once in A, book_2 (the new turn) once in B
    const toolMessages = (await b.get('s2'))?.history.filter((m) => m.role === 'tool');
    expect(toolMessages?.[0]).toEqual({
      role: 'tool',
      tool_call_id: 'book_1',
      content: '{"booking":"Q-17"}',
    });
    // The model of the resumed session saw the journaled result.
    expect(
      model.seen[0]?.some((m) => m.role === 'tool' && m.content === '{"booking":"Q-17"}'),
    ).toBe(true);
  });

  it('a call whose journal record fails is not made: not_available, never dispatched', async () => {
    const { a, cutA } = await twoProcesses();
    let booked = 0;
    let calls = 0;
    // The store's connection is cut after the lease was taken, before the call is recorded.
    const model: Model = {
      name: 'cut',
      async *stream() {
        if (calls++ === 0) {
          cutA();
          yield {
            type: 'tool-call',
            call: { id: 'b1', name: 'book', arguments: '{"city":"Queens"}' },
          };
        } else yield { type: 'text-delta', text: 'sorry' };
        yield { type: 'finish' };
      },
    };
    const errors: string[] = [];
    const s = createSession({
      tools,
      id: 's5',
      store: a,
      model,
      actions: { book: () => (booked++, 'ok') },
      onEvent: (e) => {
        if (e.type === 'tool-error') errors.push(e.code);
      },
    });
    // The turn's save fails too (the connection is gone); only the call matters here.
    await s.run('go').catch(() => undefined);
    expect(booked).toBe(0);
    expect(errors).toEqual(['not_available']);
  });

  it('journals only side-effecting calls, and a saved turn leaves no journal', async () => {
    const { a, b, crashA } = await twoProcesses();
    const done = createSession({
      tools,
      id: 's3',
      store: b,
      model: bookingModel(),
      actions: { book: () => 'ok' },
    });
    await done.run('go');
    let lease = await b.coordination.acquire('s3');
    expect(lease.openTurns).toEqual([]);
    await lease.release();

    let noted = false;
    const hang: Model = {
      name: 'notes',
      async *stream(request) {
        if (request.messages.at(-1)?.role === 'tool') {
          noted = true;
          await new Promise(() => undefined);
        }
        yield { type: 'tool-call', call: { id: 'n1', name: 'note', arguments: '{"text":"x"}' } };
        yield { type: 'finish' };
      },
    };
    await waitFor(() => noted, createSession({ tools, id: 's4', store: a, model: hang }).run('go'));
    await crashA('s4');
    lease = await b.coordination.acquire('s4');
    expect(lease.openTurns).toEqual([]);
    await lease.release();
  });

  // Before: each of a step's calls journaled in parallel wrote the turn's start record, and the
  // resuming process refused the second one as tampering ("turn 1 was already started"): the
  // first turn after a crash failed with InvalidSnapshotError.
  it('calls made in parallel before a crash are recovered without a refusal', async () => {
    const { a, b, crashA, keyPrefix, probe } = await twoProcesses();
    const dispatched: string[] = [];
    const never = new Promise<never>(() => undefined);
    const hang = (_args: unknown, ctx: { callId: string }) => (dispatched.push(ctx.callId), never);
    const sa = createSession({
      tools,
      id: 's5',
      store: a,
      model: new ScriptedModel([
        { tool_calls: [{ name: 'book', args: { city: 'Queens' } }, { name: 'slow_action' }] },
      ]),
      actions: { book: hang, slow_action: hang },
    });
    await waitFor(() => dispatched.length === 2, sa.run('book and wait'));
    const journal = await probe.lRange(`${keyPrefix}j:s5`, 0, -1);
    expect(journal.filter((r) => r.includes('"t":"turn"'))).toHaveLength(1);
    await crashA('s5');

    const options = {
      tools,
      store: b,
      model: new ScriptedModel([{ text: 'sorry' }]),
      actions: { book: hang, slow_action: hang },
    };
    // Never saved (it crashed in its first turn): a new session over the id recovers the journal.
    const sb = (await resumeSession('s5', options)) ?? createSession({ ...options, id: 's5' });
    const result = await sb.run('hello?');
    const unknown = result.state.history.filter(
      (m) => m.role === 'tool' && String(m.content).includes('"code":"outcome_unknown"'),
    );
    expect(unknown.map((m) => (m.role === 'tool' ? m.tool_call_id : ''))).toEqual(dispatched);
    expect(dispatched).toHaveLength(2);
  });
});

/**
 * Waits until `done()`, however slow the machine; the turn that should get there (it never ends
 * on its own: its process is cut) failing first fails the test with its error instead of a hang.
 */
async function waitFor(done: () => boolean, turn: Promise<unknown>): Promise<void> {
  let failed: unknown;
  let ended = false;
  turn.then(
    () => (ended = true),
    (error: unknown) => ((ended = true), (failed = error ?? 'rejected')),
  );
  while (!done()) {
    if (ended) throw new Error(`the turn ended before it got there: ${String(failed)}`);
    await new Promise((r) => setTimeout(r, 10));
  }
  // Cutting its process fails the turn later; that is the test's doing.
  turn.catch(() => undefined);
}
