import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import type { ToolSet } from '../../src/definition/types.js';
import { createSession } from '../../src/session/create-session.js';
import type { Session, SessionEvent } from '../../src/session/types.js';
import type { Model } from '../../src/models/types.js';
import { ScriptedModel } from '../../src/testing.js';
import { fn } from './fixtures.js';

let server: Server;
let tools: ToolSet;
const received: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    received.push(`${req.method} ${req.url}`);
    if (req.method === 'GET') {
      const t = setTimeout(() => res.end('{"late":true}'), 5000);
      res.on('close', () => clearTimeout(t));
      return;
    }
    req.resume();
    setTimeout(() => {
      res.setHeader('content-type', 'application/json');
      res.end('{"id":7}');
    }, 150);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  tools = await loadTools([
    {
      type: 'endpoint',
      tool: fn('get_weather', { city: { type: 'string' } }),
      endpoint: { url: `${base}/weather`, method: 'get' },
    },
    {
      type: 'endpoint',
      tool: fn('post_order', { item: { type: 'string' } }),
      endpoint: { url: `${base}/orders`, method: 'post' },
    },
    { type: 'action', tool: fn('charge', {}) },
    { type: 'log', tool: fn('note', { text: { type: 'string' } }) },
  ]);
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('interruption', () => {
  it('cancels safe calls, lets post and actions finish, answers every id once', async () => {
    const model = new ScriptedModel(
      [
        {
          text: 'Working on it',
          tool_calls: [
            { name: 'get_weather', args: { city: 'Bronx' }, id: 'g' },
            { name: 'post_order', args: { item: 'pizza' }, id: 'p' },
            { name: 'charge', id: 'c' },
          ],
        },
      ],
      { record: true },
    );
    let charged = 0;
    const s = createSession({
      tools,
      model,
      actions: {
        charge: async () => {
          await new Promise((r) => setTimeout(r, 100));
          charged++;
          return { charged: true };
        },
      },
    });
    const stream = s.send('order pizza');
    let sent = 0;
    for await (const e of stream) {
      if (e.type === 'http-request') sent++;
      if (sent === 2 && e.type === 'http-request') s.interrupt();
    }
    const r = await stream.result;
    expect(r.interrupted).toBe(true);
    const byId = new Map(r.traces.map((t) => [t.callId, t]));
    expect(byId.get('g')).toMatchObject({ isError: true, errorCode: 'cancelled' });
    expect(byId.get('p')).toMatchObject({ isError: false, output: { id: 7 } });
    expect(byId.get('c')).toMatchObject({ isError: false, output: { charged: true } });
    expect(charged).toBe(1);
    const tail = r.events.slice(-2).map((e) => e.type);
    expect(tail).toEqual(['interrupted', 'turn-end']);
    const toolIds = r.state.history
      .filter((m) => m.role === 'tool')
      .map((m) => (m.role === 'tool' ? m.tool_call_id : ''));
    expect(toolIds).toEqual(['g', 'p', 'c']);
    expect(model.calls).toHaveLength(1);
    expect(received.filter((x) => x.startsWith('POST'))).toHaveLength(1);
    await s.close();
  });

  it('stops a streaming answer, keeps the partial text, and the next turn works', async () => {
    const model = new ScriptedModel(
      [{ text: ['Hello ', 'there ', 'and ', 'more'], delayMs: 30 }, { text: 'Yes?' }],
      { record: true },
    );
    const s = createSession({ tools, model });
    const stream = s.send('hi');
    const events: SessionEvent[] = [];
    for await (const e of stream) {
      events.push(e);
      if (e.type === 'text-delta' && e.text === 'there ') s.interrupt();
    }
    const r = await stream.result;
    expect(r.interrupted).toBe(true);
    expect(r.content).toBe('Hello there ');
    expect(events.filter((e) => e.type === 'text-delta').length).toBe(2);
    expect(r.state.history.at(-1)).toEqual({ role: 'assistant', content: 'Hello there ' });
    const next = await s.run('wait');
    expect(next.content).toBe('Yes?');
    expect(next.interrupted).toBe(false);
    model.assertComplete();
  });

  it('drops what a model that ignores its signal streams after the interruption: no more text, no call run', async () => {
    let charged = 0;
    let release = (): void => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // An adapter that does not honour the request's signal and streams on.
    const model: Model = {
      name: 'deaf',
      async *stream() {
        yield { type: 'text-delta', text: 'Sure, ' };
        await gate;
        yield { type: 'text-delta', text: 'charging now.' };
        yield { type: 'tool-call', call: { id: 'c', name: 'charge', arguments: '{}' } };
        yield { type: 'finish' };
      },
    };
    let session: Session | undefined;
    session = createSession({
      tools,
      model,
      actions: { charge: () => (charged++, { ok: true }) },
      onEvent: (e) => {
        if (e.type !== 'text-delta') return;
        session?.interrupt();
        release();
      },
    });
    const r = await session.run('charge me');
    expect(r.interrupted).toBe(true);
    expect(r.content).toBe('Sure, ');
    expect(charged).toBe(0);
    expect(r.traces).toEqual([]);
    expect(r.events.filter((e) => e.type === 'text-delta')).toHaveLength(1);
    expect(r.state.history.slice(1)).toEqual([{ role: 'assistant', content: 'Sure, ' }]);
  });

  it('interrupt with no turn running is a no-op', async () => {
    const s = createSession({
      tools,
      model: new ScriptedModel([{ text: 'ok' }], { record: true }),
    });
    s.interrupt();
    expect((await s.run('x')).interrupted).toBe(false);
  });
});
