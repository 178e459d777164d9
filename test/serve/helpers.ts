// Shared pieces of the serve tests: a model that answers by a script (and honours its signal), a
// server started on loopback, raw sockets for slow clients, and a loopback upstream that holds.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import {
  createAgentServer,
  type AgentServer,
  type AgentServerOptions,
} from '../../src/entries/serve.js';
import { type Model, type ModelRequest, type ModelStreamPart } from '../../src/index.js';

/**
 * The user's message names what to do: `call <tool>` asks for that tool once, then answers; any
 * other text is echoed. Held while `hold` is set, until released or the request is aborted.
 */
export class ScriptModel implements Model {
  readonly name = 'script';
  started = 0;
  aborted = 0;
  #waiters: (() => void)[] = [];
  constructor(private held = false) {}
  hold(): void {
    this.held = true;
  }
  release(): void {
    this.held = false;
    for (const w of this.#waiters.splice(0)) w();
  }
  async *stream(request: ModelRequest): AsyncIterable<ModelStreamPart> {
    this.started++;
    if (this.held)
      await new Promise<void>((resolve, reject) => {
        this.#waiters.push(resolve);
        request.signal.addEventListener('abort', () => {
          this.aborted++;
          reject(new Error('aborted'));
        });
      });
    const text = request.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
    const tool = /^call (\w+)/.exec(text)?.[1];
    if (tool !== undefined && !request.messages.some((m) => m.role === 'tool'))
      yield { type: 'tool-call', call: { id: 'c1', name: tool, arguments: '{}' } };
    else yield { type: 'text-delta', text: `echo: ${text}` };
    yield { type: 'finish' };
  }
}

export async function startServer(
  options: AgentServerOptions,
): Promise<{ agent: AgentServer; url: string; port: number }> {
  const agent = createAgentServer(options);
  const { port } = await agent.listen();
  return { agent, url: `http://127.0.0.1:${port}/run_agent`, port };
}

export async function post(
  url: string,
  body: unknown,
  headers: Record<string, string> = { 'content-type': 'application/json' },
): Promise<{ status: number; json: unknown }> {
  const res = await fetch(url, {
    method: 'POST',
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers,
  });
  return { status: res.status, json: await res.json() };
}

/** A raw client socket, connected; `closed` resolves with what the server sent before closing. */
export async function rawClient(
  port: number,
): Promise<{ socket: Socket; closed: Promise<string> }> {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (c: Buffer) => (received += c.toString()));
  socket.on('error', () => undefined);
  const closed = new Promise<string>((r) => socket.once('close', () => r(received)));
  await new Promise<void>((r) => socket.once('connect', () => r()));
  return { socket, closed };
}

/** One request on its own connection (`connection: close`); resolves with the raw answer. */
export async function rawRequest(port: number, body: unknown): Promise<string> {
  const { socket, closed } = await rawClient(port);
  const text = JSON.stringify(body);
  socket.write(
    'POST /run_agent HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\n' +
      `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
  );
  return closed;
}

/** Polls `check` on the event loop until it holds (the tests' timeout bounds the wait). */
export async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((r) => setTimeout(r, 2));
}

/** The server's open connections. */
export function connections(server: Server): Promise<number> {
  return new Promise((resolve, reject) =>
    server.getConnections((error, n) => (error ? reject(error) : resolve(n))),
  );
}

/** A loopback upstream that records requests and answers only when released. */
export async function heldUpstream(): Promise<{
  server: Server;
  origin: string;
  requests: { method: string; closedEarly: boolean }[];
  release: () => void;
  close: () => Promise<void>;
}> {
  const requests: { method: string; closedEarly: boolean }[] = [];
  let open = false;
  const waiting: (() => void)[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const record = { method: req.method ?? '', closedEarly: false };
    requests.push(record);
    res.once('close', () => (record.closedEarly = !res.writableFinished));
    const answer = (): void => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    };
    req.resume();
    if (open) answer();
    else waiting.push(answer);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    origin: `http://127.0.0.1:${port}`,
    requests,
    release: () => {
      open = true;
      for (const w of waiting.splice(0)) w();
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
