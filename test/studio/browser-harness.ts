/**
 * What the studio's browser tests share: start `switchboard studio` (the built CLI) and Debian's
 * chromium, wait on page state (playwright-core has no web-first asserts), and play the caller
 * and the model from the page.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';

const CHROMIUM = process.env['CHROMIUM_PATH'] || '/usr/bin/chromium';

/** A running studio: its address and its process (kill it in afterAll). */
export interface RunningStudio {
  readonly url: string;
  readonly process: ChildProcess;
}

/** Starts `switchboard studio <args> --port 0`; resolves with the address it prints. */
export function startStudio(args: readonly string[]): Promise<RunningStudio> {
  const studio = spawn(process.execPath, ['dist/cli/main.js', 'studio', ...args, '--port', '0'], {
    env: { PATH: process.env['PATH'] ?? '', NO_COLOR: '1' },
  });
  let out = '';
  studio.stderr?.on('data', (c: Buffer) => (out += c.toString()));
  return new Promise((ok, fail) => {
    studio.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /open (http:\/\/\S+)/.exec(out);
      if (m !== null) ok({ url: m[1]!, process: studio });
    });
    studio.on('exit', (code) => fail(new Error(`the studio exited (${code}): ${out}`)));
  });
}

/**
 * Debian's chromium (`CHROMIUM_PATH` overrides); a missing browser fails saying how to get it.
 * `args` are added to its command line (e.g. `--host-resolver-rules` to point a name at loopback).
 */
export function launchChromium(args: readonly string[] = []): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `chromium is not at ${CHROMIUM}: install it (apt-get install -y chromium) or set CHROMIUM_PATH`,
    );
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', ...args] });
}

/** Opens the studio's page; a step that does not happen fails in seconds, naming what it waited for. */
export async function openPage(browser: Browser, url: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.setDefaultTimeout(10_000);
  await page.goto(url);
  return page;
}

/** Waits until the locator's element shows the text. */
export async function shows(locator: Locator, text: string | RegExp): Promise<void> {
  await locator.filter({ hasText: text }).first().waitFor();
}

/** Waits until an element with this test id has the attribute value (and the text). */
export async function withAttribute(
  scope: Page | Locator,
  testid: string,
  attribute: string,
  value: string,
  hasText?: string,
): Promise<Locator> {
  const found = scope.locator(
    `[data-testid="${testid}"][${attribute}="${value}"]`,
    hasText !== undefined ? { hasText } : {},
  );
  await found.waitFor();
  return found;
}

/** The caller's and the model's moves on the page `page()` returns (set in beforeAll). */
export function player(page: () => Page) {
  return {
    /** The caller says a line. */
    async say(text: string): Promise<void> {
      await page().getByTestId('caller-input').fill(text);
      await page().getByTestId('caller-input').press('Enter');
    },
    /** Plays the model: a tool call with these fields, once the page asks for the model's move. */
    async callTool(tool: string, fields: Readonly<Record<string, string>>): Promise<void> {
      const panel = page().getByTestId('model-panel');
      await panel.getByTestId('tool-select').selectOption(tool);
      for (const [name, value] of Object.entries(fields)) {
        const input = panel.locator(`[name="${name}"]`);
        if ((await input.evaluate((e) => e.tagName)) === 'SELECT') await input.selectOption(value);
        else await input.fill(value);
      }
      await panel.getByTestId('call-submit').click();
    },
    /** Saves the conversation as `<name>.yaml`, runs every fixture, and opens the saved one, green. */
    async saveAndRunGreen(name: string): Promise<void> {
      const p = page();
      await p.getByTestId('save-name').fill(name);
      await p.getByTestId('save-submit').click();
      await shows(p.getByTestId('save-ok'), `${name}.yaml`);
      await p.getByTestId('tab-fixtures').click();
      await p.getByTestId('run-all').click();
      const saved = await withAttribute(p, 'fixture', 'data-status', 'passed', `${name}.yaml`);
      await saved.click();
      await shows(p.getByTestId('fixture-title'), 'passed');
    },
    /** Plays the model: a text reply. */
    async reply(text: string): Promise<void> {
      const panel = page().getByTestId('model-panel');
      await panel.getByTestId('reply-input').fill(text);
      await panel.getByTestId('reply-send').click();
    },
  };
}
