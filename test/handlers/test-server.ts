/**
 * A real node:http server on 127.0.0.1 (random port) that misbehaves on demand. Each test sets a
 * route handler; the server records every request (method, url, headers, body) and counts
 * connections, so tests can assert "zero connections" and "never retried".
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A request the server received. */
export interface ReceivedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

/** Answers one request. */
export type Route = (req: IncomingMessage, res: ServerResponse, body: string) => void;

/** A running misbehaving server. */
export interface TestServer {
  readonly origin: string;
  readonly port: number;
  readonly requests: ReceivedRequest[];
  /** Connections accepted since the last reset. */
  connections: number;
  /** Sets how requests to `path` (exact pathname, or `*`) are answered. */
  route(path: string, handler: Route): void;
  reset(): void;
  close(): Promise<void>;
}

/** Starts a server on 127.0.0.1 with a random port. */
export async function startTestServer(
  options: { maxHeaderSize?: number } = {},
): Promise<TestServer> {
  const routes = new Map<string, Route>();
  const sockets = new Set<Socket>();
  const state = { connections: 0 };
  const requests: ReceivedRequest[] = [];
  const server: Server = createServer(
    { maxHeaderSize: options.maxHeaderSize ?? 64 * 1024 },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
        const path = new URL(req.url ?? '/', 'http://x').pathname;
        const route = routes.get(path) ?? routes.get('*');
        if (route === undefined) {
          res.writeHead(404, { 'content-type': 'text/plain' }).end('no route');
          return;
        }
        route(req, res, body);
      });
    },
  );
  server.on('connection', (socket: Socket) => {
    state.connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    requests,
    get connections() {
      return state.connections;
    },
    set connections(n: number) {
      state.connections = n;
    },
    route: (path, handler) => {
      routes.set(path, handler);
    },
    reset: () => {
      routes.clear();
      requests.length = 0;
      state.connections = 0;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Answers with JSON. */
export function json(status: number, value: unknown, headers: Record<string, string> = {}): Route {
  return (_req, res) => {
    res
      .writeHead(status, { 'content-type': 'application/json', ...headers })
      .end(JSON.stringify(value));
  };
}
