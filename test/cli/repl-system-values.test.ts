/**
 * `--system-values` (repl, serve, studio): the host's caller and called number and time zone, so
 * an imported tool reading `{{vars.session.source}}` (Vapi's `{{customer.number}}`) sends the
 * number in the REPL as it does under a host; checked like a fixture's `session.system_values`.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliInProcess, pipedRepl } from './build.js';
import { runFixture } from '../../src/harness/run-fixture.js';

let server: Server;
let dir: string;
let tools: string;
const urls: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    urls.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"name":"Ada"}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dir = mkdtempSync(join(tmpdir(), 'sb-repl-system-values-'));
  tools = join(dir, 'tools.json');
  writeFileSync(
    tools,
    JSON.stringify([
      {
        type: 'endpoint',
        tool: {
          type: 'function',
          function: {
            name: 'lookup_customer',
            parameters: { type: 'object', properties: {} },
          },
        },
        endpoint: { url: `${origin}/customers/{customer_number}`, method: 'get' },
        static_parameters: [
          { name: 'customer_number', type: 'string', default: '{{vars.session.source}}' },
          { name: 'called', type: 'string', default: '{{vars.session.target}}' },
        ],
      },
    ]),
  );
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const repl = (args: string[], input: string[]) => pipedRepl(tools, args, input);

describe('repl --system-values', () => {
  it('the tools read the caller and called number; /save writes them so the fixture replays', async () => {
    urls.length = 0;
    const saved = join(dir, 'caller.yaml');
    const r = await repl(
      ['--system-values', '{"source":"+15551234","target":"+15559876","timezone":"Europe/Paris"}'],
      ['who am I?', '/call lookup_customer {}', '/reply You are Ada.', `/save ${saved}`, '/quit'],
    );
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(urls).toHaveLength(1);
    const url = new URL(urls[0] as string, 'http://x');
    expect(decodeURIComponent(url.pathname)).toBe('/customers/+15551234');
    expect(url.searchParams.get('called')).toBe('+15559876');
    expect(readFileSync(saved, 'utf8')).toMatch(/system_values:\n\s+source: "\+15551234"/);
    const replay = await runFixture(saved);
    expect(replay.status, JSON.stringify(replay)).toBe('passed');
  });

  it('read from a JSON/YAML file, as --vars', async () => {
    urls.length = 0;
    const file = join(dir, 'system.yaml');
    writeFileSync(file, 'source: "+15550001"\n');
    const r = await repl(
      ['--system-values', file],
      ['hi', '/call lookup_customer {}', '/reply ok', '/quit'],
    );
    expect(r.code).toBe(0);
    expect(decodeURIComponent(urls[0] ?? '')).toContain('/customers/+15550001');
  });

  it.each([
    [
      '{"caller":"+1555"}',
      '--system-values: unknown key "caller" (expected source, target, timezone)',
    ],
    ['{"source":15551234}', '--system-values.source: expected a string, got number'],
    [
      '{"timezone":"Mars/Olympus"}',
      '--system-values.timezone: "Mars/Olympus" is not an IANA time zone name',
    ],
    ['["+1555"]', '--system-values must be a JSON object, got a list'],
  ])('%s is a usage error naming it (exit 2)', async (value, message) => {
    const r = await repl(['--system-values', value], []);
    expect(r.code).toBe(2);
    expect(r.err).toContain(message);
  });
});

describe('serve and studio take --system-values the same way', () => {
  it.each(['serve', 'studio'])('%s refuses an unknown key (exit 2)', async (command) => {
    const r = await cliInProcess([command, tools, '--system-values', '{"from":"+1"}'], {
      env: { OPENAI_API_KEY: 'k' },
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--system-values: unknown key "from"');
  });
  it.each(['serve', 'studio'])('%s --help documents it', async (command) => {
    expect((await cliInProcess([command, '--help'])).stdout).toContain(
      '--system-values <file|json>',
    );
  });
});

describe('transform takes --system-values too', () => {
  it('a template reading the caller and called number is previewed with them', async () => {
    const r = await cliInProcess([
      'transform',
      tools,
      'lookup_customer',
      '--system-values',
      '{"source":"+15551234","target":"+15559876","timezone":"America/New_York"}',
    ]);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ customer_number: '+15551234', called: '+15559876' });
  });

  it('is checked as for repl (exit 2 naming it)', async () => {
    const r = await cliInProcess([
      'transform',
      tools,
      'lookup_customer',
      '--system-values',
      '{"timezone":"Mars/Olympus"}',
    ]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(
      '--system-values.timezone: "Mars/Olympus" is not an IANA time zone name',
    );
  });

  it('transformCall from code: the time zone sets vars.session.date', async () => {
    const { transformCall } = await import('../../src/harness/transform-call.js');
    const { loadTools } = await import('../../src/definition/load.js');
    const set = await loadTools([
      {
        type: 'log',
        tool: { type: 'function', function: { name: 'note', parameters: { type: 'object' } } },
        static_parameters: [{ name: 'day', default: '{{vars.session.date}}' }],
      },
    ]);
    // 2026-01-01T03:00Z is still Dec 31 in New York, already Jan 1 in Tokyo.
    const now = () => Date.parse('2026-01-01T03:00:00Z');
    const day = (timezone: string) => {
      const r = transformCall({
        tools: set,
        tool: 'note',
        args: {},
        now,
        systemValues: { timezone },
      });
      return r.ok ? r.args['day'] : r.message;
    };
    expect(day('America/New_York')).toBe('2025-12-31');
    expect(day('Asia/Tokyo')).toBe('2026-01-01');
    expect(() =>
      transformCall({ tools: set, tool: 'note', args: {}, systemValues: { timezone: 'Mars' } }),
    ).toThrow(/systemValues\.timezone/);
  });
});
