// Small truths (issue 15): request records carry the response status in traces and events; the
// model never sees an undici-internal code; `{"success": false}` from an action is a failure.
import { MockAgent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import type { ToolSet } from '../../src/definition/types.js';
import { requestUrl } from '../../src/handlers/endpoint/build-request.js';
import { exchange } from '../../src/handlers/endpoint/exchange.js';
import { runFixture } from '../../src/harness/run-fixture.js';
import { createSession } from '../../src/session/create-session.js';
import type { SessionEvent } from '../../src/session/types.js';
import { ScriptedModel } from '../../src/testing.js';
import { json, startTestServer, type TestServer } from '../handlers/test-server.js';
import { fn } from './fixtures.js';

let server: TestServer;
let tools: ToolSet;

beforeAll(async () => {
  server = await startTestServer();
  tools = await loadTools([
    {
      type: 'endpoint',
      tool: fn('get_weather', { city: { type: 'string' } }),
      endpoint: { url: `${server.origin}/weather`, method: 'get' },
    },
    { type: 'action', tool: fn('transfer', {}), options: { save: [{ from: 'to', to: 'dest' }] } },
    { type: 'action', tool: fn('escalate', {}), options: { handoff: 'billing' } },
  ]);
});
afterAll(() => server.close());

async function run(
  steps: ConstructorParameters<typeof ScriptedModel>[0],
  actions: Record<string, () => unknown> = {},
) {
  const events: SessionEvent[] = [];
  const session = createSession({
    tools,
    model: new ScriptedModel(steps),
    actions,
    agents: { front: { prompt: 'front' }, billing: { prompt: 'billing' } },
    onEvent: (e) => events.push(e),
  });
  const result = await session.run('go');
  await session.close();
  return { result, events, state: session.toJSON() };
}

describe('HTTP request records carry the response status', () => {
  it('in the trace and in an http-response event, for every attempt (a retried 503, then 200)', async () => {
    let n = 0;
    server.route('/weather', (req, res) =>
      n++ === 0 ? json(503, { busy: true })(req, res, '') : json(200, { t: 21 })(req, res, ''),
    );
    const { result, events } = await run([
      { tool_calls: [{ name: 'get_weather', args: { city: 'Rome' } }] },
      { text: 'Sunny.' },
    ]);
    const requests = result.traces[0]?.requests ?? [];
    expect(requests.map((r) => [r.attempt, r.status])).toEqual([
      [1, 503],
      [2, 200],
    ]);
    const answered = events.filter((e) => e.type === 'http-response');
    expect(answered.map((e) => e.type === 'http-response' && e.request.status)).toEqual([503, 200]);
    // Each response follows its request.
    const kinds = events.map((e) => e.type).filter((t) => t.startsWith('http-'));
    expect(kinds).toEqual(['http-request', 'http-response', 'http-request', 'http-response']);
  });
});

describe('the model never sees an undici-internal code', () => {
  it("the harness's undeclared request is a plain network error with a readable message", async () => {
    const result = await runFixture('fixtures/failing/undeclared-request.yaml');
    const errors = result.turns.flatMap((t) => t.toolErrors);
    expect(errors.length).toBeGreaterThan(0);
    for (const e of errors) {
      expect(e.code).toBe('network');
      expect(e.message).toBe('connection failed (ECONNREFUSED)');
    }
    const seen = JSON.stringify(result.turns);
    expect(seen).not.toMatch(/UND_/);
  });

  it('an undici error code becomes words, an unknown one is left out', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    const messages: string[] = [];
    for (const code of ['UND_ERR_SOCKET', 'UND_MOCK_ERR_MOCK_NOT_MATCHED', 'ECONNRESET']) {
      agent
        .get('http://api.test')
        .intercept({ path: '/x', method: 'GET' })
        .replyWithError(Object.assign(new Error('internal detail'), { code }));
      const r = await exchange(
        agent,
        {
          url: requestUrl(new URL('http://api.test/x')),
          method: 'GET',
          headers: {},
          signal: { aborted: false, onAbort: () => () => undefined },
        },
        { maxBodyBytes: 1024, maxErrorBodyBytes: 1024, maxHeaderBytes: 16 * 1024 },
      );
      messages.push(
        r.ok ? 'ok' : r.failure.kind === 'network' ? r.failure.message : r.failure.kind,
      );
    }
    await agent.close();
    expect(messages).toEqual([
      'connection failed (socket closed)',
      'connection failed',
      'connection failed (ECONNRESET)',
    ]);
  });
});

describe('an action result {"success": false, …} is a failure (docs/handlers.md)', () => {
  it('becomes handler_error with its message; the model sees the whole result; nothing is saved', async () => {
    const { result, events, state } = await run(
      [{ tool_calls: [{ name: 'transfer', args: {} }] }, { text: 'Sorry.' }],
      { transfer: () => ({ success: false, error: 'line busy', to: 'desk' }) },
    );
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'tool-error', code: 'handler_error', message: 'line busy' }),
    );
    expect(result.traces[0]?.output).toEqual({
      error: {
        code: 'handler_error',
        message: 'line busy',
        result: { success: false, error: 'line busy', to: 'desk' },
      },
    });
    expect(state.vars).not.toHaveProperty('dest');
  });

  it("is never followed by the definition's handoff; {success: true} is an ordinary result", async () => {
    const failed = await run([{ tool_calls: [{ name: 'escalate', args: {} }] }, { text: 'No.' }], {
      escalate: () => ({ success: false }),
    });
    expect(failed.state.agent).toBe('front');
    expect(failed.events).toContainEqual(
      expect.objectContaining({ type: 'tool-error', message: 'action escalate reported failure' }),
    );
    const ok = await run([{ tool_calls: [{ name: 'escalate', args: {} }] }, { text: 'Yes.' }], {
      escalate: () => ({ success: true }),
    });
    expect(ok.state.agent).toBe('billing');
    expect(ok.result.traces[0]?.output).toEqual({ success: true });
  });
});
