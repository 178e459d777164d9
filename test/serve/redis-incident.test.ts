/**
 * `serve` with its sessions on Redis during a Redis incident (docs/reliability.md, "Incidents and
 * attacks kept as tests"): a real redis-server on loopback, killed while runs are in flight and
 * restarted on its port, or frozen (SIGSTOP). A request that cannot use the store is 503
 * `store_failed` (it was 500 `internal`, as for a bug), nothing hangs, the server serves again
 * once Redis is back, and a host that shuts down during the gap drains and exits. Nothing waits
 * on wall-clock time: the model is held and released, Redis is frozen by signal.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { RedisSessionStore } from '../../src/redis/redis-store.js';
import { SessionStoreFailedError } from '../../src/session/coordination.js';
import { startRedisServer, type RedisServer } from '../redis-server.js';
import { fn } from '../session/fixtures.js';
import { ScriptModel, post, startServer, until } from './helpers.js';

const tools = await loadTools([{ type: 'log', tool: fn('note', {}) }]);
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

const UNAVAILABLE = {
  error: {
    code: 'store_failed',
    message: 'the session store is unavailable; try again (details in the server log)',
  },
};

async function redis(): Promise<RedisServer> {
  const server = await startRedisServer();
  cleanups.push(() => server.stop());
  return server;
}

async function serveOn(url: string, commandTimeoutMs = 5000) {
  const store = await RedisSessionStore.connect({ url, keyPrefix: 'serve:', commandTimeoutMs });
  const model = new ScriptModel();
  const errors: unknown[] = [];
  const server = await startServer({ tools, model, store, onError: (e) => errors.push(e) });
  cleanups.push(
    () => store.close(),
    () => server.agent.close(),
  );
  return { ...server, store, model, errors };
}

describe('serve with a Redis store during a Redis incident', () => {
  it('Redis killed with runs in flight: 503 store_failed, then serving again once it is back', async () => {
    let server = await redis();
    const { url, store, model, errors } = await serveOn(server.url);
    expect((await post(url, { prompt: 'hi' })).status).toBe(200);

    model.hold();
    const inFlight = [post(url, { prompt: 'call note' }), post(url, { prompt: 'one' })];
    await until(() => model.started === 3);
    process.kill(server.pid, 'SIGKILL');
    await server.stop();
    model.release();
    // The runs were done; their saves failed: the caller is told, not given an unsaved answer.
    for (const answer of await Promise.all(inFlight))
      expect(answer).toEqual({ status: 503, json: UNAVAILABLE });
    const calls = model.started;

    // During the gap a request is refused at its lease, at once: no model call.
    const gap = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"prompt":"in the gap"}',
    });
    expect(gap.status).toBe(503);
    expect(gap.headers.get('retry-after')).toBe('1');
    expect(await gap.json()).toEqual(UNAVAILABLE);
    expect(model.started).toBe(calls);
    // The reason is for the host's log.
    expect(errors).toHaveLength(3);
    for (const e of errors) expect(e).toBeInstanceOf(SessionStoreFailedError);

    server = await startRedisServer(server.port);
    cleanups.push(() => server.stop());
    await vi.waitFor(() => store.get('probe'), { timeout: 15_000, interval: 50 });
    expect(await post(url, { prompt: 'back' })).toMatchObject({
      status: 200,
      json: { content: 'echo: back' },
    });
  }, 30_000);

  it('Redis frozen: 503 after commandTimeoutMs, and a shutdown then drains the run in flight', async () => {
    const server = await redis();
    const { url, agent, model } = await serveOn(server.url, 100);
    process.kill(server.pid, 'SIGSTOP');
    cleanups.push(async () => process.kill(server.pid, 'SIGCONT'));
    expect(await post(url, { prompt: 'frozen' })).toEqual({ status: 503, json: UNAVAILABLE });
    expect(model.started).toBe(0);

    const answered = post(url, { prompt: 'waits for its lease' });
    await until(() => agent.inFlight === 1);
    await agent.close();
    expect(await answered).toEqual({ status: 503, json: UNAVAILABLE });
  }, 30_000);

  // The host shuts down as docs/sessions-redis.md says (the server drained, then the store
  // closed) during the gap: it must not wait on the reconnecting client, nor keep the process up.
  it('SIGTERM during the gap: the run in flight answers and the process exits 0', async () => {
    const server = await redis();
    const host = spawn(process.execPath, ['test/serve/redis-host.mjs', server.url], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    cleanups.push(async () => host.exitCode === null && host.kill('SIGKILL'));
    const exited = new Promise<number | null>((r) => host.once('exit', r));
    const lines = createInterface({ input: host.stdout });
    const nextLine = (): Promise<string> => new Promise((r) => lines.once('line', r));
    const port = Number((await nextLine()).split(' ')[1]);
    const url = `http://127.0.0.1:${port}/run_agent`;

    const inFlight = post(url, { prompt: 'held' });
    expect(await nextLine()).toBe('model');
    process.kill(server.pid, 'SIGKILL');
    await server.stop();
    expect(await post(url, { prompt: 'in the gap' })).toEqual({ status: 503, json: UNAVAILABLE });

    host.kill('SIGTERM');
    host.stdin.write('release\n');
    expect(await inFlight).toEqual({ status: 503, json: UNAVAILABLE });
    expect(await exited).toBe(0);
  }, 30_000);
});
