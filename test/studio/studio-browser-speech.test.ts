/**
 * `switchboard studio --speech-ack host` in a real browser: the page is the host's audio player.
 * The caller says bye, the model (played from the page) calls `hangup`, whose definition speaks
 * the farewell before it acts (a pre-tool phrase, `after_speech`): the hang-up waits until "Mark
 * spoken" is clicked, then ends the session. The conversation saved from the page replays green
 * in the fixtures tab and carries `speech_ack: host` and the `spoken` point.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOnce } from '../cli/build.js';
import {
  launchChromium,
  openPage,
  player,
  shows,
  startStudio,
  withAttribute,
  type RunningStudio,
} from './browser-harness.js';

const FAREWELL = 'Thanks for calling, goodbye!';

/**
 * A model's reply and a tool call cannot be one move from the page, so the farewell is the
 * hang-up's own pre-tool phrase: spoken as the call is dispatched, and the call (an action:
 * `after_speech` by default) waits for it. The cap is the largest allowed, so the call waits for
 * the click and never for the clock.
 */
const HANGUP = {
  type: 'action',
  tool: {
    type: 'function',
    function: {
      name: 'hangup',
      description: 'End the call.',
      parameters: { type: 'object', properties: {} },
    },
  },
  result: { status: 'ended' },
  options: {
    speech: {
      after_speech: true,
      max_wait_ms: 120_000,
      interruptible: false,
      before: { mode: 'always', phrases: { en: FAREWELL } },
    },
  },
};

let dir: string;
let studio: RunningStudio | undefined;
let browser: Browser;
let page: Page;
const { say, callTool, saveAndRunGreen } = player(() => page);

describe('switchboard studio --speech-ack host in a browser', () => {
  beforeAll(async () => {
    buildOnce();
    dir = mkdtempSync(join(tmpdir(), 'studio-speech-'));
    const tools = join(dir, 'tools.json');
    writeFileSync(tools, JSON.stringify([HANGUP]));
    const launching = launchChromium().then((b) => (browser = b));
    [studio] = await Promise.all([
      startStudio([tools, '--fixtures', dir, '--speech-ack', 'host']),
      launching,
    ]);
    page = await openPage(browser, studio.url);
  });

  afterAll(async () => {
    await browser?.close();
    studio?.process.kill('SIGTERM');
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it('a hang-up waits for "Mark spoken" after its farewell, then ends the session', async () => {
    // The host hangs up when asked to: the session ends after this turn.
    await page.getByText("Actions: the host's answers").click();
    await page.locator('#action-hangup').fill('{"end_session": true}');
    await page.getByRole('button', { name: 'Apply' }).click();
    await shows(page.locator('.actions .ok'), '1 answer(s) declared');

    await say('That is all, bye!');
    await callTool('hangup', {});
    const turn = page.getByTestId('turn-1');
    await withAttribute(turn, 'item-speech', 'data-playback', 'waiting', FAREWELL);
    // The farewell is out, not yet played: the hang-up waits, the turn runs, the session lives.
    await withAttribute(turn, 'item-tool', 'data-waiting', 'speech', 'hangup');
    await withAttribute(page, 'turn-1', 'data-running', 'true');
    expect(await page.getByTestId('session-ended').count()).toBe(0);

    await page.getByTestId('mark-spoken').click();
    await withAttribute(turn, 'item-speech', 'data-playback', 'played', FAREWELL);
    await withAttribute(page, 'turn-1', 'data-running', 'false');
    await page.getByTestId('session-ended').waitFor();
    expect(await page.getByTestId('error').count()).toBe(0);
  });

  it('saves the conversation as a fixture that replays green, with the spoken point', async () => {
    await saveAndRunGreen('farewell-then-hangup');
    const yaml = readFileSync(join(dir, 'farewell-then-hangup.yaml'), 'utf8');
    expect(yaml).toMatch(/^\s*speech_ack: host$/m);
    expect(yaml).toMatch(/^\s*spoken:/m);
    // The hangup ended the session: the saved turn expects it, and the run above replayed it.
    expect(yaml).toMatch(/^\s*ended: true$/m);
    expect(yaml.split('\n')[0]).toBe('# Recorded by `switchboard studio`.');
    expect(yaml).toContain(FAREWELL);
  });
});
