/**
 * `switchboard studio`'s web server: node:http on loopback by default, the page's assets from
 * the package (nothing fetched from the internet), a JSON API, and the conversation's state
 * pushed to the page by server-sent events on every change.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ToolSet } from '../definition/types.js';
import type { ManualStep } from '../harness/manual-model.js';
import type { Model } from '../models/types.js';
import type { ServiceConfig } from '../session/types.js';
import { HttpProblem, readBody } from '../serve/request-body.js';
import { explainCall } from './explain.js';
import { listFixtures, runFixtureForStudio, sessionTimeline } from './fixture-runs.js';
import type { DoubleExchange } from './protocol.js';
import { checkBind, tokenMatches } from '../http-guard.js';
import {
  limitConnections,
  resolveConnectionLimits,
  serverOptions,
  type ConnectionLimits,
} from '../http-limits.js';
import { guardRequest, guardToken, studioHosts, tokenCookie } from './request-guard.js';
import { StudioProblem } from './studio-problem.js';
import { StudioSession, type StudioSessionOptions } from './studio-session.js';
import { issueView, toolViews } from './tool-view.js';

/** Largest request body the page sends (a saved session to open can be big). */
const MAX_BODY_BYTES = 8 * 1024 * 1024;

const TYPES = new Map([
  ['.html', 'text/html; charset=utf-8'],
  ['.js', 'text/javascript; charset=utf-8'],
  ['.css', 'text/css; charset=utf-8'],
  ['.png', 'image/png'],
]);

/** Options of {@link startStudio}. */
export interface StudioOptions {
  readonly tools: ToolSet;
  /** Absolute path of the tools file. */
  readonly toolsFile: string;
  readonly model: Model | 'manual';
  readonly services?: Readonly<Record<string, ServiceConfig>>;
  /** Programs command tools run, by name. */
  readonly commands?: StudioSessionOptions['commands'];
  /** Initial session variables (`--vars`). Default none. */
  readonly vars?: Readonly<Record<string, unknown>>;
  /** The host's system values (`--system-values`). Default none. */
  readonly systemValues?: StudioSessionOptions['systemValues'];
  /** Who acknowledges playback (`--speech-ack`). Default `auto`. */
  readonly speechAck?: 'host' | 'auto';
  readonly language?: string;
  readonly languages?: readonly string[];
  /** The fixtures folder: "save" writes there, "run fixtures" runs it. */
  readonly fixturesDir: string;
  /** Default `127.0.0.1`. */
  readonly host?: string;
  /**
   * A secret every request must carry (the page gets it as a cookie by opening `url`, which
   * then ends in `?token=…`). Required to listen on an address that is not loopback: anyone who
   * reaches the page can run the tools with the services' credentials.
   */
  readonly token?: string;
  /** Default 0 (any free port). */
  readonly port?: number;
  /** The built page. Default the package's `dist/studio/ui/`. */
  readonly assetsDir?: string;
  /** Slow clients cut off, connections capped: `switchboard serve`'s defaults unless given (tests). */
  readonly limits?: ConnectionLimits;
}

/** A running studio. */
export interface Studio {
  readonly url: string;
  close(): Promise<void>;
}

/** Starts the studio; resolves once it listens. */
export async function startStudio(o: StudioOptions): Promise<Studio> {
  checkBind('serving the studio', o.host ?? '127.0.0.1', o.token);
  const assets = o.assetsDir ?? fileURLToPath(new URL('./ui/', import.meta.url));
  const clients = new Set<ServerResponse>();
  let session: StudioSession | undefined;
  // Changes coalesce: a burst of events (a streaming reply) sends the state once per tick.
  let queued = false;
  const push = (): void => {
    if (queued) return;
    queued = true;
    setImmediate(() => {
      queued = false;
      if (session === undefined || clients.size === 0) return;
      const data = `event: state\ndata: ${JSON.stringify(session.state())}\n\n`;
      for (const c of clients) c.write(data);
    });
  };
  session = new StudioSession({
    tools: o.tools,
    toolsFile: o.toolsFile,
    model: o.model,
    ...(o.services !== undefined ? { services: o.services } : {}),
    ...(o.commands !== undefined ? { commands: o.commands } : {}),
    ...(o.vars !== undefined ? { vars: o.vars } : {}),
    ...(o.systemValues !== undefined ? { systemValues: o.systemValues } : {}),
    ...(o.speechAck !== undefined ? { speechAck: o.speechAck } : {}),
    ...(o.language !== undefined ? { language: o.language } : {}),
    ...(o.languages !== undefined ? { languages: o.languages } : {}),
    fixturesDir: o.fixturesDir,
    onChange: push,
  });
  const live = session;
  const host = o.host ?? '127.0.0.1';
  let hosts = new Set<string>();
  let port = 0;

  const api = async (req: IncomingMessage, res: ServerResponse, path: string): Promise<unknown> => {
    const body = req.method === 'POST' ? parseJson(await readBody(req, MAX_BODY_BYTES)) : {};
    switch (`${req.method} ${path}`) {
      case 'GET /api/tools':
        return {
          toolsFile: shownPath(o.toolsFile),
          tools: toolViews(o.tools),
          warnings: o.tools.warnings.map(issueView),
        };
      case 'GET /api/state':
        return live.state();
      case 'GET /api/events':
        res.writeHead(200, {
          'content-type': 'text/event-stream',
          'cache-control': 'no-store',
          connection: 'keep-alive',
        });
        res.write(`event: state\ndata: ${JSON.stringify(live.state())}\n\n`);
        clients.add(res);
        req.on('close', () => clients.delete(res));
        return undefined;
      case 'POST /api/say':
        live.send(stringField(body, 'text'));
        return { ok: true };
      case 'POST /api/language':
        await live.setLanguage(stringField(body, 'language'));
        return { ok: true };
      case 'POST /api/spoken': {
        const id = field(body, 'speechId');
        if (id !== undefined && typeof id !== 'string')
          throw new StudioProblem(400, 'bad_request', 'speechId: expected a string (or none: all)');
        live.spoken(id);
        return { ok: true };
      }
      case 'POST /api/interrupt':
        live.interrupt();
        return { ok: true };
      case 'POST /api/model':
        live.modelStep(manualStep(body));
        return { ok: true };
      case 'POST /api/http': {
        const mode = stringField(body, 'mode');
        if (mode !== 'real' && mode !== 'double')
          throw new StudioProblem(400, 'bad_request', 'mode: expected real or double');
        await live.setHttp(mode, exchanges(field(body, 'exchanges')));
        return { ok: true };
      }
      case 'POST /api/actions': {
        const answers = field(body, 'answers') ?? {};
        if (answers === null || typeof answers !== 'object' || Array.isArray(answers))
          throw new StudioProblem(400, 'bad_request', 'answers: expected an object by action tool');
        live.setActions(new Map(Object.entries(answers)));
        return { ok: true };
      }
      case 'POST /api/reset':
        await live.reset();
        return { ok: true };
      case 'POST /api/save':
        return { file: await live.save(stringField(body, 'name')) };
      case 'GET /api/session':
        return live.toJSON();
      case 'POST /api/open-session':
        try {
          return { turns: sessionTimeline(field(body, 'session')) };
        } catch (error) {
          throw new StudioProblem(400, 'not_a_session', (error as Error).message);
        }
      case 'GET /api/fixtures':
        return { dir: shownPath(resolve(o.fixturesDir)), files: await listFixtures(o.fixturesDir) };
      case 'POST /api/fixtures/run': {
        const files = await listFixtures(o.fixturesDir);
        const only = field(body, 'file');
        if (only !== undefined && (typeof only !== 'string' || !files.includes(only)))
          throw new StudioProblem(
            404,
            'unknown_fixture',
            `${JSON.stringify(only)} is not a fixture of ${resolve(o.fixturesDir)}`,
          );
        const chosen = only === undefined ? files : [only];
        const results = [];
        for (const file of chosen) results.push(await runFixtureForStudio({ file }));
        return { results };
      }
      case 'POST /api/explain':
        return explainCall({
          tools: o.tools,
          tool: stringField(body, 'tool'),
          args: stringField(body, 'args'),
          vars: stringField(body, 'vars'),
          language: stringField(body, 'language'),
        });
      default:
        throw new StudioProblem(404, 'not_found', `no ${req.method} ${path}`);
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    guardRequest(req, hosts);
    const url = new URL(req.url ?? '/', 'http://studio');
    const path = url.pathname;
    const given = url.searchParams.get('token');
    if (o.token !== undefined && req.method === 'GET' && given !== null) {
      // The printed URL: its token becomes the page's cookie, and the address bar loses it.
      if (!tokenMatches(given, o.token))
        throw new StudioProblem(401, 'unauthorized', "this is not the studio's token");
      res.writeHead(303, {
        location: path,
        'set-cookie': `${tokenCookie(port)}=${encodeURIComponent(o.token)}; HttpOnly; SameSite=Strict; Path=/`,
        'cache-control': 'no-store',
      });
      res.end();
      return;
    }
    guardToken(req, o.token, port);
    if (path.startsWith('/api/')) {
      const answer = await api(req, res, path);
      if (answer !== undefined) send(res, 200, answer);
      return;
    }
    const name = path === '/' ? 'index.html' : path.slice(1);
    const type = TYPES.get(extname(name));
    if (!/^[\w-]+\.\w+$/.test(name) || type === undefined)
      throw new StudioProblem(404, 'not_found', `no ${path}`);
    let content: Buffer;
    try {
      content = await readFile(join(assets, name));
    } catch {
      throw new StudioProblem(
        name === 'index.html' ? 500 : 404,
        name === 'index.html' ? 'assets_missing' : 'not_found',
        name === 'index.html'
          ? `the studio's page is not built (${assets}): run npm run build`
          : `no ${path}`,
      );
    }
    res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' });
    res.end(content);
  };

  const limits = resolveConnectionLimits(o.limits ?? {});
  const server: Server = createServer(serverOptions(limits), (req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) {
        res.end();
        return;
      }
      // HttpProblem: readBody's refusals (413 body_too_large), the client's mistake, not a 500.
      if (error instanceof StudioProblem || error instanceof HttpProblem)
        send(res, error.status, { error: { code: error.code, message: error.message } });
      else
        send(res, 500, {
          error: {
            code: 'internal',
            message: error instanceof Error ? error.message : String(error),
          },
        });
    });
  });
  limitConnections(server, limits);
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(o.port ?? 0, host, () => ok());
  });
  port = (server.address() as AddressInfo).port;
  hosts = studioHosts({ host, port });
  const shown = host.includes(':') ? `[${host}]` : host;
  const query = o.token === undefined ? '' : `?token=${encodeURIComponent(o.token)}`;
  return {
    url: `http://${shown}:${port}/${query}`,
    close: async () => {
      for (const c of clients) c.end();
      clients.clear();
      await live.close();
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}

/** A path as the page shows it: relative to where the studio was started, when inside it. */
function shownPath(path: string): string {
  if (path === '') return path;
  const rel = relative(process.cwd(), path);
  return rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? path : rel;
}

function send(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
  });
  res.end(JSON.stringify(value));
}

function parseJson(text: string): unknown {
  try {
    return text === '' ? {} : JSON.parse(text);
  } catch (error) {
    throw new StudioProblem(400, 'bad_json', `the body is not JSON: ${(error as Error).message}`);
  }
}

function field(body: unknown, name: string): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new StudioProblem(400, 'bad_request', 'expected a JSON object');
  return Object.hasOwn(body, name) ? (body as Record<string, unknown>)[name] : undefined;
}

function stringField(body: unknown, name: string): string {
  const value = field(body, name) ?? '';
  if (typeof value !== 'string')
    throw new StudioProblem(400, 'bad_request', `${name}: expected a string`);
  return value;
}

function manualStep(body: unknown): ManualStep {
  const type = stringField(body, 'type');
  if (type === 'reply') return { type, text: stringField(body, 'text') };
  if (type === 'call') {
    const name = stringField(body, 'name');
    if (name === '') throw new StudioProblem(400, 'bad_request', 'name: choose a tool');
    // Sent verbatim: malformed JSON is how the engine's own tool error is seen.
    return { type, name, arguments: stringField(body, 'arguments') || '{}' };
  }
  throw new StudioProblem(400, 'bad_request', 'type: expected reply or call');
}

function exchanges(value: unknown): DoubleExchange[] {
  if (value === undefined) return [];
  if (!Array.isArray(value))
    throw new StudioProblem(400, 'bad_request', 'exchanges: expected an array');
  return value.map((x: unknown, i) => {
    const status = field(x, 'status');
    if (typeof status !== 'number')
      throw new StudioProblem(
        400,
        'bad_exchange',
        `HTTP double answer ${i + 1}: status: expected a number`,
      );
    return {
      method: stringField(x, 'method'),
      url: stringField(x, 'url'),
      status,
      body: stringField(x, 'body'),
    };
  });
}
