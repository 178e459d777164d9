/**
 * The MCP client configuration's checks (docs/mcp.md, "MCP servers as a tool source"), in
 * process: each mistake is refused before anything starts, naming the server and what is wrong.
 * Each case is one a seeded fault let through unnoticed (docs/reliability.md).
 */
import { describe, expect, it } from 'vitest';
import { DefinitionError } from '../../src/errors.js';
import { checkMcpConfig, type McpClientConfig } from '../../src/mcp/client-config.js';
import { describeServer } from '../../src/mcp/client-connection.js';

function refusal(config: unknown): string[] {
  try {
    checkMcpConfig(config as McpClientConfig);
  } catch (error) {
    if (error instanceof DefinitionError) return error.issues.map((i) => `${i.path}: ${i.message}`);
    throw error;
  }
  throw new Error('expected the configuration to be refused');
}

describe('checkMcpConfig', () => {
  it('a server with neither "command" nor "url" says to give one', () => {
    expect(refusal({ servers: { crm: {} } })).toEqual([
      'servers.crm: give either "command" (stdio) or "url" (Streamable HTTP), not both or neither',
    ]);
  });

  it('a URL that is not http: or https: is refused', () => {
    for (const url of ['ftp://mcp.example/x', 'file:///tmp/mcp', 'ws://127.0.0.1:9/mcp'])
      expect(refusal({ servers: { crm: { url } } }), url).toEqual([
        'servers.crm.url: expected an http: or https: URL',
      ]);
    expect(checkMcpConfig({ servers: { crm: { url: 'https://mcp.example/mcp' } } })).toHaveLength(
      1,
    );
  });

  it('an overlay field the server gives (name, type, schema) is refused', () => {
    const issues = refusal({
      servers: { crm: { command: 'node' } },
      overlays: { crm: { echo: { name: 'shout', description: 'Echo.' } } },
    });
    expect(issues).toEqual([
      expect.stringMatching(/^overlays\.crm\.echo\.name: not an overlay field/),
    ]);
  });
});

describe('describeServer', () => {
  it('shows an HTTP server without the user info or query of its URL (where tokens hide)', () => {
    const shown = describeServer({
      kind: 'http',
      name: 'crm',
      config: { url: 'https://bot:pa55@mcp.example/mcp?api_key=sk_live_9' },
    });
    expect(shown).toBe('MCP server "crm" (https://mcp.example/mcp)');
  });
});
