/**
 * A studio with a token, in a real browser: the printed URL opens the page (its token becomes
 * the page's cookie and leaves the address bar), the page's API calls and event stream carry the
 * cookie, and a browser without it gets nothing.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOnce } from '../cli/build.js';
import {
  launchChromium,
  openPage,
  player,
  startStudio,
  withAttribute,
  type RunningStudio,
} from './browser-harness.js';

const NOTE = {
  type: 'log',
  tool: {
    type: 'function',
    function: {
      name: 'note',
      description: 'Note something.',
      parameters: { type: 'object', properties: { text: { type: 'string' } } },
    },
  },
};

describe('switchboard studio --token in chromium', () => {
  let dir: string;
  let studio: RunningStudio;
  let browser: Browser;
  let page: Page;
  const { say, reply } = player(() => page);

  beforeAll(async () => {
    buildOnce();
    dir = mkdtempSync(join(tmpdir(), 'studio-token-browser-'));
    const tools = join(dir, 'tools.json');
    writeFileSync(tools, JSON.stringify([NOTE]));
    const launching = launchChromium().then((b) => (browser = b));
    [studio] = await Promise.all([
      startStudio([tools, '--fixtures', dir, '--token', 'page-secret']),
      launching,
    ]);
  });

  afterAll(async () => {
    await browser?.close();
    studio?.process.kill('SIGTERM');
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it('the printed URL opens a working page, and the token leaves the address bar', async () => {
    expect(studio.url).toMatch(/\/\?token=page-secret$/);
    page = await openPage(browser, studio.url);
    expect(page.url()).not.toContain('token');
    await say('hello');
    await reply('Hi there.');
    await withAttribute(page, 'turn-1', 'data-running', 'false');
    expect(await page.getByTestId('error').count()).toBe(0);
  });

  it('a browser without the cookie gets 401, page and API alike', async () => {
    const base = studio.url.replace(/\?token=.*$/, '');
    const stranger = await browser.newContext();
    try {
      const other = await stranger.newPage();
      expect((await other.goto(base))?.status()).toBe(401);
      expect((await other.goto(`${base}api/state`))?.status()).toBe(401);
    } finally {
      await stranger.close();
    }
  });
});
