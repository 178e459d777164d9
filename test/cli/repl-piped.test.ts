/**
 * The REPL with piped input: lines come in the order things happen (the model's call before its
 * HTTP request), no prompts are printed, and an action that ends the session (a hang-up
 * declared with --actions) ends the REPL with a clear line and exit code 0.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pipedRepl } from './build.js';
import { WireLines } from '../../src/cli/repl/wire-lines.js';
import { runFixture } from '../../src/harness/run-fixture.js';

let server: Server;
let dir: string;
let tools: string;

beforeAll(async () => {
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"temp":21}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dir = mkdtempSync(join(tmpdir(), 'sb-repl-piped-'));
  tools = join(dir, 'tools.json');
  writeFileSync(
    tools,
    JSON.stringify([
      {
        type: 'endpoint',
        tool: {
          type: 'function',
          function: {
            name: 'get_weather',
            parameters: {
              type: 'object',
              properties: { city: { type: 'string' } },
              required: ['city'],
            },
          },
        },
        endpoint: { url: `${origin}/weather`, method: 'get' },
      },
      {
        type: 'action',
        tool: {
          type: 'function',
          function: { name: 'hangup', parameters: { type: 'object', properties: {} } },
        },
      },
    ]),
  );
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const repl = (args: string[], input: string[]) => pipedRepl(tools, args, input);

describe('repl with piped input', () => {
  it('prints the call, then its HTTP exchange, then its result; no prompts', async () => {
    const r = await repl(
      [],
      ['weather in Paris?', '/call get_weather {"city":"Paris"}', '/reply 21 degrees', '/quit'],
    );
    expect(r.code).toBe(0);
    const call = r.out.indexOf('model   calls get_weather');
    const request = r.out.indexOf('http    → GET');
    const response = r.out.indexOf('        ← 200 {"temp":21}');
    const result = r.out.indexOf('tool    get_weather →');
    expect(call).toBeGreaterThan(-1);
    expect([call, request, response, result]).toEqual(
      [call, request, response, result].sort((a, b) => a - b),
    );
    expect(request).toBeGreaterThan(call);
    expect(r.out).not.toContain('(your move as the model');
  });

  it('a hang-up ends the REPL (exit 0); /save still keeps the session, the rest is not read', async () => {
    const saved = join(dir, 'hangup.yaml');
    // After the line that leaves, not even /save is read.
    const late = join(dir, 'hangup-late.yaml');
    const r = await repl(
      ['--actions', '{"hangup":{"end_session":{"reason":"caller hung up"}}}'],
      ['bye', '/call hangup {}', `/save ${saved}`, 'never said', '/tools', `/save ${late}`],
    );
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    expect(r.out).toContain('Action tools answered as --actions declares: hangup');
    expect(r.out).toContain(
      '(the session has ended: caller hung up: /save <file> keeps it; any other line leaves the REPL)',
    );
    expect(r.out).toContain(`(saved 1 turn(s) to ${saved})`);
    expect(r.out).not.toContain('never said');
    expect(r.out).not.toContain('get_weather [endpoint]');
    expect(existsSync(late)).toBe(false);
    expect(readFileSync(saved, 'utf8')).toMatch(
      /hangup:\n\s+end_session:\n\s+reason: caller hung up/,
    );
    const replay = await runFixture(saved);
    expect(replay.status, JSON.stringify(replay)).toBe('passed');
  });

  it('/call without arguments sends {}, only during a turn; /set takes JSON with spaces; /reset waits for the end of the turn', async () => {
    const r = await repl(
      ['--actions', '{"hangup":{"end_session":{"reason":"caller hung up"}}}'],
      [
        '/call hangup {}',
        '/set note {"text": "two words"}',
        '/vars',
        'bye',
        '/reset',
        '/call hangup',
      ],
    );
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    // Outside a turn /call does nothing but say when it works.
    expect(r.out).toContain(
      '(/call answers for the model during a turn: first say something as the caller)',
    );
    expect(r.out).toContain('"text": "two words"');
    expect(r.out).toContain('(finish the turn first)');
    expect(r.out).toContain('(the session has ended: caller hung up');
  });

  it('--actions mistakes are usage errors naming the tool and the field', async () => {
    const r = await repl(['--actions', '{"hang_up":{"end_session":true},"hangup":{"end":1}}'], []);
    expect(r.code).toBe(2);
    expect(r.err).toContain(
      '--actions names "hang_up", which is not an action tool (did you mean "hangup"?)',
    );
    expect(r.err).toContain('--actions hangup: Unrecognized key: "end"');
  });
});

describe('WireLines', () => {
  it('holds a line until its event, prints at once a line whose event came first', () => {
    const out: string[] = [];
    const wire = new WireLines((l) => out.push(l));
    wire.line('request', 'outside a turn');
    wire.startTurn();
    wire.line('request', '→ A');
    wire.line('response', '← A');
    expect(out).toEqual(['outside a turn']);
    out.push('calls A');
    wire.event('request');
    wire.event('response');
    wire.event('request');
    out.push('calls B');
    wire.line('request', '→ B');
    wire.line('response', '← B');
    wire.endTurn();
    expect(out).toEqual(['outside a turn', 'calls A', '→ A', '← A', 'calls B', '→ B', '← B']);
  });
});
