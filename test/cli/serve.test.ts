/**
 * `switchboard serve` as a user runs it, on loopback, the model a local fake OpenAI-compatible
 * server. SIGTERM during a run: the run answers, then the process exits 0 (the real binary: only
 * a process shows signals and its exit status). The other cases run the command in-process
 * through `runCli`, its stop requested as SIGTERM requests it.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { buildOnce, cliInProcess, startInProcess, type RunningInProcess } from './build.js';

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
      const request = JSON.parse(raw) as {
        model: unknown;
        messages: { role: string; content: unknown }[];
      };
      seenModels.push(request.model);
      const user = request.messages.filter((m) => m.role === 'user').at(-1)?.content;
      const tool = typeof user === 'string' ? /^call (\w+)/.exec(user)?.[1] : undefined;
      const answered = request.messages.some((m) => m.role === 'tool');
      void hold.then(() => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        if (tool !== undefined && !answered) {
          const call = {
            index: 0,
            id: 'c1',
            type: 'function',
            function: { name: tool, arguments: '{}' },
          };
          res.write(chunk({ role: 'assistant', tool_calls: [call] }));
          res.write(chunk({}, 'tool_calls'));
        } else {
          res.write(chunk({ role: 'assistant', content: 'Hello from the model.' }));
          res.write(chunk({}, 'stop'));
        }
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

const json = { 'content-type': 'application/json' };

/** Starts `switchboard serve`; resolves with the child and its URL once it listens. */
function serve(
  extra: readonly string[] = [],
  tools = toolsFile,
): Promise<{
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
      tools,
      '--port',
      '0',
      '--base-url',
      baseURL,
      '--model-name',
      'fake-1',
      ...extra,
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

/** Starts `switchboard serve` in-process; resolves once it listens. */
async function serveInProcess(
  extra: readonly string[] = [],
  tools = toolsFile,
): Promise<RunningInProcess & { url: string }> {
  const run = startInProcess([
    'serve',
    tools,
    '--port',
    '0',
    '--base-url',
    baseURL,
    '--model-name',
    'fake-1',
    ...extra,
  ]);
  const listening = await run.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+\/run_agent)/);
  return { ...run, url: listening[1] ?? '' };
}

describe('switchboard serve', () => {
  it('serves on loopback; SIGTERM during a run lets it answer, then exits 0', async () => {
    const { child, url, exit, stderr } = await serve();
    const good = await fetch(url, { method: 'POST', body: '{"prompt":"hi"}', headers: json });
    expect(good.status).toBe(200);
    expect(await good.json()).toMatchObject({ content: 'Hello from the model.', traces: [] });
    expect(seenModels.at(-1)).toBe('fake-1');

    const bad = await fetch(url, { method: 'POST', body: '{"prompt":1}', headers: json });
    expect(bad.status).toBe(400);

    let release = (): void => undefined;
    hold = new Promise((r) => (release = r));
    const before = modelCalls;
    const inFlight = fetch(url, { method: 'POST', body: '{"prompt":"slow"}', headers: json });
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

  it('SIGTERM with a client trickling its body: exits 0 after --drain-timeout', async () => {
    const { url, exit, stderr, child } = await serve(['--drain-timeout', '50']);
    const socket = connect(Number(new URL(url).port), '127.0.0.1');
    socket.on('error', () => undefined);
    const closed = new Promise<void>((r) => socket.once('close', () => r()));
    // `expect: 100-continue`: the server says 100 once the request is in flight.
    const continued = new Promise<void>((r) =>
      socket.on('data', (c: Buffer) => c.toString().includes('100 Continue') && r()),
    );
    socket.write(
      'POST /run_agent HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\n' +
        'content-length: 100\r\nexpect: 100-continue\r\n\r\n',
    );
    await continued;
    socket.write('{"pro');
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
    await closed;
    expect(stderr()).toContain('shutting down (1 run(s) in flight)');
  });

  it('--services, the start-up warning, and private networks denied unless allowed', async () => {
    const seen: (string | undefined)[] = [];
    const upstream = createServer((req, res) => {
      seen.push(req.headers['x-key'] as string | undefined);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    const origin = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    const endpointFile = join(dir, 'endpoint.json');
    writeFileSync(
      endpointFile,
      JSON.stringify([
        {
          type: 'endpoint',
          service: 'clinic',
          tool: {
            type: 'function',
            function: { name: 'lookup', parameters: { type: 'object', properties: {} } },
          },
          endpoint: { url: `${origin}/lookup`, method: 'get' },
        },
      ]),
    );
    const call = async (u: string): Promise<string> =>
      JSON.stringify(
        await (
          await fetch(u, { method: 'POST', body: '{"prompt":"call lookup"}', headers: json })
        ).json(),
      );
    const services = JSON.stringify({ clinic: { headers: { 'x-key': 'k1' } } });
    const stop = async (run: RunningInProcess): Promise<void> => {
      expect(await run.stop()).toBe(0);
    };
    try {
      // The default policy refuses the loopback upstream.
      const denied = await serveInProcess(['--services', services], endpointFile);
      expect(await call(denied.url)).toContain('policy_denied');
      expect(denied.stderr()).toContain(
        'tool lookup calls 127.0.0.1, a private address: refused (policy_denied) unless --allow-private-networks',
      );
      expect(seen).toHaveLength(0);
      await stop(denied);

      // Said once, by the command: not again as a process warning from the sessions it makes.
      const processWarnings: string[] = [];
      const onProcessWarning = (w: Error & { code?: string }): void => {
        processWarnings.push(w.code ?? w.message);
      };
      process.on('warning', onProcessWarning);
      const unconfigured = await serveInProcess(['--allow-private-networks'], endpointFile);
      while (!unconfigured.stderr().includes('service "clinic"'))
        await new Promise((r) => setTimeout(r, 10));
      expect(unconfigured.stderr()).toContain('not configured; give it with --services');
      expect(await call(unconfigured.url)).toContain('not_available');
      await stop(unconfigured);
      await new Promise((r) => setImmediate(r)); // process warnings are emitted on the next tick
      process.off('warning', onProcessWarning);
      expect(processWarnings).not.toContain('SWITCHBOARD_SERVICE_NOT_CONFIGURED');
      expect(unconfigured.stderr().match(/service "clinic"/g)).toHaveLength(1);

      const allowed = await serveInProcess(
        ['--services', services, '--allow-private-networks'],
        endpointFile,
      );
      expect(await call(allowed.url)).toContain('{\\"ok\\":true}');
      expect(seen).toEqual(['k1']);
      await stop(allowed);
      expect(allowed.stderr()).not.toContain('not configured');
      expect(allowed.stderr()).not.toContain('a private address');
    } finally {
      upstream.closeAllConnections();
      await new Promise((r) => upstream.close(r));
    }
  });

  it('warns at start about action tools it has no handler for (their calls answer not_available)', async () => {
    const actionsFile = join(dir, 'actions.json');
    const action = (name: string, extra: Record<string, unknown> = {}): unknown => ({
      type: 'action',
      tool: { type: 'function', function: { name, parameters: { type: 'object' } } },
      ...extra,
    });
    writeFileSync(
      actionsFile,
      JSON.stringify([
        action('hangup'),
        action('transfer_call'),
        action('play_hold_music', { result: { status: 'playing' } }),
      ]),
    );
    const run = await serveInProcess([], actionsFile);
    expect(await run.stop()).toBe(0);
    const lines = run.stderr().match(/^warning: action tool.*$/gm) ?? [];
    // A definition with a `result` answers with it: only the two without one are named.
    expect(lines).toEqual([
      'warning: action tool(s) hangup, transfer_call have no host handler in serve: every call answers not_available; give a definition a "result" for a fixed answer, or serve from your own process with createAgentServer({ actions })',
    ]);
    // The common tools file has no action tool: nothing said.
    const plain = await serveInProcess();
    expect(await plain.stop()).toBe(0);
    expect(plain.stderr()).not.toContain('action tool');
  });

  it("the sessions' warnings go to stderr once, however many requests make a session", async () => {
    const services = JSON.stringify({
      clinic: { auth: { type: 'bearer', token: 'tok-12345' }, origins: ['*'] },
    });
    const run = await serveInProcess(['--services', services]);
    for (let i = 0; i < 2; i++) {
      const res = await fetch(run.url, { method: 'POST', body: '{"prompt":"hi"}', headers: json });
      expect(res.status).toBe(200);
    }
    expect(await run.stop()).toBe(0);
    const lines = run.stderr().match(/^warning: services\.clinic\.origins: .*$/gm) ?? [];
    expect(lines).toEqual([
      'warning: services.clinic.origins: service "clinic" sends its credentials to any URL a definition names (origins: ["*"])',
    ]);
  });

  it('refuses services and options it cannot use, before listening', async () => {
    // In-process: every case ends before the server would listen.
    const run = async (...args: string[]): Promise<{ status: number; stderr: string }> => {
      let stderr = '';
      const io = {
        stdout: { write: () => true },
        stderr: { write: (t: string) => (stderr += t) },
        stdin: process.stdin,
        env: {},
      };
      const base = ['serve', toolsFile, '--base-url', 'http://127.0.0.1:9/v1'];
      return { status: await runCli([...base, ...args], io), stderr };
    };
    const origins = await run('--services', '{"clinic":{"origins":["not an origin"]}}');
    expect(origins.status).toBe(2);
    expect(origins.stderr).toContain('services.clinic.origins');
    const both = await run('--deny-private-networks', '--allow-private-networks');
    expect(both).toMatchObject({ status: 2, stderr: expect.stringContaining('contradict') });
    const cap = await run('--max-connections', '0');
    expect(cap).toMatchObject({ status: 2, stderr: expect.stringContaining('--max-connections') });
    const order = await run('--headers-timeout', '5000', '--request-timeout', '1000');
    expect(order).toMatchObject({
      status: 2,
      stderr: expect.stringContaining('--headers-timeout (5000) must not exceed --request-timeout'),
    });
  });

  it('command tools: refused without --commands (naming the option), a bad --commands refused', async () => {
    const run = async (...args: string[]): Promise<{ status: number; stderr: string }> => {
      let stderr = '';
      const io = {
        stdout: { write: () => true },
        stderr: { write: (t: string) => (stderr += t) },
        stdin: process.stdin,
        env: {},
      };
      const base = ['serve', 'fixtures/tools/synapse.json', '--base-url', 'http://127.0.0.1:9/v1'];
      return { status: await runCli([...base, ...args], io), stderr };
    };
    const missing = await run();
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('runs command "synapse", which the host does not register');
    expect(missing.stderr).toContain('--commands');
    const relative = await run('--commands', '{"synapse":{"path":"bin/synapse"}}');
    expect(relative.status).toBe(2);
    expect(relative.stderr).toContain('commands.synapse');
  });

  it('refuses an address that is not loopback without a token, before anything loads', async () => {
    const r = await cliInProcess(['serve', toolsFile, '--host', '0.0.0.0']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(
      'serving on 0.0.0.0 (not loopback) needs a bearer token (--token, or SWITCHBOARD_SERVE_TOKEN)',
    );
    const empty = await cliInProcess(['serve', toolsFile, '--token', ' ']);
    expect(empty.status).toBe(2);
    expect(empty.stderr).toContain('--token must not be empty');
  });

  it('refuses a start without a model', async () => {
    const r = await cliInProcess(['serve', toolsFile]);
    expect(r.status).toBe(2);
    // Both ways to name a local server, not only the option.
    expect(r.stderr).toContain(
      'switchboard serve: the model needs OPENAI_API_KEY, or a base URL (--base-url or OPENAI_BASE_URL) for a local OpenAI-compatible server',
    );
  });
});
