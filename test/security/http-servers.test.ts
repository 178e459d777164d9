/**
 * An attacker's afternoon (docs/reliability.md): smuggling-shaped requests against the three
 * servers (Node's parser refuses them; held here so a server built otherwise would be caught), and
 * slow clients against MCP over HTTP and the
 * studio, which had Node's defaults (60 s for headers, 300 s for a request, no connection cap),
 * so a few hundred trickling clients held every file descriptor and real clients were refused.
 * They now share `switchboard serve`'s limits (src/http-limits.ts). Timeouts are injected small;
 * the tests wait for the server to close a socket, never for wall-clock time.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { startStudio } from '../../src/studio/studio-server.js';
import { INITIALIZE_BODY } from '../mcp/server-helpers.js';
import { ScriptModel, rawClient, startServer } from '../serve/helpers.js';
import { fn } from '../session/fixtures.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

/** An MCP server over HTTP with the given limits; its port. */
async function mcp(limits: Record<string, number>): Promise<number> {
  const server = createMcpServer({
    tools: await loadTools([{ type: 'log', tool: fn('note', {}) }]),
  });
  const listener = await server.listen(limits);
  cleanups.push(() => server.close());
  return listener.address.port;
}

/** A studio with the given limits; its port. */
async function studio(limits: Record<string, number>): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'studio-slow-'));
  mkdirSync(join(dir, 'ui'));
  writeFileSync(join(dir, 'ui', 'index.html'), '<!doctype html><title>studio</title>');
  const tools = resolve('test/studio/e2e/tools.json');
  const s = await startStudio({
    tools: await loadTools(tools, { file: tools }),
    toolsFile: tools,
    model: 'manual',
    fixturesDir: dir,
    assetsDir: join(dir, 'ui'),
    limits,
  });
  cleanups.push(async () => {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return Number(new URL(s.url).port);
}

const SERVERS = [
  { name: 'MCP over HTTP', start: mcp, path: '/mcp' },
  { name: 'the studio', start: studio, path: '/api/say' },
] as const;

/** A request sent at once: the MCP `initialize`, or the studio's state. */
function realRequest(name: string, port: number): string {
  const host = `host: 127.0.0.1:${port}\r\nconnection: close\r\n`;
  return name === 'the studio'
    ? `GET /api/state HTTP/1.1\r\n${host}\r\n`
    : `POST /mcp HTTP/1.1\r\n${host}content-type: application/json\r\n` +
        `accept: application/json, text/event-stream\r\n` +
        `content-length: ${Buffer.byteLength(INITIALIZE_BODY)}\r\n\r\n${INITIALIZE_BODY}`;
}

// Far above what the fixed servers take (milliseconds), far below Node's 60 s headers timeout.
const BOUND = { timeout: 20_000 };

describe.each(SERVERS)('slow clients against $name', ({ name, start, path }) => {
  it(
    'a client that never finishes its headers gets 408 and is closed',
    async () => {
      const port = await start({ headersTimeoutMs: 40, requestTimeoutMs: 80 });
      const { socket, closed } = await rawClient(port);
      socket.write(`POST ${path} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n`);
      expect(await closed).toContain('408');
    },
    BOUND,
  );

  it(
    'a client that trickles its body is closed at the request timeout',
    async () => {
      const port = await start({ headersTimeoutMs: 40, requestTimeoutMs: 80 });
      const { socket, closed } = await rawClient(port);
      socket.write(
        `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\n` +
          `accept: application/json, text/event-stream\r\ncontent-length: 1000\r\n\r\n{"x`,
      );
      await closed;
    },
    BOUND,
  );

  it(
    'over the connection cap, slow clients make way for a request sent at once',
    async () => {
      const port = await start({ maxConnections: 2 });
      const held = [await rawClient(port), await rawClient(port)];
      for (const h of held) h.socket.write(`POST ${path} HTTP/1.1\r\n`);
      const real = await rawClient(port);
      const answered = new Promise<string>((ok) =>
        real.socket.once('data', (c: Buffer) => ok(c.toString())),
      );
      real.socket.write(realRequest(name, port));
      expect(await held[0]?.closed).toBe('');
      expect(await answered).toMatch(/^HTTP\/1\.1 200 OK/);
      for (const s of [real, held[1]]) s?.socket.destroy();
    },
    BOUND,
  );
});

describe('limits are host configuration', () => {
  it('MCP over HTTP refuses a bad limit at listen, naming it', async () => {
    await expect(mcp({ headersTimeoutMs: 0 })).rejects.toThrow(/headersTimeoutMs/);
    await expect(mcp({ headersTimeoutMs: 500, requestTimeoutMs: 100 })).rejects.toThrow(
      /must not exceed requestTimeoutMs/,
    );
  });
});

/** `switchboard serve` (its own slow-client tests are in test/serve/); its port and model calls. */
async function serve(): Promise<number> {
  const model = new ScriptModel();
  const { agent, port } = await startServer({
    tools: await loadTools([{ type: 'log', tool: fn('note', {}) }]),
    model,
  });
  cleanups.push(() => agent.close());
  modelCalls = () => model.started;
  return port;
}
let modelCalls = (): number => 0;

/** Sends raw bytes; resolves with what came back before the server closed the connection. */
async function raw(port: number, text: string): Promise<string> {
  const { socket, closed } = await rawClient(port);
  socket.write(text);
  return closed;
}

const SMUGGLING: readonly [string, (path: string) => string, RegExp][] = [
  [
    'two Content-Length headers',
    (p) =>
      `POST ${p} HTTP/1.1\r\nhost: localhost\r\ncontent-length: 2\r\ncontent-length: 20\r\n\r\n{}`,
    /^HTTP\/1\.1 400/,
  ],
  [
    'Content-Length with chunked Transfer-Encoding, a request hidden in the body',
    (p) =>
      `POST ${p} HTTP/1.1\r\nhost: localhost\r\ncontent-length: 40\r\ntransfer-encoding: chunked\r\n\r\n` +
      `0\r\n\r\nPOST ${p} HTTP/1.1\r\nhost: evil.example\r\n\r\n`,
    /^HTTP\/1\.1 400/,
  ],
  [
    'Transfer-Encoding chunked then identity',
    (p) =>
      `POST ${p} HTTP/1.1\r\nhost: localhost\r\ntransfer-encoding: chunked\r\ntransfer-encoding: identity\r\n\r\n0\r\n\r\n`,
    /^HTTP\/1\.1 400/,
  ],
  [
    '3,000 headers',
    (p) =>
      `GET ${p} HTTP/1.1\r\nhost: localhost\r\n${Array.from({ length: 3000 }, (_, i) => `x-h${i}: v\r\n`).join('')}\r\n`,
    /^HTTP\/1\.1 431/,
  ],
  [
    'a 20 KB header',
    (p) => `GET ${p} HTTP/1.1\r\nhost: localhost\r\nx-a: ${'a'.repeat(20_000)}\r\n\r\n`,
    /^HTTP\/1\.1 431/,
  ],
];

describe.each([
  { name: 'serve', start: serve, path: '/run_agent' },
  ...SERVERS.map((s) => ({ ...s, start: () => s.start({}) })),
])('request smuggling against $name', ({ start, path }) => {
  it.each(SMUGGLING)(
    '%s: refused, the connection closed, nothing run',
    async (_, request, status) => {
      modelCalls = () => 0;
      const port = await start();
      expect(await raw(port, request(path))).toMatch(status);
      expect(modelCalls()).toBe(0);
    },
  );
});
