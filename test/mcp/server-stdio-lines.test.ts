/**
 * Lines the MCP stdio transport cannot take (docs/mcp.md, "What a call returns"): each is
 * answered with the JSON-RPC 2.0 error it calls for, in order with the valid messages around it,
 * and the connection goes on. The first case runs the real `switchboard mcp` binary; the rest
 * drive the transport over in-memory streams.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { PassThrough } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { mcpStdioTransport } from '../../src/mcp/server-stdio.js';
import { buildOnce } from '../cli/build.js';
import { INITIALIZE, toolDefinitions, writeToolFiles } from './server-helpers.js';

/** Reads newline-delimited JSON from `stream`, one value per `next()`. */
function jsonLines(stream: NodeJS.ReadableStream): { next(): Promise<Record<string, unknown>> } {
  const lines = createInterface({ input: stream })[Symbol.asyncIterator]();
  return {
    async next() {
      const { value, done } = await lines.next();
      if (done === true) throw new Error('the stream ended');
      return JSON.parse(value as string) as Record<string, unknown>;
    },
  };
}

describe('switchboard mcp over stdio: a line it cannot take', () => {
  beforeAll(() => buildOnce());

  it('answers a non-JSON line -32700 and a non-message -32600, then initialize, in order', async () => {
    const files = writeToolFiles('http://127.0.0.1:9');
    const child = spawn(process.execPath, ['dist/cli/main.js', 'mcp', files.tools], {
      env: { PATH: process.env['PATH'] ?? '', NO_COLOR: '1' },
    });
    const exited = new Promise<number | null>((r) => child.on('close', r));
    const out = jsonLines(child.stdout);
    child.stdin.write('hello, is this JSON?\n');
    child.stdin.write('{"jsonrpc":"2.0","id":7,"method":42}\n');
    child.stdin.write(`${JSON.stringify(INITIALIZE)}\n`);
    expect(await out.next()).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: expect.stringContaining('not JSON') },
    });
    // The request's own id, so the client waiting on it gets its answer.
    expect(await out.next()).toMatchObject({
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32600, message: expect.stringContaining('"method" must be a string') },
    });
    expect(await out.next()).toMatchObject({
      jsonrpc: '2.0',
      id: 1,
      result: { serverInfo: { name: 'switchboard' } },
    });
    child.stdin.end();
    expect(await exited).toBe(0);
  });
});

describe('mcpStdioTransport', () => {
  async function connected(maxLineBytes?: number) {
    const server = createMcpServer({ tools: await loadTools(toolDefinitions('http://x.test')) });
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    await server.connect(
      mcpStdioTransport({ stdin, stdout, ...(maxLineBytes === undefined ? {} : { maxLineBytes }) }),
    );
    return { server, stdin, out: jsonLines(stdout) };
  }

  it('answers JSON that is not a message with id null, skips blank lines', async () => {
    const { server, stdin, out } = await connected();
    stdin.write('\n  \r\n[1,2]\n');
    stdin.write('"text"\n{"id":3,"method":"ping"}\n{"jsonrpc":"2.0","id":{"a":1},"method":"x"}\n');
    stdin.write('{"jsonrpc":"2.0","id":4,"method":"ping"}\n');
    const answers = [await out.next(), await out.next(), await out.next(), await out.next()];
    expect(
      answers.map((a) => [a['id'], (a['error'] as { code?: number } | undefined)?.code]),
    ).toEqual([
      [null, -32600],
      [null, -32600],
      [3, -32600],
      [null, -32600],
    ]);
    const message = (a: Record<string, unknown>) => (a['error'] as { message: string }).message;
    expect(message(answers[0]!)).toContain('batches are not part of MCP');
    expect(message(answers[1]!)).toContain('string, not an object');
    expect(message(answers[2]!)).toContain('"jsonrpc" must be "2.0"');
    expect(await out.next()).toEqual({ jsonrpc: '2.0', id: 4, result: {} });
    await server.close();
  });

  it('answers a line over the cap and takes the next one, however it arrives', async () => {
    const { server, stdin, out } = await connected(64);
    stdin.write(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"${'x'.repeat(40)}`);
    stdin.write(`${'y'.repeat(100)}"}}\n{"jsonrpc":"2.0","id":2,`);
    stdin.write('"method":"ping"}\n');
    const tooLong = {
      id: null,
      error: { code: -32600, message: expect.stringContaining('over 64 bytes') },
    };
    expect(await out.next()).toMatchObject(tooLong);
    expect(await out.next()).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
    // Whole in one chunk. (A refusal is written at once, a request answered when it is done, so
    // each request's answer is awaited here before the next line.)
    stdin.write(`{"pad":"${'z'.repeat(80)}"}\n{"jsonrpc":"2.0","id":3,"method":"ping"}\n`);
    expect(await out.next()).toMatchObject(tooLong);
    expect(await out.next()).toEqual({ jsonrpc: '2.0', id: 3, result: {} });
    await server.close();
  });

  it('takes a line of exactly the cap, whole or in chunks; one byte more is refused', async () => {
    const { server, stdin, out } = await connected(64);
    const line = (id: number, size: number): string => {
      const head = `{"jsonrpc":"2.0","id":${id},"method":"ping","params":{"p":"`;
      return `${head}${'x'.repeat(size - head.length - 3)}"}}`;
    };
    expect(Buffer.byteLength(line(1, 64))).toBe(64);
    stdin.write(`${line(1, 64)}\n`);
    expect(await out.next()).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    const split = line(2, 64);
    stdin.write(split.slice(0, 30));
    stdin.write(`${split.slice(30)}\n`);
    expect(await out.next()).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
    stdin.write(`${line(3, 65)}\n`);
    expect(await out.next()).toMatchObject({ id: null, error: { code: -32600 } });
    await server.close();
  });

  it('answers id null unless the refused line is a request with a string or integer id', async () => {
    const { server, stdin, out } = await connected();
    // MCP ids are strings or integers: 1.5 is not one the client can be waiting on.
    stdin.write('{"jsonrpc":"2.0","id":1.5,"method":42}\n');
    expect(await out.next()).toMatchObject({ id: null, error: { code: -32600 } });
    stdin.write('{"jsonrpc":"2.0","id":"a","method":42}\n');
    expect(await out.next()).toMatchObject({ id: 'a', error: { code: -32600 } });
    // A malformed response (no method) carries the client's own request id: answering with it
    // would settle that request with this error.
    stdin.write('{"jsonrpc":"2.0","id":5}\n');
    expect(await out.next()).toMatchObject({ id: null, error: { code: -32600 } });
    await server.close();
  });

  it('keeps a character split across chunks whole', async () => {
    const { server, stdin, out } = await connected();
    const line = Buffer.from('{"jsonrpc":"2.0","id":"é","method":"ping"}\n');
    const cut = line.indexOf(0xc3) + 1;
    stdin.write(line.subarray(0, cut));
    stdin.write(line.subarray(cut));
    expect(await out.next()).toEqual({ jsonrpc: '2.0', id: 'é', result: {} });
    await server.close();
  });
});
