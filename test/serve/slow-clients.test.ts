// Slow and vanishing clients: header and body timeouts, the connection cap, keep-alive limits,
// a bounded drain at close, and runs that end when their client goes away. Timeouts are injected
// small and the tests wait for the server's action (a socket closing), never for wall-clock time.
import { afterEach, describe, expect, it } from 'vitest';
import { type AgentServer } from '../../src/entries/serve.js';
import { loadTools } from '../../src/index.js';
import { fn } from '../session/fixtures.js';
import {
  ScriptModel,
  connections,
  heldUpstream,
  post,
  rawClient,
  rawRequest,
  startServer,
  until,
} from './helpers.js';

const tools = await loadTools([{ type: 'log', tool: fn('note', {}) }]);
let running: AgentServer | undefined;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await running?.close();
  running = undefined;
  for (const c of cleanups.splice(0)) await c();
});

async function start(model: ScriptModel, options: Record<string, unknown> = {}) {
  const started = await startServer({ tools, model, ...options });
  running = started.agent;
  return started;
}

const REQUEST_HEAD =
  'POST /run_agent HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\n';

describe('slow clients', () => {
  it('a client that never finishes its headers gets 408 and is closed', async () => {
    const { port, agent } = await start(new ScriptModel(), {
      headersTimeoutMs: 40,
      requestTimeoutMs: 80,
    });
    const { socket, closed } = await rawClient(port);
    socket.write('POST /run_agent HTTP/1.1\r\nhost: localhost\r\n');
    expect(await closed).toContain('408');
    expect(agent.inFlight).toBe(0);
  });

  it('a client that trickles its body is closed at the request timeout', async () => {
    const { port, agent } = await start(new ScriptModel(), {
      headersTimeoutMs: 40,
      requestTimeoutMs: 80,
    });
    const { socket, closed } = await rawClient(port);
    socket.write(`${REQUEST_HEAD}content-length: 100\r\n\r\n{"prom`);
    await until(() => agent.inFlight === 1);
    await closed;
    await until(() => agent.inFlight === 0);
  });

  it('over the cap, slow clients make way; when every connection runs, the newcomer is closed', async () => {
    const model = new ScriptModel();
    const { port, agent } = await start(model, { maxConnections: 2 });
    let drops = 0;
    agent.server.on('drop', () => drops++);
    const held = [await rawClient(port), await rawClient(port)];
    for (const h of held) h.socket.write('POST /run_agent HTTP/1.1\r\n');
    // A third slow client: the oldest one goes.
    const third = await rawClient(port);
    third.socket.write('POST /run_agent HTTP/1.1\r\n');
    expect(await held[0]?.closed).toBe('');
    // A client that sends its request at once gets in past the slow ones.
    expect(await rawRequest(port, { prompt: 'real' })).toContain('200 OK');
    expect(await held[1]?.closed).toBe('');
    expect(drops).toBe(2);
    third.socket.destroy();
    await until(async () => (await connections(agent.server)) === 0);

    // Two runs in flight fill the cap: a newcomer is closed, the runs answer.
    model.hold();
    const runs = [rawRequest(port, { prompt: 'a' }), rawRequest(port, { prompt: 'b' })];
    await until(() => model.started === 3);
    const late = await rawClient(port);
    expect(await late.closed).toBe('');
    expect(drops).toBe(3);
    model.release();
    for (const answer of await Promise.all(runs)) expect(answer).toContain('200 OK');
  });

  it('an idle keep-alive connection closes after keepAliveTimeoutMs', async () => {
    const { port } = await start(new ScriptModel(), { keepAliveTimeoutMs: 30 });
    const { socket, closed } = await rawClient(port);
    socket.write(`${REQUEST_HEAD}content-length: 14\r\n\r\n{"prompt":"a"}`);
    const received = await closed;
    expect(received).toContain('200 OK');
    expect(received).toContain('echo: a');
  });

  it('a keep-alive connection closes after maxRequestsPerSocket requests', async () => {
    const { port } = await start(new ScriptModel(), { maxRequestsPerSocket: 1 });
    const { socket, closed } = await rawClient(port);
    socket.write(`${REQUEST_HEAD}content-length: 14\r\n\r\n{"prompt":"a"}`);
    const received = await closed;
    expect(received).toMatch(/connection: close/i);
    expect(received).toContain('echo: a');
  });

  it('closes the connection right after its last allowed answer, not at the keep-alive timeout', async () => {
    // A keep-alive timeout longer than the test's: only the server's own close ends the socket.
    const { port } = await start(new ScriptModel(), {
      maxRequestsPerSocket: 2,
      keepAliveTimeoutMs: 600_000,
    });
    const { socket, closed } = await rawClient(port);
    const body = (p: string): string =>
      `${REQUEST_HEAD}content-length: 14\r\n\r\n{"prompt":"${p}"}`;
    socket.write(body('a') + body('b'));
    const received = await closed;
    expect(received).toContain('echo: a');
    expect(received).toContain('echo: b');
    // The first answer keeps the connection; the second (the last allowed) closes it.
    const [first, second] = received.split('HTTP/1.1 ').slice(1);
    expect(first).not.toMatch(/connection: close/i);
    expect(second).toMatch(/connection: close/i);
  });

  it('a body declared too large is refused with 413 and the connection closed, its body unread', async () => {
    const { port } = await start(new ScriptModel(), {
      maxBodyBytes: 64,
      requestTimeoutMs: 600_000,
      headersTimeoutMs: 600_000,
      keepAliveTimeoutMs: 600_000,
    });
    const { socket, closed } = await rawClient(port);
    // Headers only: the declared body never comes, so only the server's close ends the socket.
    socket.write(`${REQUEST_HEAD}content-length: 100000\r\n\r\n`);
    const received = await closed;
    expect(received).toMatch(/^HTTP\/1.1 413/);
    expect(received).toMatch(/connection: close/i);
  });

  it('refuses bad limits at creation, naming them', async () => {
    await expect(start(new ScriptModel(), { maxConnections: 0 })).rejects.toThrow(/maxConnections/);
    await expect(
      start(new ScriptModel(), { headersTimeoutMs: 500, requestTimeoutMs: 100 }),
    ).rejects.toThrow(/headersTimeoutMs/);
    // Just over is refused too (a headers timeout the request timeout would cut short).
    await expect(
      start(new ScriptModel(), { headersTimeoutMs: 101, requestTimeoutMs: 100 }),
    ).rejects.toThrow('headersTimeoutMs (101) must not exceed requestTimeoutMs (100)');
  });
});

describe('close() is bounded', () => {
  it('a trickling client does not hold shutdown past drainTimeoutMs', async () => {
    const { port, agent } = await start(new ScriptModel(), { drainTimeoutMs: 30 });
    running = undefined;
    const { socket, closed } = await rawClient(port);
    socket.write(`${REQUEST_HEAD}content-length: 100\r\n\r\n{"prom`);
    await until(() => agent.inFlight === 1);
    await agent.close();
    await closed;
  });

  it('a client still sending headers is closed at once when nothing runs', async () => {
    // A drain timeout far beyond the test's own: close() must not wait for it.
    const { port, agent } = await start(new ScriptModel(), { drainTimeoutMs: 600_000 });
    running = undefined;
    const { socket, closed } = await rawClient(port);
    socket.write('POST /run_agent HTTP/1.1\r\n');
    await agent.close();
    await closed;
  });

  it('a run still going at the drain timeout is ended and its model call aborted', async () => {
    const model = new ScriptModel(true);
    const { url, agent } = await start(model, { drainTimeoutMs: 30 });
    running = undefined;
    const answer = post(url, { prompt: 'slow' });
    await until(() => model.started === 1);
    await agent.close();
    await expect(answer).rejects.toThrow();
    await until(() => model.aborted === 1);
    await until(() => agent.inFlight === 0);
  });
});

describe('a client that goes away ends its run', () => {
  it('the model call in flight is aborted and no other is made', async () => {
    const model = new ScriptModel(true);
    const { url, agent } = await start(model);
    const client = new AbortController();
    const answer = fetch(url, {
      method: 'POST',
      body: '{"prompt":"x"}',
      headers: { 'content-type': 'application/json' },
      signal: client.signal,
    });
    await until(() => model.started === 1);
    client.abort();
    await expect(answer).rejects.toThrow();
    await until(() => agent.inFlight === 0);
    expect(model.aborted).toBe(1);
    expect(model.started).toBe(1);
  });

  it('side-effect classes decide: a GET is cancelled, a POST finishes, the model is not called again', async () => {
    const upstream = await heldUpstream();
    cleanups.push(upstream.close);
    const endpointTools = await loadTools([
      {
        type: 'endpoint',
        tool: fn('lookup', {}),
        endpoint: { url: `${upstream.origin}/lookup`, method: 'get' },
      },
      {
        type: 'endpoint',
        tool: fn('order', {}),
        endpoint: { url: `${upstream.origin}/order`, method: 'post' },
      },
    ]);
    const model = new ScriptModel();
    const started = await startServer({ tools: endpointTools, model, networkPolicy: {} });
    running = started.agent;
    // The client goes away by closing its connection mid-run. A raw socket, not an aborted
    // fetch: undici may keep an aborted request's socket until its 4 s keep-alive timeout,
    // which the wait below then measured instead of the server.
    const gone = async (prompt: string): Promise<void> => {
      const before = upstream.requests.length;
      const { socket, closed } = await rawClient(started.port);
      const body = JSON.stringify({ prompt });
      socket.write(`${REQUEST_HEAD}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      await until(() => upstream.requests.length === before + 1);
      socket.destroy();
      // Nothing was answered before the client left.
      expect(await closed).toBe('');
      await until(async () => (await connections(started.agent.server)) === 0);
    };

    await gone('call lookup');
    await until(() => started.agent.inFlight === 0);
    // The upstream sees the cancelled request's connection close.
    await until(() => upstream.requests[0]?.closedEarly === true);
    expect(upstream.requests[0]?.method).toBe('GET');
    expect(model.started).toBe(1);

    await gone('call order');
    // The unsafe POST runs to completion: the run is still waiting for it.
    expect(started.agent.inFlight).toBe(1);
    upstream.release();
    await until(() => started.agent.inFlight === 0);
    expect(upstream.requests[1]).toEqual({ method: 'POST', closedEarly: false });
    expect(upstream.requests).toHaveLength(2);
    expect(model.started).toBe(2);
  });
});
