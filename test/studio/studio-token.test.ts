/**
 * A studio with a token (required off loopback): only the printed URL opens it, its token
 * becoming the page's cookie; every other request without the cookie or a bearer token is 401.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { startStudio, type Studio } from '../../src/studio/studio-server.js';

const TOOLS = resolve('test/studio/e2e/tools.json');
// Characters a cookie cannot hold as they are: the cookie carries it encoded.
const TOKEN = 'tok en;=1';
let dir: string;
let studio: Studio;
let port: number;

function get(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: IncomingHttpHeaders; text: string }> {
  return new Promise((ok, fail) => {
    const req = request(
      { host: '127.0.0.1', port, path, headers: { host: `127.0.0.1:${port}`, ...headers } },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => ok({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    req.on('error', fail);
    req.end();
  });
}

async function start(o: { host?: string; token?: string }): Promise<Studio> {
  return startStudio({
    tools: await loadTools(TOOLS, { file: TOOLS }),
    toolsFile: TOOLS,
    model: 'manual',
    fixturesDir: dir,
    assetsDir: join(dir, 'ui'),
    ...o,
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'studio-token-'));
  mkdirSync(join(dir, 'ui'));
  writeFileSync(join(dir, 'ui', 'index.html'), '<!doctype html><title>studio</title>');
  studio = await start({ token: TOKEN });
  port = Number(new URL(studio.url).port);
});

afterAll(async () => {
  await studio?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a studio with a token', () => {
  it('prints a URL that carries it; opening it sets the cookie and drops it from the address', async () => {
    const url = new URL(studio.url);
    expect(url.searchParams.get('token')).toBe(TOKEN);
    const opened = await get(`${url.pathname}${url.search}`);
    expect(opened.status).toBe(303);
    expect(opened.headers.location).toBe('/');
    const cookie = opened.headers['set-cookie']?.[0] ?? '';
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    const pair = cookie.split(';', 1)[0]!;
    expect((await get('/', { cookie: pair })).status).toBe(200);
    expect((await get('/api/tools', { cookie: `other=1; ${pair}` })).status).toBe(200);
    // Named per port: cookies do not tell ports apart, so another studio's cookie is not this one's.
    expect(pair.startsWith(`switchboard_studio_${port}=`)).toBe(true);
    const value = pair.slice(pair.indexOf('=') + 1);
    expect((await get('/', { cookie: `switchboard_studio_${port + 1}=${value}` })).status).toBe(
      401,
    );
  });

  it('refuses the page, the API and the event stream without it, and a wrong one', async () => {
    for (const path of ['/', '/api/tools', '/api/state', '/api/events', '/?token=wrong']) {
      const r = await get(path);
      expect(r.status, path).toBe(401);
      expect(JSON.parse(r.text)).toMatchObject({ error: { code: 'unauthorized' } });
      expect(r.text).not.toContain(TOKEN);
    }
    expect((await get('/api/tools', { cookie: `switchboard_studio_${port}=wrong` })).status).toBe(
      401,
    );
  });

  it('a script may send it as a bearer token', async () => {
    expect((await get('/api/tools', { authorization: `Bearer ${TOKEN}` })).status).toBe(200);
  });

  it('listens on an address that is not loopback only with a token (nothing is bound)', async () => {
    await expect(start({ host: '0.0.0.0' })).rejects.toThrow(
      'serving the studio on 0.0.0.0 (not loopback) needs a bearer token',
    );
  });
});
