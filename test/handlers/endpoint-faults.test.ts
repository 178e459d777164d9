import { createServer } from 'node:net';
import { brotliCompressSync, constants, deflateSync, gzipSync } from 'node:zlib';
import { Agent } from 'undici';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createEndpointHandler,
  type EndpointHandler,
} from '../../src/handlers/endpoint/endpoint-handler.js';
import type { HandlerOutcome } from '../../src/handlers/types.js';
import { useFaultEnv } from './fault-env.js';
import { makeContext, makeTool } from './helpers.js';
import { json, type TestServer } from './test-server.js';

const env = useFaultEnv();
const waits = env.waits;
let server: TestServer;
let handler: EndpointHandler;
beforeAll(() => {
  server = env.server;
  handler = env.handler;
});

function get(
  path: string,
  options: {
    method?: 'get' | 'post' | 'put' | 'delete';
    timeoutSecs?: number;
    signal?: AbortSignal;
    via?: EndpointHandler;
  } = {},
): Promise<HandlerOutcome> {
  const tool = makeTool({
    endpoint: {
      url: `${server.origin}${path}`,
      method: options.method ?? 'get',
      timeoutSecs: options.timeoutSecs ?? 2,
    },
  });
  return (options.via ?? handler).execute(
    {},
    makeContext(tool, options.signal === undefined ? {} : { signal: options.signal }),
  );
}

function code(outcome: HandlerOutcome): string {
  return outcome.type === 'error' ? outcome.error.code : 'success';
}

describe('endpoint against a misbehaving server', () => {
  it('no response headers ever → timeout at the deadline', async () => {
    server.route('/silent', () => undefined);
    const out = await get('/silent', { timeoutSecs: 1 });
    // The server never answers, so `timeout` is the deadline's doing (no upper time bound: a
    // loaded machine fires timers late, and the outcome already proves the point).
    expect(code(out)).toBe('timeout');
    expect(out.durationMs).toBeGreaterThanOrEqual(950);
    expect(server.requests).toHaveLength(1);
  });

  it('a body trickling one byte at a time still ends at the deadline', async () => {
    server.route('/trickle', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const t = setInterval(() => res.write('x'), 50);
      res.on('close', () => clearInterval(t));
    });
    const out = await get('/trickle', { timeoutSecs: 1 });
    // The trickle never ends: only the deadline can have ended the call.
    expect(code(out)).toBe('timeout');
  });

  it('socket reset mid-response → network, never a partial body; GET retried twice', async () => {
    server.route('/reset', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"partial":');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const out = await get('/reset');
    expect(code(out)).toBe('network');
    expect(server.requests).toHaveLength(3);
    expect(out.requests.map((r) => r.attempt)).toEqual([1, 2, 3]);
  });

  it('socket reset mid-response on POST → network, never retried', async () => {
    server.route('/reset', (_req, res) => {
      res.writeHead(200, { 'content-length': '1000' });
      res.write('{"partial":');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const out = await get('/reset', { method: 'post' });
    expect(code(out)).toBe('network');
    expect(server.requests).toHaveLength(1);
  });

  it('socket reset before any response → network; retried for PUT and DELETE, not POST', async () => {
    server.route('/drop', (req) => req.socket.destroy());
    expect(code(await get('/drop', { method: 'put' }))).toBe('network');
    expect(server.requests).toHaveLength(3);
    server.requests.length = 0;
    expect(code(await get('/drop', { method: 'delete' }))).toBe('network');
    expect(server.requests).toHaveLength(3);
    server.requests.length = 0;
    expect(code(await get('/drop', { method: 'post' }))).toBe('network');
    expect(server.requests).toHaveLength(1);
  });

  it('connection refused → network after retries', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const tool = makeTool({ endpoint: { url: `http://127.0.0.1:${port}/x`, timeoutSecs: 2 } });
    const out = await handler.execute({}, makeContext(tool));
    expect(code(out)).toBe('network');
    expect(out.requests).toHaveLength(3);
  });

  it('a 2 MB body → response_too_large and the connection is discarded', async () => {
    let closed = false;
    server.route('/big', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.on('close', () => (closed = true));
      res.end(Buffer.alloc(2 * 1024 * 1024, 0x20));
    });
    const out = await get('/big');
    expect(code(out)).toBe('response_too_large');
    // Only a network failure is retried: the same oversized answer would come back.
    expect(out.requests).toHaveLength(1);
    expect(waits).toEqual([]);
    await new Promise((r) => setTimeout(r, 50));
    expect(closed).toBe(true);
    server.route('/next', json(200, { ok: true }));
    expect(code(await get('/next'))).toBe('success');
  });

  it.each([
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    [
      'br',
      (b: Buffer) => brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }),
    ],
  ] as const)('decodes a large %s body', async (encoding, compress) => {
    const value = { items: Array.from({ length: 20_000 }, (_, i) => ({ i, name: `item ${i}` })) };
    server.route('/zip', (_req, res) => {
      res
        .writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding })
        .end(compress(Buffer.from(JSON.stringify(value))));
    });
    const out = await get('/zip');
    expect(out.type === 'success' && out.output).toEqual(value);
  });

  it('a gzip bomb is cut at the cap counted after decompression', async () => {
    const bomb = gzipSync(Buffer.alloc(20 * 1024 * 1024, 0x61));
    expect(bomb.length).toBeLessThan(1024 * 1024);
    server.route('/bomb', (_req, res) =>
      res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }).end(bomb),
    );
    expect(code(await get('/bomb'))).toBe('response_too_large');
  });

  it.each(['gzip', 'deflate', 'br'])('a corrupt %s body → bad_response', async (encoding) => {
    server.route('/corrupt', (_req, res) =>
      res
        .writeHead(200, { 'content-type': 'text/plain', 'content-encoding': encoding })
        .end('not compressed at all, not at all'),
    );
    const out = await get('/corrupt');
    expect(code(out)).toBe('bad_response');
    expect(out.requests).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('3xx is not followed → http_redirect', async () => {
    server.route('/moved', (_req, res) => res.writeHead(302, { location: '/elsewhere' }).end());
    server.route('/elsewhere', json(200, { followed: true }));
    const out = await get('/moved');
    expect(code(out)).toBe('http_redirect');
    expect(server.requests.map((r) => r.url)).toEqual(['/moved']);
  });

  it('500 with JSON → http_status with the status and a short excerpt, not retried', async () => {
    server.route('/fail', json(500, { error: 'database on fire', padding: 'x'.repeat(5000) }));
    const out = await get('/fail');
    expect(code(out)).toBe('http_status');
    if (out.type !== 'error') throw new Error('expected an error');
    expect(out.error.details).toMatchObject({ status: 500 });
    expect(out.error.message).toContain('database on fire');
    expect(String(out.error.details?.['body']).length).toBeLessThanOrEqual(200);
    expect(out.error.message.length).toBeLessThan(260);
    expect(server.requests).toHaveLength(1);
  });

  it.each([400, 404, 422])('%i is never retried', async (status) => {
    server.route('/client', json(status, { error: 'no' }));
    const out = await get('/client', { method: 'put' });
    expect(code(out)).toBe('http_status');
    expect(server.requests).toHaveLength(1);
  });

  it.each([502, 503, 504, 429])(
    '%i is retried twice for GET with backoff, never for POST',
    async (status) => {
      server.route('/flaky', json(status, { error: 'busy' }));
      expect(code(await get('/flaky'))).toBe('http_status');
      expect(server.requests).toHaveLength(3);
      expect(waits).toEqual([200, 400]);
      server.requests.length = 0;
      expect(code(await get('/flaky', { method: 'post' }))).toBe('http_status');
      expect(server.requests).toHaveLength(1);
    },
  );

  it('503 with Retry-After (seconds) inside the deadline is honoured, then succeeds', async () => {
    let n = 0;
    server.route('/later', (_req, res) => {
      n++;
      if (n === 1) res.writeHead(503, { 'retry-after': '1' }).end();
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    const out = await get('/later', { timeoutSecs: 3 });
    expect(out.type === 'success' && out.output).toEqual({ ok: true });
    expect(waits).toEqual([1000]);
    expect(out.requests.map((r) => r.status)).toEqual([503, 200]);
  });

  it('a retried first attempt is reported once per attempt, in order, across the retry', async () => {
    // The first attempt is sent outside the retry loop, which takes over its 503: each attempt must
    // still be reported exactly once (request, then its response), with its number.
    let n = 0;
    server.route('/twice', (_req, res) => {
      n++;
      if (n === 1) res.writeHead(503).end();
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    const tool = makeTool({ endpoint: { url: `${server.origin}/twice`, timeoutSecs: 3 } });
    const seen: string[] = [];
    const out = await handler.execute(
      {},
      {
        ...makeContext(tool, { onRequest: (r) => seen.push(`request ${r.attempt}`) }),
        onResponse: (r, status) => seen.push(`response ${r.attempt} ${status}`),
      },
    );
    expect(out.type === 'success' && out.output).toEqual({ ok: true });
    expect(seen).toEqual(['request 1', 'response 1 503', 'request 2', 'response 2 200']);
    expect(out.requests.map((r) => [r.attempt, r.status])).toEqual([
      [1, 503],
      [2, 200],
    ]);
  });

  it('503 with Retry-After (HTTP date) is honoured', async () => {
    let n = 0;
    server.route('/later', (_req, res) => {
      n++;
      if (n === 1)
        res.writeHead(503, { 'retry-after': new Date(Date.now() + 1000).toUTCString() }).end();
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    const out = await get('/later', { timeoutSecs: 5 });
    expect(out.type).toBe('success');
    expect(waits[0]).toBeGreaterThan(0);
    expect(waits[0]).toBeLessThanOrEqual(1000);
  });

  it('503 with a Retry-After beyond the deadline is not retried', async () => {
    server.route('/much-later', (_req, res) =>
      res.writeHead(503, { 'retry-after': '30' }).end('busy'),
    );
    const out = await get('/much-later', { timeoutSecs: 2 });
    expect(code(out)).toBe('http_status');
    expect(server.requests).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('the total time of all attempts never exceeds the deadline (real waits)', async () => {
    const real = createEndpointHandler();
    try {
      server.route('/slow-503', (_req, res) => setTimeout(() => res.writeHead(503).end(), 300));
      // A reference timer set alongside the 1 s deadline measures how late this machine fires
      // timers right now; the call may end that much later, never a further attempt later.
      const started = performance.now();
      const reference = new Promise<number>((resolve) =>
        setTimeout(() => resolve(performance.now() - started - 1000), 1000),
      );
      const out = await get('/slow-503', { timeoutSecs: 1, via: real });
      const late = Math.max(0, await reference);
      expect(['http_status', 'timeout']).toContain(code(out));
      expect(out.durationMs).toBeLessThan(1300 + late);
      expect(server.requests.length).toBeLessThanOrEqual(2);
    } finally {
      await real.close();
    }
  });

  it('HTML where JSON was expected: text/html → the text; JSON content-type → bad_response', async () => {
    server.route('/html', (_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html>hi</html>'),
    );
    const text = await get('/html');
    expect(text.type === 'success' && text.output).toBe('<html>hi</html>');
    server.route('/lying', (_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('<html>oops</html>'),
    );
    expect(code(await get('/lying'))).toBe('bad_response');
  });

  it('empty 200 → {"status":200}; 204 → {"status":204}', async () => {
    server.route('/empty', (_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(),
    );
    server.route('/none', (_req, res) => res.writeHead(204).end());
    const empty = await get('/empty');
    const none = await get('/none', { method: 'delete' });
    expect(empty.type === 'success' && empty.output).toEqual({ status: 200 });
    expect(none.type === 'success' && none.output).toEqual({ status: 204 });
  });

  it('response headers over 16 KiB → response_too_large (own Agent)', async () => {
    server.route('/headers', (_req, res) =>
      res.writeHead(200, { 'x-big': 'a'.repeat(20 * 1024) }).end('{}'),
    );
    const out = await get('/headers');
    expect(code(out)).toBe('response_too_large');
    expect(out.type === 'error' && out.error.message).toContain('headers');
  });

  it('a body of exactly maxResponseBytes is accepted; one byte more is response_too_large', async () => {
    const capped = createEndpointHandler({ maxResponseBytes: 1000 });
    try {
      server.route('/exact', (_req, res) =>
        res.writeHead(200, { 'content-type': 'text/plain' }).end('a'.repeat(1000)),
      );
      server.route('/over', (_req, res) =>
        res.writeHead(200, { 'content-type': 'text/plain' }).end('a'.repeat(1001)),
      );
      const exact = await get('/exact', { via: capped });
      expect(exact.type === 'success' && exact.output).toBe('a'.repeat(1000));
      expect(code(await get('/over', { via: capped }))).toBe('response_too_large');
    } finally {
      await capped.close();
    }
  });

  it('response headers over 16 KiB → response_too_large (injected dispatcher with a larger limit)', async () => {
    const dispatcher = new Agent({ maxHeaderSize: 128 * 1024 });
    const injected = createEndpointHandler({ dispatcher });
    try {
      server.route('/headers', (_req, res) =>
        res.writeHead(200, { 'x-big': 'a'.repeat(20 * 1024) }).end('{}'),
      );
      expect(code(await get('/headers', { via: injected }))).toBe('response_too_large');
      server.route('/fine', json(200, { ok: 1 }));
      expect(code(await get('/fine', { via: injected }))).toBe('success');
    } finally {
      await injected.close();
      await dispatcher.close();
    }
  });

  it('cancellation through the signal → cancelled, promptly', async () => {
    server.route('/silent', () => undefined);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const out = await get('/silent', { timeoutSecs: 5, signal: controller.signal });
    // `cancelled`, not the 5 s `timeout`: the signal ended it.
    expect(code(out)).toBe('cancelled');
  });
});
