/**
 * The studio end to end, in a real browser (Debian's chromium driven by playwright-core): load a
 * tool set, play a two-turn conversation with a tool call and a language switch, open the HTTP
 * call's timeline item, save a fixture and run it green, open a failing fixture and see its diff.
 * STUDIO_SCREENSHOTS=1 writes the screenshots of docs/studio.md (docs/studio-images/).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
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

const SHOTS = process.env['STUDIO_SCREENSHOTS'] === '1';
const TOOLS = resolve('test/studio/e2e/tools.json');
const TOKEN = 's3cret-token-123';

const FAILING = `name: the city as the model said it
tools: ${JSON.stringify(TOOLS)}
session:
  services:
    clinic: { auth: { type: bearer, token: fixture-token }, origins: ["https://api.clinic.test"] }
http:
  - request: { method: POST, url: "https://api.clinic.test/v1/appointments" }
    response: { status: 201, json: { id: A-9 } }
turns:
  - user: "Book Bo in the Bronx"
    model:
      - tool_calls: [{ name: book_appointment, args: { patient_name: Bo, city: Bronx, date: "2025-01-01" } }]
      - text: "Done."
    expect:
      tool_calls:
        - name: book_appointment
          args: { patient_name: Bo, city: Bronx, date: "2025-01-01", channel: voice }
`;

let dir: string;
let studio: RunningStudio | undefined;
let browser: Browser;
let page: Page;
const { say, callTool, reply, saveAndRunGreen } = player(() => page);

async function shot(name: string): Promise<void> {
  if (SHOTS) await page.screenshot({ path: `docs/studio-images/${name}.png`, fullPage: true });
}

describe('switchboard studio in a browser', () => {
  beforeAll(async () => {
    buildOnce();
    dir = mkdtempSync(join(tmpdir(), 'studio-'));
    writeFileSync(join(dir, 'failing.yaml'), FAILING);
    const services = {
      clinic: { auth: { type: 'bearer', token: TOKEN }, origins: ['https://api.clinic.test'] },
    };
    // The browser check comes first: a missing chromium fails before any studio starts.
    const launching = launchChromium().then((b) => (browser = b));
    [studio] = await Promise.all([
      startStudio([
        TOOLS,
        '--fixtures',
        dir,
        '--languages',
        'en-US,es-US',
        '--services',
        JSON.stringify(services),
      ]),
      launching,
    ]);
    page = await openPage(browser, studio.url);
  });

  afterAll(async () => {
    await browser?.close();
    studio?.process.kill('SIGTERM');
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it('shows the tool set with what the model does not see', async () => {
    await page.getByTestId('tab-tools').click();
    await shows(page.getByTestId('tool-detail'), 'book_appointment');
    await shows(page.getByTestId('tool-detail'), 'https://api.clinic.test/v1/appointments');
    await page
      .getByTestId('explain-args')
      .fill('{"patient_name":"Ana","city":"Bronx","date":"2025-03-20"}');
    await page.getByTestId('explain-submit').click();
    await shows(page.getByTestId('explain-result'), 'The Bronx');
    await shot('tools');
    await page.getByTestId('tab-conversation').click();
  });

  it('plays two turns with a tool call and a language switch, and opens the HTTP call', async () => {
    // The endpoint is answered by the page's HTTP double.
    await page.getByTestId('double-toggle').click();
    await page.getByTestId('double-url').fill('https://api.clinic.test/v1/appointments');
    await page.getByTestId('double-status').fill('201');
    await page.getByTestId('double-body').fill('{"id":"A-1042","status":"confirmed"}');
    await page.getByTestId('double-apply').click();
    await shows(page.getByTestId('http-mode'), /^HTTP double$/);

    await say('Book Ana Ruiz at the Bronx clinic on March 20th');
    await callTool('book_appointment', {
      patient_name: 'Ana Ruiz',
      city: 'Bronx',
      date: '2025-03-20',
    });
    const turn1 = page.getByTestId('turn-1');
    await turn1.getByTestId('item-http').waitFor();
    await reply('You are booked: A-1042.');
    await withAttribute(page, 'turn-1', 'data-running', 'false');

    await say('¿Podemos seguir en español?');
    await callTool('set_language', { language: 'es-US' });
    const turn2 = page.getByTestId('turn-2');
    await turn2.getByTestId('item-language').waitFor();
    await reply('¡Claro! ¿En qué más le puedo ayudar?');
    await withAttribute(page, 'turn-2', 'data-running', 'false');
    await shows(page.getByTestId('language'), /^es-US$/);
    await shows(turn2.getByTestId('item-language'), 'en-US → es-US');

    await turn1.getByTestId('item-http').click();
    const detail = page.getByTestId('http-detail');
    await shows(detail.getByTestId('response-body'), 'A-1042');
    await shows(detail.getByTestId('request-body'), 'The Bronx');
    // The service's token never reaches the page.
    expect(await page.content()).not.toContain(TOKEN);
    await shot('conversation');
  });

  it('saves the conversation as a fixture and runs it green', async () => {
    await saveAndRunGreen('booking-then-spanish');
  });

  it('opens a failing fixture and shows what was expected against what happened', async () => {
    const failing = await withAttribute(page, 'fixture', 'data-status', 'failed', 'failing.yaml');
    await failing.click();
    const diff = page.getByTestId('diff');
    await shows(diff.getByTestId('expected').first(), '"Bronx"');
    await shows(diff.getByTestId('actual').first(), '"The Bronx"');
    await page.getByTestId('fixture-timeline').getByTestId('item-http').click();
    await shows(page.getByTestId('response-body'), 'A-9');
    expect(await page.content()).not.toContain('fixture-token');
    await shot('fixture-diff');
  });

  it('"New conversation" starts over (its POST carries no body of its own)', async () => {
    await page.getByTestId('tab-conversation').click();
    await page.getByTestId('turn-1').waitFor();
    await page.getByRole('button', { name: 'New conversation' }).click();
    await shows(page.locator('p.hint'), 'No turn yet.');
    expect(await page.getByTestId('error').count()).toBe(0);
  });
});
