/**
 * `switchboard serve` as a user runs it: the real binary on loopback, the model a local fake
 * OpenAI-compatible server. SIGTERM during a run: the run answers, then the process exits 0.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOnce, cli } from './build.js';

let model: Server;
let baseURL = '';
let hold: Promise<void> = Promise.resolve();
let modelCalls = 0;
const seenModels: unknown[] = [];

function chunk(delta: Record<string, unknown>, finish: string | null = null): string {
  const body = {
    id: 'c',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'fake',
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
  return `data: ${JSON.stringify(body)}\n\n`;
}

const dir = mkdtempSync(join(tmpdir(), 'switchboard-serve-'));
const toolsFile = join(dir, 'tools.json');
writeFileSync(
  toolsFile,
  JSON.stringify([
    {
      type: 'log',
      tool: {
        type: 'function',
        function: { name: 'note', parameters: { type: 'object', properties: {} } },
      },
    },
  ]),
);

beforeAll(async () => {
  buildOnce();
  model = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      modelCalls++;
      seenModels.push((JSON.parse(raw) as { model: unknown }).model);
      void hold.then(() => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(chunk({ role: 'assistant', content: 'Hello from the model.' }));
        res.write(chunk({}, 'stop'));
        res.end('data: [DONE]\n\n');
      });
    });
  });
  await new Promise<void>((r) => model.listen(0, '127.0.0.1', r));
  baseURL = `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  model.closeAllConnections();
  await new Promise((r) => model.close(r));
});

/** Starts `switchboard serve`; resolves with the child and its URL once it listens. */
function serve(): Promise<{
  child: ChildProcessWithoutNullStreams;
  url: string;
  exit: Promise<number | null>;
  stderr: () => string;
}> {
  const child = spawn(
    process.execPath,
    [
      'dist/cli/main.js',
      'serve',
      toolsFile,
      '--port',
      '0',
      '--base-url',
      baseURL,
      '--model-name',
      'fake-1',
    ],
    { env: { PATH: process.env['PATH'] ?? '', NO_COLOR: '1' } },
  );
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exit = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+\/run_agent)/.exec(out);
      if (m?.[1] !== undefined) resolve({ child, url: m[1], exit, stderr: () => stderr });
    });
    void exit.then((code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
  });
}

describe('switchboard serve', () => {
  it('serves on loopback; SIGTERM during a run lets it answer, then exits 0', async () => {
    const { child, url, exit, stderr } = await serve();
    const good = await fetch(url, { method: 'POST', body: '{"prompt":"hi"}' });
    expect(good.status).toBe(200);
    expect(await good.json()).toMatchObject({ content: 'Hello from the model.', traces: [] });
    expect(seenModels.at(-1)).toBe('fake-1');

    const bad = await fetch(url, { method: 'POST', body: '{"prompt":1}' });
    expect(bad.status).toBe(400);

    let release = (): void => undefined;
    hold = new Promise((r) => (release = r));
    const before = modelCalls;
    const inFlight = fetch(url, { method: 'POST', body: '{"prompt":"slow"}' });
    while (modelCalls === before) await new Promise((r) => setTimeout(r, 10));
    child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 100));
    release();
    const answered = await inFlight;
    expect(answered.status).toBe(200);
    expect(await answered.json()).toMatchObject({ content: 'Hello from the model.' });
    expect(await exit).toBe(0);
    expect(stderr()).toContain('shutting down (1 run(s) in flight)');
  });

  it('refuses a start without a model', () => {
    const r = cli(['serve', toolsFile]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('OPENAI_API_KEY or --base-url');
  });
});
