/**
 * Shared by the MCP server tests: a loopback API the endpoint tools call (it records every
 * request and can hold one until the test releases it or the client goes away), and the tool
 * definitions of each kind written against it.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface SeenRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

/** The loopback API: `/weather` answers, `/slow` holds the request until it is closed. */
export interface LoopbackApi {
  readonly base: string;
  readonly seen: SeenRequest[];
  /** Resolves when a `/slow` request arrives. */
  slowArrived(): Promise<void>;
  /** Resolves when the client of a held `/slow` request went away (the call was aborted). */
  slowAborted(): Promise<void>;
  close(): Promise<void>;
}

export async function startLoopbackApi(): Promise<LoopbackApi> {
  const seen: SeenRequest[] = [];
  let arrived: () => void = () => undefined;
  let arrivedP = new Promise<void>((r) => (arrived = r));
  let aborted: () => void = () => undefined;
  let abortedP = new Promise<void>((r) => (aborted = r));
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      if (req.url?.startsWith('/slow') === true) {
        res.on('close', () => aborted());
        arrived();
        return; // held: never answered
      }
      if (req.url?.startsWith('/echo') === true) {
        // Everything it was sent, credentials included (a careless API).
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ url: req.url, authorization: req.headers.authorization ?? null }));
        return;
      }
      if (req.url?.startsWith('/missing') === true) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{"detail":"no such order"}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(req.method === 'POST' ? '{"booked":true}' : '{"summary":"sunny","temp":21}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    base: `http://127.0.0.1:${port}`,
    seen,
    slowArrived: () => arrivedP,
    slowAborted: () => abortedP,
    close: () =>
      new Promise<void>((r) => {
        arrivedP = Promise.resolve();
        abortedP = Promise.resolve();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const fn = (
  name: string,
  description: string,
  properties: Record<string, unknown> = {},
  required: string[] = [],
) => ({
  type: 'function',
  function: { name, description, parameters: { type: 'object', properties, required } },
});

/** One tool of each kind, the endpoints against `base`. */
export function toolDefinitions(base: string): unknown[] {
  return [
    {
      type: 'endpoint',
      tool: fn('get_weather', 'Current weather for a city.', { city: { type: 'string' } }, [
        'city',
      ]),
      endpoint: { url: `${base}/weather`, method: 'get', argument_location: 'query' },
      static_parameters: [{ name: 'units', type: 'string', default: 'metric' }],
    },
    {
      type: 'endpoint',
      tool: fn('book', 'Book a table.', { seats: { type: 'integer', minimum: 1 } }, ['seats']),
      endpoint: { url: `${base}/book`, method: 'post', argument_location: 'body' },
    },
    {
      type: 'endpoint',
      tool: fn('refresh', 'Refresh the cache.'),
      endpoint: { url: `${base}/refresh`, method: 'put', argument_location: 'body' },
    },
    {
      type: 'endpoint',
      tool: fn('order_status', 'Status of an order.'),
      endpoint: { url: `${base}/missing`, method: 'get', argument_location: 'query' },
    },
    {
      type: 'endpoint',
      tool: fn('slow_lookup', 'A lookup that takes long.'),
      endpoint: { url: `${base}/slow`, method: 'get', argument_location: 'query', timeout: 60 },
    },
    {
      type: 'action',
      tool: fn('transfer', 'Transfer the caller.', { to: { type: 'string' } }, ['to']),
    },
    {
      type: 'context',
      tool: fn(
        'set_language',
        'Switch the language.',
        { language: { type: 'string' }, message: { type: 'string' } },
        ['language'],
      ),
      result: 'Language is now {{vars.session.language}}.',
    },
    {
      type: 'log',
      tool: fn('note', 'Note the call reason.', { reason: { type: 'string' } }, ['reason']),
    },
  ];
}

/** Writes the definitions (and an actions module) to a temporary folder; returns the paths. */
export function writeToolFiles(base: string): { tools: string; actions: string } {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-mcp-'));
  const tools = join(dir, 'tools.json');
  writeFileSync(tools, JSON.stringify(toolDefinitions(base)));
  const actions = join(dir, 'actions.mjs');
  writeFileSync(actions, 'export function transfer(args) { return { transferred: args.to }; }\n');
  return { tools, actions };
}

/** The text of an MCP call result's first content block. */
export function textOf(result: unknown, index = 0): string {
  const content = (result as { content: { type: string; text?: string }[] }).content;
  return content[index]?.text ?? '';
}

/** A JSON-RPC `initialize` request, as a client's first message. */
export const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 't', version: '1' },
  },
} as const;

/** Its body, as a client's first POST sends it. */
export const INITIALIZE_BODY = JSON.stringify(INITIALIZE);
