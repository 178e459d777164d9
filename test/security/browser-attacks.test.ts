/**
 * A security reviewer's browser attacks, run in Debian's chromium (docs/reliability.md, "Incidents
 * and attacks kept as tests"): a page on another site (`http://evil.test`, pointed at 127.0.0.1 by
 * the browser's resolver) posting to `serve`, MCP over HTTP and the studio on loopback, and the
 * same name re-pointed at each server's own port (DNS rebinding), where its requests are
 * same-origin to the browser. Each attack is refused before a body is read; a page the server
 * itself serves on its loopback name gets through the same way, so a guard that stopped refusing
 * would fail here. The statuses are read from the browser's own view of the exchange.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { startStudio } from '../../src/studio/studio-server.js';
import { INITIALIZE_BODY } from '../mcp/server-helpers.js';
import { ScriptModel, startServer } from '../serve/helpers.js';
import { fn } from '../session/fixtures.js';
import { launchChromium } from '../studio/browser-harness.js';

interface Target {
  readonly name: string;
  readonly port: number;
  readonly path: string;
  readonly body: string;
  readonly headers: Record<string, string>;
  /** The body of a refused Host (MCP answers in JSON-RPC's shape). */
  readonly refusedHost: object;
  /** What a request that got past the guard is answered. */
  readonly allowed: number;
}

const EVIL = 'evil.test';
const cleanups: (() => Promise<unknown>)[] = [];
let browser: Browser;
let attacker: Server;
let attackerPort: number;
const model = new ScriptModel();
const targets: Target[] = [];

beforeAll(async () => {
  const launching = launchChromium([`--host-resolver-rules=MAP ${EVIL} 127.0.0.1`]);
  // The attacker's site: any page, on a port of its own.
  attacker = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>evil</title>');
  });
  await new Promise<void>((r) => attacker.listen(0, '127.0.0.1', r));
  attackerPort = (attacker.address() as AddressInfo).port;
  const tools = await loadTools([{ type: 'log', tool: fn('note', {}) }]);

  const serve = await startServer({ tools, model });
  cleanups.push(() => serve.agent.close());
  targets.push({
    name: 'serve',
    port: serve.port,
    path: '/run_agent',
    body: '{"prompt":"hi"}',
    headers: { 'content-type': 'application/json' },
    refusedHost: { error: { code: 'forbidden_host' } },
    allowed: 200,
  });

  const mcp = createMcpServer({ tools });
  cleanups.push(() => mcp.close());
  targets.push({
    name: 'MCP over HTTP',
    port: (await mcp.listen({})).address.port,
    path: '/mcp',
    body: INITIALIZE_BODY,
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    refusedHost: { error: { message: expect.stringMatching(/is not a loopback name/) } },
    allowed: 200,
  });

  const dir = mkdtempSync(join(tmpdir(), 'studio-attacks-'));
  mkdirSync(join(dir, 'ui'));
  writeFileSync(join(dir, 'ui', 'index.html'), '<!doctype html><title>studio</title>');
  const toolsFile = resolve('test/studio/e2e/tools.json');
  const studio = await startStudio({
    tools: await loadTools(toolsFile, { file: toolsFile }),
    toolsFile,
    model: 'manual',
    fixturesDir: dir,
    assetsDir: join(dir, 'ui'),
  });
  cleanups.push(async () => {
    await studio.close();
    rmSync(dir, { recursive: true, force: true });
  });
  targets.push({
    name: 'the studio',
    port: Number(new URL(studio.url).port),
    // Saving writes a file: the attack a page would most want.
    path: '/api/save',
    body: '{"name":"planted"}',
    headers: { 'content-type': 'application/json' },
    refusedHost: { error: { code: 'foreign_host' } },
    // Past the guard, with no conversation yet: "nothing to save".
    allowed: 409,
  });
  browser = await launching;
}, 30_000);

afterAll(async () => {
  await browser?.close();
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
  attacker?.closeAllConnections();
  await new Promise((r) => attacker?.close(r));
});

/** A fresh page at `url` (its own cookies and cache). */
async function pageAt(url: string): Promise<{ page: Page; status: number | undefined }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const response = await page.goto(url);
  return { page, status: response?.status() };
}

/** A same-origin `fetch` from the page: status and JSON body as the page's script sees them. */
function fetchFromPage(page: Page, t: Target): Promise<{ status: number; body: unknown }> {
  return page.evaluate(
    async ({ path, body, headers }) => {
      const res = await fetch(path, { method: 'POST', headers, body });
      // MCP answers a request it takes as an event stream; only refusals are read as JSON.
      const text = await res.text();
      return { status: res.status, body: res.ok ? text : (JSON.parse(text) as unknown) };
    },
    { path: t.path, body: t.body, headers: t.headers },
  );
}

const byName = (name: string): Target => targets.find((t) => t.name === name)!;

describe.each(['serve', 'MCP over HTTP', 'the studio'])('from chromium against %s', (name) => {
  it('a cross-site POST without a preflight is 403 before its body is read', async () => {
    const t = byName(name);
    const started = model.started;
    const { page } = await pageAt(`http://${EVIL}:${attackerPort}/`);
    const target = `http://127.0.0.1:${t.port}${t.path}`;
    // A no-cors body with no content type: what a form or a beacon sends, no preflight asked.
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.url() === target && r.request().method() === 'POST'),
      page.evaluate(
        async ({ target, body }) => {
          await fetch(target, { method: 'POST', mode: 'no-cors', body });
        },
        { target, body: t.body },
      ),
    ]);
    expect(answer.status()).toBe(403);
    // The body of an opaque answer is the browser's secret; the status is not. Without the Origin
    // check each server would have read the body (serve run it; the others refused its type, 415).
    expect(model.started).toBe(started);
    await page.context().close();
  });

  it('a cross-site JSON fetch fails in the page (its preflight is refused)', async () => {
    const t = byName(name);
    const { page } = await pageAt(`http://${EVIL}:${attackerPort}/`);
    const outcome = await page.evaluate(
      async ({ target, body, headers }) =>
        fetch(target, { method: 'POST', headers, body }).then(
          (r) => `answered ${r.status}`,
          (e: Error) => `failed: ${e.name}`,
        ),
      { target: `http://127.0.0.1:${t.port}${t.path}`, body: t.body, headers: t.headers },
    );
    expect(outcome).toBe('failed: TypeError');
    await page.context().close();
  });

  it('the attacker name rebound to the server: its page and same-origin POST are 403', async () => {
    const t = byName(name);
    const started = model.started;
    const { page, status } = await pageAt(`http://${EVIL}:${t.port}/`);
    expect(status).toBe(403);
    expect(await fetchFromPage(page, t)).toMatchObject({
      status: 403,
      body: t.refusedHost,
    });
    expect(model.started).toBe(started);
    await page.context().close();
  });

  it("the server's own loopback page gets through the same way (the control)", async () => {
    const t = byName(name);
    const { page } = await pageAt(`http://127.0.0.1:${t.port}/`);
    expect((await fetchFromPage(page, t)).status).toBe(t.allowed);
    await page.context().close();
  });
});
