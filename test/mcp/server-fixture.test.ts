/**
 * The same fixture conversation through a switchboard session and over MCP: every
 * `fixtures/conversations/mcp-*.yaml` runs as a fixture (it must pass), then each scripted tool
 * call is sent, in order, as a `tools/call` by the SDK's Client over Streamable HTTP to a server
 * with the fixture's session options. The HTTP double must record the same requests — method,
 * URL, headers, body — with an `Idempotency-Key` on the same ones (its value digests the call id,
 * which the two runs make differently).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { createHttpDouble } from '../../src/harness/http-double.js';
import { loadFixture } from '../../src/harness/load-fixture.js';
import type { RecordedRequest } from '../../src/harness/recorded-request.js';
import { runFixture, sessionOptionsOf } from '../../src/harness/run-fixture.js';
import { createMcpServer } from '../../src/mcp/server.js';

const DIR = 'fixtures/conversations';
const FILES = readdirSync(DIR).filter((f) => /^mcp-.*\.ya?ml$/.test(f));

/** What must be identical; the Idempotency-Key only present or not. */
function comparable(r: RecordedRequest): unknown {
  const { ['idempotency-key']: key, ...headers } = r.headers;
  return { method: r.method, url: r.url, headers, body: r.body, idempotencyKey: key !== undefined };
}

describe('a fixture conversation through a session and over MCP', () => {
  it('has at least one mcp-* fixture', () => {
    expect(FILES.length).toBeGreaterThan(0);
  });

  for (const file of FILES) {
    it(`${file}: the same HTTP requests`, async () => {
      const path = join(DIR, file);
      const viaSession: RecordedRequest[] = [];
      const result = await runFixture(path, { observer: { request: (r) => viaSession.push(r) } });
      expect(result.status, JSON.stringify(result.failures)).toBe('passed');

      const loaded = await loadFixture(path);
      const http = createHttpDouble({ exchanges: loaded.fixture.http });
      const {
        tools,
        model: _model,
        id: _id,
        onTurn: _onTurn,
        ...options
      } = sessionOptionsOf(loaded, { name: 'unused', stream: async function* () {} }, http);
      const server = createMcpServer({ ...options, tools });
      const listener = await server.listen();
      const client = new Client({ name: 'fixture', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(listener.url)));
      try {
        for (const turn of loaded.fixture.turns)
          for (const step of turn.model ?? [])
            for (const call of step.tool_calls ?? []) {
              const args =
                call.arguments === undefined
                  ? (call.args ?? {})
                  : (JSON.parse(call.arguments) as Record<string, unknown>);
              await client.callTool({ name: call.name, arguments: args });
            }
      } finally {
        await client.close();
        await server.close();
        await http.close();
      }
      expect(http.requests.map(comparable)).toEqual(viaSession.map(comparable));
      expect(viaSession.length).toBeGreaterThan(0);
    });
  }
});
