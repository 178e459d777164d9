/**
 * Issue 14, item 4: the REPL printed and `/save`d an access token issued by the auth server and
 * echoed by an API. Every token the engine obtains joins the session's `SecretSet`, which the
 * REPL's printout and recorder share; a refreshed token (after a 401) joins it too.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { loadTools } from '../../src/definition/load.js';
import { SecretSet } from '../../src/handlers/endpoint/secret-set.js';
import { createSession } from '../../src/session/create-session.js';
import { ScriptedModel } from '../../src/testing.js';
import { startTestServer, type TestServer } from '../handlers/test-server.js';
import { fn } from './helpers.js';

const ISSUED = ['at-Issued1-7c8d9e0f', 'at-Issued2-1a2b3c4d'];

let api: TestServer;
let auth: TestServer;
let issued = 0;
beforeAll(async () => {
  api = await startTestServer();
  auth = await startTestServer();
  auth.route('/token', (_req, res) =>
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ access_token: ISSUED[issued++ % 2], expires_in: 3600 })),
  );
  // Echoes the bearer token raw, base64 and percent-encoded; the first call is refused (401), so
  // the engine refreshes and the second token is echoed too.
  let calls = 0;
  api.route('*', (req, res) => {
    const token = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
    const echo = {
      auth: req.headers.authorization,
      b64: Buffer.from(`Bearer ${token}`).toString('base64'),
      pct: encodeURIComponent(token).replace(/-/g, '%2d'),
    };
    res
      .writeHead(calls++ % 2 === 0 ? 401 : 200, { 'content-type': 'application/json' })
      .end(JSON.stringify(echo));
  });
});
afterAll(async () => {
  await api.close();
  await auth.close();
});

const forms = (t: string): string[] => [
  t,
  encodeURIComponent(t),
  Buffer.from(t).toString('base64').replace(/=+$/, ''),
  Buffer.from(`Bearer ${t}`).toString('base64').slice(10, 30),
];

describe('issued OAuth2 tokens are secrets too', () => {
  it('the REPL prints and /saves no issued token, the first or the refreshed one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-issued-'));
    const tools = join(dir, 'tools.json');
    writeFileSync(
      tools,
      JSON.stringify([
        {
          type: 'endpoint',
          service: 'clinic',
          tool: fn('get_slot', { id: { type: 'string' } }),
          endpoint: {
            url: `${api.origin}/v1/slots/{id}`,
            method: 'get',
            argument_location: 'path',
          },
        },
      ]),
    );
    const services = JSON.stringify({
      clinic: {
        auth: {
          type: 'oauth2',
          client_id: 'c1',
          client_secret: 'cs-Repl-5e6f7a8b',
          auth_url: `${auth.origin}/token`,
        },
        origins: [api.origin],
      },
    });
    const saved = join(dir, 'saved.yaml');
    const input = [
      'a slot',
      '/call get_slot {"id":"7"}',
      '/reply ok',
      `/save ${saved}`,
      '/quit',
      '',
    ].join('\n');
    let stdout = '';
    let stderr = '';
    const code = await runCli(['repl', tools, '--model', 'manual', '--services', services], {
      stdout: { write: (t: string) => (stdout += t) },
      stderr: { write: (t: string) => (stderr += t) },
      stdin: Readable.from([input]),
      env: { NO_COLOR: '1' },
    });
    expect(code).toBe(0);
    // Not vacuous: the refreshed call was made and its echo printed, scrubbed.
    expect(api.requests.length).toBeGreaterThanOrEqual(2);
    expect(stdout).toContain('"auth":"Bearer [redacted]"');
    const text = readFileSync(saved, 'utf8');
    for (const where of [stdout, stderr, text])
      for (const token of ISSUED) expect(forms(token).filter((f) => where.includes(f))).toEqual([]);
  });

  it('a token issued to a session joins the SecretSet the host passed in', async () => {
    const secrets = new SecretSet();
    const tools = await loadTools([
      {
        type: 'endpoint',
        service: 'clinic',
        tool: fn('ping'),
        endpoint: { url: `${api.origin}/v1/ping`, method: 'get' },
      },
    ]);
    const s = createSession({
      tools,
      model: new ScriptedModel([{ tool_calls: [{ name: 'ping' }] }, { text: 'ok' }]),
      secrets,
      services: {
        clinic: {
          auth: {
            type: 'oauth2',
            client_id: 'c2',
            client_secret: 'cs-Host-9a8b7c6d',
            auth_url: `${auth.origin}/token`,
          },
          origins: [api.origin],
        },
      },
    });
    await s.run('go');
    await s.close();
    const printed = secrets.scrubText(
      `tokens: ${ISSUED.join(' ')} ${encodeURIComponent(ISSUED[0] ?? '')}`,
    );
    for (const token of ISSUED) expect(printed).not.toContain(token);
  });
});
