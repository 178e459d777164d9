/**
 * MCP over Streamable HTTP (docs/mcp.md): one endpoint, `/mcp`, one SDK transport per MCP session
 * (routed by the `Mcp-Session-Id` header). Secure by default: it binds to loopback; a bind
 * elsewhere needs a bearer token; a loopback server without a token refuses a `Host` that is not a loopback name
 * and every server refuses a browser `Origin` it was not told to accept (DNS rebinding, as the MCP
 * specification asks). Refusals are answered before the SDK sees the request. An allowed browser
 * origin gets CORS answers (preflight, exposed `Mcp-Session-Id`), or no page could call at all.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  bearerMatches,
  bearerRefusal,
  checkBind,
  hostRefusal,
  isLoopbackHost,
  originAllowed,
} from '../http-guard.js';
import {
  limitConnections,
  resolveConnectionLimits,
  serverOptions,
  type ConnectionLimits,
} from '../http-limits.js';

/**
 * Options of the HTTP transport (`McpToolServer.listen`). The connection limits are those of
 * `switchboard serve` (header 10 s, request 30 s, keep-alive 5 s, 100 requests a connection, 256
 * connections): a client trickling its request is cut off, and slow clients make way for real ones.
 */
export interface McpHttpOptions extends ConnectionLimits {
  /** Address to bind. Default `127.0.0.1` (loopback only). */
  readonly host?: string;
  /** Port; 0 picks a free one. Default 0. */
  readonly port?: number;
  /**
   * Bearer token every request must carry (`Authorization: Bearer <token>`). Required when `host`
   * is not a loopback address.
   */
  readonly token?: string;
  /**
   * Browser origins allowed to call (exact, e.g. `https://app.example.com`); they get CORS answers.
   * A request without an `Origin` header (any non-browser client) is not affected. Default: the
   * loopback origins (`http://localhost:*`, `http://127.0.0.1:*`, `http://[::1]:*`) when bound to
   * loopback, else none.
   */
  readonly allowedOrigins?: readonly string[];
  /** MCP sessions open at once; an `initialize` past it is answered 503. Default 1000. */
  readonly maxSessions?: number;
  /**
   * A session with no request open (no call, no notification stream) for this long is closed
   * when the next session starts, as if its client had sent `DELETE`; a client that went away
   * without one keeps no place. Default 30 minutes.
   */
  readonly sessionIdleMs?: number;
  /** Clock for `sessionIdleMs` (tests). Default `Date.now`. */
  readonly now?: () => number;
}

/** A session's transport and when it was last used. */
interface OpenSession {
  readonly transport: StreamableHTTPServerTransport;
  /** Requests of this session not yet answered (an open notification stream is one). */
  open: number;
  lastSeen: number;
}

/** A listening HTTP transport. */
export interface McpHttpListener {
  /** The bound address and port. */
  readonly address: AddressInfo;
  /** The endpoint URL, e.g. `http://127.0.0.1:41234/mcp`. */
  readonly url: string;
  /** Stops listening and ends every MCP session it serves. */
  close(): Promise<void>;
}

/** The path served. */
export const MCP_HTTP_PATH = '/mcp';

/** Serves MCP sessions over HTTP; `connect` serves one over a transport. */
export async function serveMcpHttp(
  options: McpHttpOptions & { readonly connect: (transport: Transport) => Promise<void> },
): Promise<McpHttpListener> {
  const host = options.host ?? '127.0.0.1';
  const loopback = isLoopbackHost(host);
  const token = options.token;
  checkBind('serving MCP', host, token);
  const maxSessions = options.maxSessions ?? 1000;
  if (!Number.isInteger(maxSessions) || maxSessions < 1)
    throw new RangeError(`maxSessions must be a whole number ≥ 1, got ${maxSessions}`);
  const idleMs = options.sessionIdleMs ?? 30 * 60_000;
  if (!(idleMs > 0)) throw new RangeError(`sessionIdleMs must be above 0, got ${idleMs}`);
  const now = options.now ?? Date.now;
  // The options carry the limits' own keys; nothing else of them is read there.
  const limits = resolveConnectionLimits(options);
  const origins = new Set(options.allowedOrigins ?? []);
  const sessions = new Map<string, OpenSession>();
  /** Sessions whose `initialize` is being answered: they count against `maxSessions` too. */
  let starting = 0;

  /** Closes the sessions idle past `idleMs` (checked when a session starts: no timer to keep). */
  const sweep = async (): Promise<void> => {
    const cutoff = now() - idleMs;
    const idle = [...sessions].filter(([, s]) => s.open === 0 && s.lastSeen <= cutoff);
    for (const [sid] of idle) sessions.delete(sid);
    await Promise.all(idle.map(([, s]) => s.transport.close()));
  };

  /** Refusals that hold for any request and path, a browser's preflight included. */
  const refusal = (req: IncomingMessage): [number, string] | undefined => {
    const badHost = hostRefusal(req.headers.host, loopback, token);
    if (badHost !== undefined) return [403, badHost];
    const origin = req.headers.origin;
    if (origin !== undefined && !originAllowed(origin, origins, loopback))
      return [403, `Origin ${JSON.stringify(origin)} is not allowed`];
    return undefined;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const refused = refusal(req);
    if (refused !== undefined) return reply(res, refused[0], refused[1]);
    // An allowed browser origin must be told so on every answer (errors too), or the browser hides
    // it from the page; and asks first (a preflight) before any MCP request, without credentials.
    if (req.headers.origin !== undefined) allowCors(res, req.headers.origin);
    if (req.method === 'OPTIONS') return preflight(req, res);
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path !== MCP_HTTP_PATH) return notFound(res, path, token !== undefined);
    if (token !== undefined && !bearerMatches(req.headers.authorization, token))
      return reply(res, 401, bearerRefusal(req.headers.authorization), true);
    const id = req.headers['mcp-session-id'];
    if (typeof id === 'string') {
      const session = sessions.get(id);
      if (session === undefined) return reply(res, 404, 'unknown or ended MCP session');
      session.open++;
      session.lastSeen = now();
      res.once('close', () => {
        session.open--;
        session.lastSeen = now();
      });
      return session.transport.handleRequest(req, res);
    }
    if (req.method !== 'POST') return reply(res, 400, 'no Mcp-Session-Id: start with initialize');
    await sweep();
    if (sessions.size + starting >= maxSessions)
      return reply(res, 503, 'too many MCP sessions open');
    // A new session: the transport answers `initialize` (and refuses anything else) itself.
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (sid) =>
        void sessions.set(sid, { transport, open: 0, lastSeen: now() }),
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    starting++;
    try {
      await options.connect(transport);
      await transport.handleRequest(req, res);
    } finally {
      starting--;
    }
    // Not initialized (a bad first request): nothing keeps it.
    if (transport.sessionId === undefined) await transport.close();
  };

  const server = createServer(serverOptions(limits), (req, res) => {
    // An engine fault: the client learns nothing of it (the MCP SDK's own faults never get here).
    handle(req, res).catch(() => {
      if (!res.headersSent) reply(res, 500, 'internal error');
      else res.destroy();
    });
  });
  limitConnections(server, limits);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    address,
    url: `http://${shown}:${address.port}${MCP_HTTP_PATH}`,
    close: async () => {
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.all(open.map((s) => s.transport.close()));
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** Request headers a browser client sends: Streamable HTTP's own, and the bearer token. */
const CORS_REQUEST_HEADERS = [
  'content-type',
  'accept',
  'authorization',
  'mcp-session-id',
  'mcp-protocol-version',
  'last-event-id',
];
/** A header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** CORS for an allowed origin: the page may read the answer and the headers MCP needs. */
function allowCors(res: ServerResponse, origin: string): void {
  res.setHeader('access-control-allow-origin', origin);
  res.setHeader('vary', 'Origin');
  res.setHeader(
    'access-control-expose-headers',
    'Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate',
  );
}

/**
 * A CORS preflight (or any OPTIONS): the methods of the endpoint, and the headers asked for. Headers
 * beyond MCP's own are granted too (a client's custom header is ignored here, not worth a failed
 * connection); the token is checked on the request itself, since browsers send none here.
 */
function preflight(req: IncomingMessage, res: ServerResponse): void {
  const asked = (req.headers['access-control-request-headers'] ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter((h) => HEADER_NAME.test(h));
  const headers: Record<string, string> = {
    allow: 'GET, POST, DELETE, OPTIONS',
    'access-control-allow-methods': 'GET, POST, DELETE',
    'access-control-allow-headers': [...new Set([...CORS_REQUEST_HEADERS, ...asked])].join(', '),
    'access-control-max-age': '600',
  };
  // Chrome asks before a public page calls a private or loopback address (Private Network Access);
  // an origin the operator allowed may.
  if (
    req.headers.origin !== undefined &&
    req.headers['access-control-request-private-network'] === 'true'
  )
    headers['access-control-allow-private-network'] = 'true';
  res.writeHead(204, headers);
  res.end();
}

/**
 * Where an MCP client looks for OAuth after a 401 (the MCP authorization specification): the
 * metadata documents, then the default registration, authorization and token endpoints.
 */
const OAUTH_PATH =
  /^\/(\.well-known\/(oauth-[a-z-]+|openid-configuration)(\/.*)?|register|authorize|token)$/;

/**
 * 404 for a path other than `/mcp`. A client refused for want of the token goes looking for OAuth
 * (the MCP Inspector does) and shows what the last of these paths answered, so a server with a
 * token answers them in OAuth's error shape, saying which token it takes instead.
 */
function notFound(res: ServerResponse, path: string, withToken: boolean): void {
  if (!withToken || !OAUTH_PATH.test(path))
    return reply(res, 404, `not found; the MCP endpoint is ${MCP_HTTP_PATH}`);
  res.writeHead(404, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      error: 'invalid_request',
      error_description:
        'this MCP server has no OAuth: send the bearer token it was started with (Authorization: Bearer <token>)',
    }),
  );
}

/** A JSON-RPC error body, as the SDK's own transport answers refusals. */
function reply(res: ServerResponse, status: number, message: string, challenge = false): void {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (challenge) headers['www-authenticate'] = 'Bearer';
  res.writeHead(status, headers);
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}
