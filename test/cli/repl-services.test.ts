import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliInProcess } from './build.js';

describe('repl --services: auth without leaking secrets', () => {
  let server: Server;
  let port = 0;
  beforeAll(async () => {
    // A service that echoes the Authorization header back, the worst case for leaks.
    server = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ path: req.url, auth: req.headers.authorization ?? null }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('authenticates, prints and saves no secret, and the saved fixture passes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-repl-svc-'));
    const tools = join(dir, 'tools.json');
    writeFileSync(
      tools,
      JSON.stringify([
        {
          type: 'endpoint',
          service: 'pets',
          tool: {
            type: 'function',
            function: {
              name: 'get_pet',
              parameters: { type: 'object', properties: { id: { type: 'string' } } },
            },
          },
          endpoint: {
            url: `http://127.0.0.1:${port}/v1/pets/{id}`,
            method: 'get',
            argument_location: 'path',
          },
        },
      ]),
    );
    const secret = 'tok-UNIQUE-9f3a1c';
    const saved = join(dir, 'saved.yaml');
    const input = [
      'find pet 7',
      '/call get_pet {"id":"7"}',
      '/reply Found it.',
      `/save ${saved}`,
      '/quit',
    ].join('\n');
    const services = JSON.stringify({
      pets: { auth: { type: 'bearer', token: secret }, origins: [`http://127.0.0.1:${port}`] },
    });
    const r = await cliInProcess(['repl', tools, '--model', 'manual', '--services', services], {
      input,
    });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('"auth":"Bearer [redacted]"');
    const text = readFileSync(saved, 'utf8');
    for (const out of [r.stdout, r.stderr, text]) {
      expect(out).not.toContain(secret);
      expect(out).not.toContain(Buffer.from(secret).toString('base64'));
    }
    expect(text).toContain('token: redacted');
    const t = await cliInProcess(['test', saved]);
    expect(t.stdout).toContain('1 passed');
  });

  it('/save writes no credential header and keeps the kind of auth, so the saved fixture can assert where it goes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-repl-svc-'));
    const tools = join(dir, 'tools.json');
    const endpoint = (name: string, service: string): unknown => ({
      type: 'endpoint',
      service,
      tool: { type: 'function', function: { name, parameters: { type: 'object' } } },
      endpoint: { url: `http://127.0.0.1:${port}/v1/${name}`, method: 'get' },
    });
    writeFileSync(tools, JSON.stringify([endpoint('lookup', 'pbx'), endpoint('status', 'ops')]));
    const inAuth = 'ops-UNIQUE-4e1b7d';
    const inHeaders = 'pbx-UNIQUE-82c0aa';
    const saved = join(dir, 'saved.yaml');
    const origins = [`http://127.0.0.1:${port}`];
    const services = JSON.stringify({
      // A credential header in plain `headers` (docs/handlers.md treats it as auth).
      pbx: { headers: { 'X-Api-Key': inHeaders, 'x-tenant': 'acme' }, origins },
      ops: { auth: { type: 'custom_headers', headers: { 'x-api-key': inAuth } }, origins },
    });
    const input = [
      'check',
      '/call lookup {}',
      '/reply ok',
      'status',
      '/call status {}',
      '/reply ok',
      `/save ${saved}`,
      '/quit',
    ].join('\n');
    const r = await cliInProcess(['repl', tools, '--model', 'manual', '--services', services], {
      input,
    });
    expect(r.status).toBe(0);
    const text = readFileSync(saved, 'utf8');
    expect(text).not.toContain(inHeaders);
    expect(text).not.toContain(inAuth);
    expect(text).toContain('X-Api-Key: redacted');
    expect(text).toContain('x-tenant: acme');
    expect(text).toMatch(/type: custom_headers\n\s+headers:\n\s+x-api-key: redacted/);
    const t = await cliInProcess(['test', saved]);
    expect(t.stdout).toContain('1 passed');
  });

  it('warns on start about a service that is not configured', async () => {
    const r = await cliInProcess(['repl', 'fixtures/tools/clinic.json', '--model', 'manual'], {
      input: '/quit\n',
    });
    expect(r.stdout).toContain(
      'book_appointment uses service "clinic", which is not configured (--services)',
    );
  });

  it('names the configured service a misspelt one was meant to be', async () => {
    const services =
      '{"clinc":{"auth":{"type":"bearer","token":"t"},"origins":["https://api.clinic.test"]}}';
    const r = await cliInProcess(
      ['repl', 'fixtures/tools/clinic.json', '--model', 'manual', '--services', services],
      { input: '/quit\n' },
    );
    expect(r.stdout).toContain(
      'warning: book_appointment uses service "clinic", which is not configured (--services) (did you mean `clinc`?); its calls will fail',
    );
  });

  it('warns that a "$VAR" value in --services is not expanded', async () => {
    const services =
      '{"clinic":{"auth":{"type":"bearer","token":"$CLINIC_TOKEN"},"origins":["https://api.clinic.test"]}}';
    const r = await cliInProcess(
      ['repl', 'fixtures/tools/clinic.json', '--model', 'manual', '--services', services],
      { input: '/quit\n' },
    );
    expect(r.stderr).toContain(
      'warning: services.clinic.auth.token is "$CLINIC_TOKEN", which is used as written: no environment variable is expanded',
    );
  });
});
