/**
 * RELIABILITY.md "Sessions under load", the parts that need a real server: a slow service does
 * not slow sessions using a fast one, and ending many sessions with HTTP calls in flight leaves
 * no sockets, timers or listeners behind.
 */
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { DEFAULT_CONNECTIONS_PER_ORIGIN } from '../../src/handlers/endpoint/connection-pools.js';
import type { ToolSet } from '../../src/definition/types.js';
import { createSession } from '../../src/session/create-session.js';
import { ScriptedModel } from '../../src/testing.js';
import { startTestServer, type TestServer } from '../handlers/test-server.js';
import { fn } from './fixtures.js';

let server: TestServer;
let tools: ToolSet;
beforeAll(async () => {
  server = await startTestServer();
  // The slow service answers after 10 s; the fast one at once.
  server.route('/slow', (_req, res) => {
    const timer = setTimeout(
      () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"slow":true}'),
      10_000,
    );
    res.on('close', () => clearTimeout(timer));
  });
  server.route('/fast', (_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"fast":true}'),
  );
  server.route('/never', () => undefined);
  tools = await loadTools(
    ['slow', 'fast', 'never'].map((name) => ({
      type: 'endpoint',
      tool: fn(`get_${name}`, {}),
      endpoint: { url: `${server.origin}/${name}`, method: 'get', timeout: 20 },
    })),
  );
});
afterAll(() => server.close());

const sessionCalling = (tool: string, dispatcher?: Agent) =>
  createSession({
    tools,
    model: new ScriptedModel([{ tool_calls: [{ name: tool }] }, { text: 'ok' }]),
    ...(dispatcher !== undefined ? { dispatcher } : {}),
  });

/** Polls until `check` holds or the time is up; returns whether it held. */
async function eventually(check: () => boolean, ms = 3000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return check();
}

describe('isolation between sessions', () => {
  it('sessions on a slow service do not slow sessions on a fast one (shared dispatcher)', async () => {
    const dispatcher = new Agent();
    const slow = Array.from({ length: 10 }, () => sessionCalling('get_slow', dispatcher));
    const fast = Array.from({ length: 30 }, () => sessionCalling('get_fast', dispatcher));
    const slowRuns = slow.map((s) => s.run('slow please'));
    let slowSettled = 0;
    for (const run of slowRuns)
      run.then(
        () => slowSettled++,
        () => slowSettled++,
      );
    await new Promise((r) => setTimeout(r, 50)); // the slow calls are in flight
    const fastResults = await Promise.all(fast.map((s) => s.run('fast please')));
    expect(fastResults.every((r) => JSON.stringify(r.traces[0]?.output) === '{"fast":true}')).toBe(
      true,
    );
    // Every fast session finished while every slow call still ran: none waited behind one
    // (judged against the slow service itself, not against this machine's speed).
    expect(slowSettled).toBe(0);
    // The slow calls are still running; end them (a GET is safe to cancel).
    for (const s of slow) s.interrupt();
    const slowResults = await Promise.all(slowRuns);
    expect(slowResults.every((r) => r.interrupted && r.traces[0]?.errorCode === 'cancelled')).toBe(
      true,
    );
    await Promise.all([...slow, ...fast].map((s) => s.close()));
    await dispatcher.close();
  });

  it('ending 300 sessions with HTTP calls in flight leaves no sockets, timers or listeners behind', async () => {
    const count = (kind: string): number =>
      process.getActiveResourcesInfo().filter((r) => r === kind).length;
    const baseline = { sockets: count('TCPSocketWrap'), timers: count('Timeout') };
    const warnings: string[] = [];
    const onWarning = (w: Error): void => void warnings.push(w.name);
    process.on('warning', onWarning);
    const sessions = Array.from({ length: 300 }, () => sessionCalling('get_never'));
    const runs = sessions.map((s) => s.run('go'));
    // The shared pool sends 100 at once (its connections per origin); the other 200 queue.
    const sent = () => server.requests.filter((r) => r.url === '/never').length;
    expect(await eventually(() => sent() >= DEFAULT_CONNECTIONS_PER_ORIGIN)).toBe(true);
    expect(count('TCPSocketWrap')).toBeGreaterThan(baseline.sockets); // the calls really are in flight
    for (const s of sessions) s.interrupt();
    await Promise.all(sessions.map((s) => s.close()));
    const results = await Promise.all(runs);
    expect(results.every((r) => r.interrupted)).toBe(true);
    expect(await eventually(() => count('TCPSocketWrap') <= baseline.sockets)).toBe(true);
    expect(await eventually(() => count('Timeout') <= baseline.timers)).toBe(true);
    // The queued calls were cancelled before they were sent: none went out when sockets freed.
    expect(sent()).toBe(DEFAULT_CONNECTIONS_PER_ORIGIN);
    process.off('warning', onWarning);
    // No listener piled up on a shared signal or socket (Node warns past 10 on one emitter).
    expect(warnings.filter((w) => w === 'MaxListenersExceededWarning')).toEqual([]);
  });
});
