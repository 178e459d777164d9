// Side-effect classes: defaults, dedupe of identical calls, Idempotency-Key, retries, cancellation.
import { MockAgent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { loadTools } from '../../../src/definition/load.js';
import {
  defaultSideEffectClass,
  idempotencyKey,
  isCancellable,
  sideEffectClass,
} from '../../../src/definition/side-effects.js';
import { createSession, restoreSession } from '../../../src/session/create-session.js';
import { isJournaled } from '../../../src/entries/handlers.js';
import { ScriptedModel } from '../../../src/testing.js';
import { actionResult } from '../../../src/handlers/action-result.js';
import { fn } from '../fixtures.js';

const ORIGIN = 'https://api.shop.test';
const json = { headers: { 'content-type': 'application/json' } };

function mock(): MockAgent {
  const agent = new MockAgent();
  agent.disableNetConnect();
  return agent;
}

let agent: MockAgent | undefined;
afterEach(async () => {
  await agent?.close();
  agent = undefined;
});

describe('side-effect classes', () => {
  it('defaults from type and method, overridden by options.side_effects', async () => {
    expect(defaultSideEffectClass('endpoint', 'get')).toBe('none');
    expect(defaultSideEffectClass('endpoint', 'put')).toBe('idempotent');
    expect(defaultSideEffectClass('endpoint', 'delete')).toBe('idempotent');
    expect(defaultSideEffectClass('endpoint', 'post')).toBe('unsafe');
    expect(defaultSideEffectClass('action', undefined)).toBe('unsafe');
    expect(defaultSideEffectClass('context', undefined)).toBe('none');
    expect(defaultSideEffectClass('log', undefined)).toBe('none');
    const set = await loadTools([
      {
        tool: fn('search', {}),
        endpoint: { url: `${ORIGIN}/search`, method: 'post' },
        options: { side_effects: 'none' },
      },
      {
        tool: fn('charge', {}),
        endpoint: { url: `${ORIGIN}/charge`, method: 'put' },
        options: { sideEffects: 'unsafe' },
      },
      { tool: fn('save', {}), endpoint: { url: `${ORIGIN}/save`, method: 'put' } },
    ]);
    expect(sideEffectClass(set.tools.get('search')!)).toBe('none');
    expect(isCancellable(set.tools.get('search')!)).toBe(true);
    expect(sideEffectClass(set.tools.get('charge')!)).toBe('unsafe');
    // Only class none may be cancelled: a started idempotent or unsafe call runs to the end.
    expect(sideEffectClass(set.tools.get('save')!)).toBe('idempotent');
    expect(isCancellable(set.tools.get('save')!)).toBe(false);
    expect(isCancellable(set.tools.get('charge')!)).toBe(false);
    // Session stores journal exactly the calls of the classes with a side effect.
    expect(isJournaled(set.tools.get('search')!)).toBe(false);
    expect(isJournaled(set.tools.get('charge')!)).toBe(true);
  });

  it('refuses an unknown class and both spellings at load, with the path', async () => {
    await expect(
      loadTools([{ type: 'action', tool: fn('a', {}), options: { side_effects: 'maybe' } }]),
    ).rejects.toThrow(
      /tools\[0\]\.options\.side_effects: expected one of none\|idempotent\|unsafe/,
    );
    await expect(
      loadTools([
        {
          type: 'action',
          tool: fn('a', {}),
          options: { side_effects: 'none', sideEffects: 'none' },
        },
      ]),
    ).rejects.toThrow(/options\.sideEffects: both "side_effects" and "sideEffects"/);
  });
});

describe('dedupe of identical calls in one round', () => {
  it('runs an unsafe action once and answers both ids with its result', async () => {
    const tools = await loadTools([
      { type: 'action', tool: fn('book', { day: { type: 'string' } }) },
      { type: 'action', tool: fn('peek', {}), options: { side_effects: 'none' } },
    ]);
    let booked = 0;
    let peeked = 0;
    const model = new ScriptedModel([
      {
        tool_calls: [
          { name: 'book', args: { day: 'mon' }, id: 'c1' },
          { name: 'book', args: { day: 'mon' }, id: 'c2' },
          { name: 'book', args: { day: 'tue' }, id: 'c3' },
          { name: 'peek', id: 'c4' },
          { name: 'peek', id: 'c5' },
        ],
      },
      { text: 'Booked.' },
    ]);
    const s = createSession({
      tools,
      model,
      actions: {
        book: (args) => ({ booking: ++booked, day: args['day'] }),
        peek: () => ({ n: ++peeked }),
      },
    });
    const r = await s.run('book monday twice');
    expect(booked).toBe(2);
    expect(peeked).toBe(2); // class none: not deduped
    const results = r.events.flatMap((e) =>
      e.type === 'tool-result' && e.tool === 'book' ? [[e.callId, e.output]] : [],
    );
    expect(results).toEqual([
      ['c1', { booking: 1, day: 'mon' }],
      ['c2', { booking: 1, day: 'mon' }],
      ['c3', { booking: 2, day: 'tue' }],
    ]);
    expect(r.traces.find((t) => t.callId === 'c2')?.dedupedFrom).toBe('c1');
    const toolMessages = s.toJSON().history.filter((m) => m.role === 'tool');
    expect(toolMessages.map((m) => (m.role === 'tool' ? m.tool_call_id : ''))).toEqual([
      'c1',
      'c2',
      'c3',
      'c4',
      'c5',
    ]);
  });
  it('dedupes by the final arguments whatever their key order, and only within one tool', async () => {
    const tools = await loadTools([
      { type: 'action', tool: fn('book', { day: { type: 'string' }, at: { type: 'string' } }) },
      { type: 'action', tool: fn('hold', { day: { type: 'string' }, at: { type: 'string' } }) },
    ]);
    const ran: string[] = [];
    const model = new ScriptedModel([
      {
        tool_calls: [
          { name: 'book', args: { day: 'mon', at: '9' }, id: 'c1' },
          { name: 'hold', args: { day: 'mon', at: '9' }, id: 'c2' },
          { name: 'book', args: { at: '10', day: 'mon' }, id: 'c3' },
          { name: 'book', args: { at: '9', day: 'mon' }, id: 'c4' },
        ],
      },
      { text: 'Done.' },
    ]);
    const s = createSession({
      tools,
      model,
      actions: {
        book: (args) => (ran.push(`book ${String(args['at'])}`), { ok: true }),
        hold: (args) => (ran.push(`hold ${String(args['at'])}`), { ok: true }),
      },
    });
    const r = await s.run('book');
    expect(ran).toEqual(['book 9', 'hold 9', 'book 10']);
    expect(r.traces.map((t) => [t.callId, t.dedupedFrom])).toEqual([
      ['c1', undefined],
      ['c2', undefined],
      ['c3', undefined],
      ['c4', 'c1'],
    ]);
  });

  it('the deduped call shares the result, not the effects: one say, one vars event', async () => {
    const tools = await loadTools([
      { type: 'action', tool: fn('book', { day: { type: 'string' } }) },
    ]);
    const model = new ScriptedModel([
      {
        tool_calls: [
          { name: 'book', args: { day: 'mon' }, id: 'c1' },
          { name: 'book', args: { day: 'mon' }, id: 'c2' },
        ],
      },
      { text: 'Booked.' },
    ]);
    const s = createSession({
      tools,
      model,
      actions: {
        book: () => actionResult({ result: 'ok', say: 'Booked for Monday.', vars: { booked: 1 } }),
      },
    });
    const r = await s.run('book monday twice');
    expect(r.traces.find((t) => t.callId === 'c2')?.dedupedFrom).toBe('c1');
    expect(r.events.filter((e) => e.type === 'say').map((e) => e.type === 'say' && e.text)).toEqual(
      ['Booked for Monday.'],
    );
    expect(r.events.filter((e) => e.type === 'vars')).toHaveLength(1);
  });

  it('dedupes an idempotent tool too: the second identical call is pointless', async () => {
    const tools = await loadTools([
      {
        type: 'action',
        tool: fn('save', { day: { type: 'string' } }),
        options: { side_effects: 'idempotent' },
      },
    ]);
    let saved = 0;
    const model = new ScriptedModel([
      {
        tool_calls: [
          { name: 'save', args: { day: 'mon' }, id: 'c1' },
          { name: 'save', args: { day: 'mon' }, id: 'c2' },
        ],
      },
      { text: 'Saved.' },
    ]);
    const s = createSession({ tools, model, actions: { save: () => ({ n: ++saved }) } });
    const r = await s.run('save');
    expect(saved).toBe(1);
    expect(r.traces.find((t) => t.callId === 'c2')?.dedupedFrom).toBe('c1');
  });
});

describe('Idempotency-Key', () => {
  it('an unsafe post carries a key that is stable across its retry and differs per call', async () => {
    agent = mock();
    const keys: (string | undefined)[] = [];
    let tokens = 0;
    const pool = agent.get(ORIGIN);
    pool
      .intercept({ path: '/token', method: 'POST' })
      .reply(() => ({
        statusCode: 200,
        data: { access_token: `t${++tokens}`, expires_in: 3600 },
        responseOptions: json,
      }))
      .times(3);
    const record = (opts: { headers?: unknown }) => {
      const h = opts.headers as Record<string, string>;
      keys.push(h['idempotency-key']);
    };
    pool.intercept({ path: '/orders', method: 'POST' }).reply((opts) => {
      record(opts);
      return { statusCode: 401, data: { error: 'expired' }, responseOptions: json };
    });
    pool
      .intercept({ path: '/orders', method: 'POST' })
      .reply((opts) => {
        record(opts);
        return { statusCode: 201, data: { order: 1 }, responseOptions: json };
      })
      .times(2);
    const tools = await loadTools([
      {
        tool: fn('order', { item: { type: 'string' } }),
        endpoint: { url: `${ORIGIN}/orders`, method: 'post' },
        service: 'shop',
      },
    ]);
    const options = {
      tools,
      dispatcher: agent,
      services: {
        shop: {
          auth: {
            type: 'oauth2' as const,
            client_id: 'c',
            client_secret: 's',
            auth_url: `${ORIGIN}/token`,
          },
          origins: [ORIGIN],
        },
      },
    };
    const s = createSession({
      ...options,
      id: 'sess-1',
      model: new ScriptedModel([
        { tool_calls: [{ name: 'order', args: { item: 'tea' }, id: 'call_a' }] },
        { text: 'Ordered.' },
      ]),
    });
    const r = await s.run('order tea');
    expect(r.traces[0]?.isError).toBe(false);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(idempotencyKey('sess-1', 'call_a'));
    expect(keys[1]).toBe(keys[0]);
    expect(r.traces[0]?.requests.map((q) => q.headers['idempotency-key'])).toEqual([
      keys[0],
      keys[0],
    ]);

    // A restored session computes the same key for the same call id, another for another call.
    const restored = restoreSession(s.toJSON(), {
      ...options,
      model: new ScriptedModel([
        { tool_calls: [{ name: 'order', args: { item: 'tea' }, id: 'call_b' }] },
        { text: 'Ordered again.' },
      ]),
    });
    expect(restored.id).toBe('sess-1');
    await restored.run('again');
    expect(keys[2]).toBe(idempotencyKey('sess-1', 'call_b'));
    expect(keys[2]).not.toBe(keys[0]);
    expect(idempotencyKey('sess-1', 'call_a')).toBe(keys[0]);
    // Call ids repeat across sessions (some models number them from call_0 in every
    // conversation): another session's call of the same id must not share the key, or the
    // service would answer it with this session's order.
    expect(idempotencyKey('sess-2', 'call_a')).not.toBe(keys[0]);
    // The two parts cannot run into each other: ("a", "bc") and ("ab", "c") differ.
    expect(idempotencyKey('a', 'bc')).not.toBe(idempotencyKey('ab', 'c'));
    await s.close();
    await restored.close();
  });

  it('idempotent and none calls carry no key; an idempotent post is retried', async () => {
    agent = mock();
    const seen: { key: string | undefined }[] = [];
    const pool = agent.get(ORIGIN);
    pool.intercept({ path: '/upsert', method: 'POST' }).reply((opts) => {
      seen.push({ key: (opts.headers as Record<string, string>)['idempotency-key'] });
      return { statusCode: 503, data: 'busy' };
    });
    pool.intercept({ path: '/upsert', method: 'POST' }).reply((opts) => {
      seen.push({ key: (opts.headers as Record<string, string>)['idempotency-key'] });
      return { statusCode: 200, data: { ok: true }, responseOptions: json };
    });
    const tools = await loadTools([
      {
        tool: fn('upsert', {}),
        endpoint: { url: `${ORIGIN}/upsert`, method: 'post' },
        options: { side_effects: 'idempotent' },
      },
    ]);
    const s = createSession({
      tools,
      dispatcher: agent,
      model: new ScriptedModel([{ tool_calls: [{ name: 'upsert' }] }, { text: 'ok' }]),
    });
    const r = await s.run('go');
    expect(r.traces[0]?.isError).toBe(false);
    expect(seen).toEqual([{ key: undefined }, { key: undefined }]);
    await s.close();
  });
});
