// Pre-tool speech (always / if_slow / never, shared schedule with bridge phrases) and spoken
// errors per class and language, on fake timers.
import { MockAgent } from 'undici';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadTools } from '../../../src/definition/load.js';
import { createSession } from '../../../src/session/create-session.js';
import { maySpeak } from '../../../src/session/voice/round-speech.js';
import type { SessionEvent, SessionOptions } from '../../../src/session/types.js';
import { ScriptedModel } from '../../../src/testing.js';
import { fn } from '../fixtures.js';

const tools = await loadTools([
  {
    type: 'action',
    tool: fn('transfer', {}),
    options: {
      speech: { before: { phrases: { en: 'Let me transfer you.', es: 'Le transfiero.' } } },
    },
  },
  {
    type: 'action',
    tool: fn('lookup', {}),
    options: {
      speech: { before: { mode: 'if_slow', delay_ms: 1500, phrases: { '*': ['Still looking.'] } } },
      bridge_phrases: { '*': ['Bear with me.'] },
    },
  },
  {
    type: 'action',
    tool: fn('silent', {}),
    options: { speech: { before: { mode: 'never' } } },
  },
]);

function session(tool: string, ms: number, extra: Partial<SessionOptions> = {}) {
  const says: { at: number; text: string; source: string }[] = [];
  const order: string[] = [];
  const start = Date.now();
  const act = (name: string) => () => {
    order.push(`run ${name}`);
    return new Promise((r) => setTimeout(() => r({ ok: true }), ms));
  };
  const s = createSession({
    tools,
    model: new ScriptedModel([{ tool_calls: [{ name: tool }] }, { text: 'Done.' }], {
      record: true,
    }),
    actions: { transfer: act('transfer'), lookup: act('lookup'), silent: act('silent') },
    onEvent: (e: SessionEvent) => {
      if (e.type === 'say') {
        says.push({ at: Date.now() - start, text: e.text, source: e.source });
        order.push(`say ${e.text}`);
      }
    },
    ...extra,
  });
  return { s, says, order };
}

describe('pre-tool speech', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('always: spoken as the call starts, in the session language, before the action runs', async () => {
    const { s, says, order } = session('transfer', 100, { language: 'es-US' });
    const run = s.run('x');
    await vi.advanceTimersByTimeAsync(200);
    await run;
    expect(says).toEqual([{ at: 0, text: 'Le transfiero.', source: 'pre-tool' }]);
    expect(order).toEqual(['say Le transfiero.', 'run transfer']);
  });

  it('always + speechAck host: the action waits for its own announcement', async () => {
    const { s, order } = session('transfer', 100, { speechAck: 'host' });
    const run = s.run('x');
    await vi.advanceTimersByTimeAsync(1000);
    expect(order).toEqual(['say Let me transfer you.']);
    s.spoken('sp_1');
    await vi.advanceTimersByTimeAsync(200);
    const r = await run;
    expect(order).toEqual(['say Let me transfer you.', 'run transfer']);
    expect(r.traces[0]?.speechWait?.speechIds).toEqual(['sp_1']);
  });

  it('if_slow: spoken after delay_ms only when the call is still running', async () => {
    const fast = session('lookup', 1000);
    const fastRun = fast.s.run('x');
    await vi.advanceTimersByTimeAsync(5000);
    await fastRun;
    expect(fast.says).toEqual([]);

    const slow = session('lookup', 6000);
    const slowRun = slow.s.run('x');
    await vi.advanceTimersByTimeAsync(10_000);
    await slowRun;
    expect(slow.says).toEqual([
      { at: 1500, text: 'Still looking.', source: 'pre-tool' },
      { at: 2750, text: 'Bear with me.', source: 'bridge' },
      { at: 5500, text: 'Bear with me.', source: 'bridge' },
    ]);
    // Left: only the action deadlines' idle timer (docs/handlers.md), which fires once and goes.
    expect(vi.getTimerCount()).toBe(1);
    vi.runOnlyPendingTimers();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('if_slow: nothing is said for a call that finished while another call of the round runs on', async () => {
    const says: string[] = [];
    const after = (ms: number) => () => new Promise((r) => setTimeout(() => r({ ok: true }), ms));
    const s = createSession({
      tools,
      model: new ScriptedModel([
        { tool_calls: [{ name: 'lookup' }, { name: 'silent' }] },
        { text: 'Done.' },
      ]),
      actions: { lookup: after(1000), silent: after(4000) },
      onEvent: (e: SessionEvent) => {
        if (e.type === 'say') says.push(e.text);
      },
    });
    const run = s.run('x');
    await vi.advanceTimersByTimeAsync(5000);
    const r = await run;
    expect(r.traces.map((t) => t.tool)).toEqual(['lookup', 'silent']);
    expect(says).toEqual([]);
    vi.runOnlyPendingTimers();
  });

  it('never talks over itself: a bridge phrase is skipped while the pre-tool phrase plays', async () => {
    const { s, says } = session('lookup', 6000, { speechAck: 'host' });
    const run = s.run('x');
    await vi.advanceTimersByTimeAsync(3000);
    expect(says.map((x) => x.text)).toEqual(['Still looking.']); // 2750: skipped, still playing
    s.spokenAll();
    await vi.advanceTimersByTimeAsync(7000);
    await run;
    expect(says.map((x) => [x.at, x.text])).toEqual([
      [1500, 'Still looking.'],
      [5500, 'Bear with me.'],
    ]);
  });

  it('never: nothing is spoken', async () => {
    const { s, says } = session('silent', 100);
    const run = s.run('x');
    await vi.advanceTimersByTimeAsync(200);
    await run;
    expect(says).toEqual([]);
  });

  it('lint: a mode that speaks needs phrases; mode values are checked', async () => {
    await expect(
      loadTools([{ type: 'action', tool: fn('a', {}), options: { speech: { before: {} } } }]),
    ).rejects.toThrow(/options\.speech\.before\.phrases: mode "always" needs at least one phrase/);
    await expect(
      loadTools([
        {
          type: 'action',
          tool: fn('a', {}),
          options: { speech: { before: { mode: 'sometimes', phrases: { en: 'x' } } } },
        },
      ]),
    ).rejects.toThrow(/options\.speech\.before\.mode: expected one of always\|if_slow\|never/);
  });
});

describe('spoken errors', () => {
  const ORIGIN = 'https://api.clinic.test';
  let agent: MockAgent;
  beforeEach(() => {
    agent = new MockAgent();
    agent.disableNetConnect();
  });
  afterEach(async () => {
    await agent.close();
  });

  const errorTools = loadTools([
    {
      tool: fn('book', { name: { type: 'string' } }, ['name']),
      endpoint: { url: `${ORIGIN}/book`, method: 'post', timeout: 1 },
      options: {
        speech: {
          on_error: {
            http_5xx: {
              en: 'Sorry {{args.name}}, the booking system is down.',
              es: 'Lo siento {{args.name}}, el sistema no funciona.',
            },
            http_4xx: { '*': 'That booking was refused.' },
            invalid_arguments: { en: 'I need a name for {{vars.clinic}}.' },
            '*': { '*': 'Something went wrong.' },
          },
        },
      },
    },
  ]);

  async function failWith(
    status: number | 'reset' | 'none',
    args: unknown,
    language = 'en-US',
  ): Promise<{ says: string[]; error: SessionEvent | undefined; modelSaw: string | undefined }> {
    const pool = agent.get(ORIGIN);
    if (status === 'reset')
      pool.intercept({ path: '/book', method: 'POST' }).replyWithError(new Error('reset'));
    else if (status !== 'none')
      pool.intercept({ path: '/book', method: 'POST' }).reply(status, { error: 'x' });
    const model = new ScriptedModel(
      [{ tool_calls: [{ name: 'book', args: args as Record<string, unknown> }] }, { text: 'ok' }],
      { record: true },
    );
    const s = createSession({
      tools: await errorTools,
      model,
      dispatcher: agent,
      language,
      vars: { clinic: 'Queens Clinic' },
    });
    const r = await s.run('book');
    await s.close();
    const toolMessage = model.calls[1]?.messages.find((m) => m.role === 'tool');
    return {
      says: r.events.flatMap((e) => (e.type === 'say' && e.source === 'error' ? [e.text] : [])),
      error: r.events.find((e) => e.type === 'tool-error'),
      modelSaw: toolMessage?.role === 'tool' ? toolMessage.content : undefined,
    };
  }

  it('speaks the 5xx phrase in the session language; the model still gets the structured error', async () => {
    const en = await failWith(503, { name: 'Bo' });
    expect(en.says).toEqual(['Sorry Bo, the booking system is down.']);
    expect(en.error).toMatchObject({ type: 'tool-error', code: 'http_status' });
    expect(JSON.parse(en.modelSaw ?? '{}')).toMatchObject({
      error: { code: 'http_status', status: 503 },
    });
    const es = await failWith(500, { name: 'Bo' }, 'es-MX');
    expect(es.says).toEqual(['Lo siento Bo, el sistema no funciona.']);
  });

  it('4xx, invalid arguments (over vars), and * for other classes', async () => {
    expect((await failWith(404, { name: 'Bo' })).says).toEqual(['That booking was refused.']);
    expect((await failWith('none', {})).says).toEqual(['I need a name for Queens Clinic.']);
    expect((await failWith('reset', { name: 'Bo' })).says).toEqual(['Something went wrong.']);
  });

  it('the say follows its tool-error event', async () => {
    agent.get(ORIGIN).intercept({ path: '/book', method: 'POST' }).reply(502, 'bad');
    const s = createSession({
      tools: await errorTools,
      dispatcher: agent,
      model: new ScriptedModel(
        [{ tool_calls: [{ name: 'book', args: { name: 'A' } }] }, { text: 'ok' }],
        { record: true },
      ),
    });
    const r = await s.run('x');
    const types = r.events.map((e) => (e.type === 'say' ? `say:${e.source}` : e.type));
    expect(types.indexOf('say:error')).toBe(types.indexOf('tool-error') + 1);
    await s.close();
  });
});

describe('which calls get a round speech schedule (maySpeak)', () => {
  const tool = (name: string) => {
    const def = tools.tools.get(name);
    if (def === undefined) throw new Error(`no tool ${name}`);
    return def;
  };

  it('a pre-tool phrase or bridge phrases of its own: yes; `never` and nothing: no', () => {
    expect(maySpeak(tool('transfer'), undefined)).toBe(true);
    expect(maySpeak(tool('lookup'), undefined)).toBe(true);
    expect(maySpeak(tool('silent'), undefined)).toBe(false);
  });

  it("the session's bridge phrases for the tool: yes, for that tool only", () => {
    const bridge = { phrases: { silent: { '*': ['One moment.'] } } };
    expect(maySpeak(tool('silent'), bridge)).toBe(true);
    expect(maySpeak(tool('silent'), { phrases: { other: { '*': ['x'] } } })).toBe(false);
  });

  it('a silent call next to one that speaks: only the speaking one is heard', async () => {
    vi.useFakeTimers();
    const bridge = { thresholdSecs: 0.5, phrases: { silent: { '*': ['One moment.'] } } };
    const events: SessionEvent[] = [];
    const s = createSession({
      tools,
      model: new ScriptedModel([
        {
          tool_calls: [
            { name: 'silent', args: {} },
            { name: 'transfer', args: {} },
          ],
        },
        { text: 'Done.' },
      ]),
      actions: {
        silent: () => new Promise((r) => setTimeout(() => r({ ok: true }), 700)),
        transfer: () => ({ ok: true }),
      },
      bridge,
      onEvent: (e) => events.push(e),
    });
    const turn = s.run('go');
    await vi.advanceTimersByTimeAsync(3000);
    await turn;
    const said = events.flatMap((e) => (e.type === 'say' ? [`${e.source}: ${e.text}`] : []));
    expect(said).toEqual(['pre-tool: Let me transfer you.', 'bridge: One moment.']);
  });
});
