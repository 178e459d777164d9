/**
 * A small MCP server written with the official SDK's McpServer, for the MCP client tests
 * (client*.test.ts): run by `node` it serves stdio; `buildServer()` serves the HTTP tests in-process.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';

/** A new server with the test tools. `log` receives each call (the HTTP tests read it). */
export function buildServer(log = () => {}) {
  const server = new McpServer({ name: 'crm', version: '1.0.0' });
  server.registerTool(
    'find_customer',
    {
      description: 'Finds a customer by name.',
      inputSchema: { tenant_id: z.string(), name: z.string() },
      outputSchema: { id: z.string(), tenant: z.string(), name: z.string() },
      annotations: { readOnlyHint: true },
    },
    async ({ tenant_id, name }) => {
      log({ tool: 'find_customer', args: { tenant_id, name } });
      const out = { id: `c-${name.toLowerCase()}`, tenant: tenant_id, name };
      return { content: [{ type: 'text', text: JSON.stringify(out) }], structuredContent: out };
    },
  );
  const echo = server.registerTool(
    'echo',
    { description: 'Echoes text.', inputSchema: { text: z.string() } },
    async ({ text }) => {
      log({ tool: 'echo', args: { text } });
      return { content: [{ type: 'text', text: `echo: ${text}` }] };
    },
  );
  server.registerTool(
    'refuse',
    { description: 'Always fails ({{vars.tenant}} is not a template here).', inputSchema: {} },
    async () => ({
      isError: true,
      content: [{ type: 'text', text: 'no such account' }],
    }),
  );
  server.registerTool(
    'env',
    {
      description: 'Which variables the server sees.',
      inputSchema: { names: z.array(z.string()) },
    },
    async ({ names }) => ({
      content: [],
      structuredContent: {
        pid: process.pid,
        ...Object.fromEntries(names.map((n) => [n, process.env[n] ?? null])),
      },
    }),
  );
  server.registerTool(
    'die',
    { description: 'The server process exits during the call.', inputSchema: {} },
    async () => {
      process.exit(3);
    },
  );
  server.registerTool(
    'hang',
    { description: 'Never answers; reports cancellation.', inputSchema: {} },
    async (_args, extra) => {
      log({ tool: 'hang', args: {} });
      await new Promise((resolve) => extra.signal.addEventListener('abort', resolve));
      log({ tool: 'hang', cancelled: true });
      return { content: [] };
    },
  );
  server.registerTool(
    'remove_echo',
    {
      description: 'Removes the tool "echo" (the server announces a list change).',
      inputSchema: {},
    },
    async () => {
      echo.remove();
      return { content: [{ type: 'text', text: 'removed' }] };
    },
  );
  server.registerTool(
    'add_tool',
    { description: 'Adds the tool "extra" (the server announces a list change).', inputSchema: {} },
    async () => {
      server.registerTool('extra', { description: 'Added later.', inputSchema: {} }, async () => ({
        content: [{ type: 'text', text: 'extra ran' }],
      }));
      return { content: [{ type: 'text', text: 'added' }] };
    },
  );
  return server;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  if (process.argv.includes('--fail-at-start')) {
    process.stderr.write('crm: missing CRM_TOKEN\n');
    process.exit(2);
  }
  const server = buildServer();
  if (process.argv.includes('--with-huge')) {
    server.registerTool(
      'big',
      { description: 'Answers 1.5 MiB of text, past the default result cap.', inputSchema: {} },
      async () => ({ content: [{ type: 'text', text: 'b'.repeat(1.5 * 1024 * 1024) }] }),
    );
    server.registerTool(
      'huge',
      { description: 'Answers 11 MiB of text, past the SDK reader’s 10 MiB.', inputSchema: {} },
      async () => ({ content: [{ type: 'text', text: 'x'.repeat(11 * 1024 * 1024) }] }),
    );
  }
  if (process.argv.includes('--with-bad-name'))
    server.registerTool(
      'crm.lookup',
      { description: 'A name models refuse.', inputSchema: {} },
      async () => ({
        content: [],
      }),
    );
  await server.connect(new StdioServerTransport());
}
