/** createMcpServer and connectMcpServers check their options at the call, before anything starts. */
import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import {
  connectMcpServers,
  createMcpServer,
  type ConnectMcpServersOptions,
  type McpServerOptions,
} from '../../src/entries/mcp.js';
import { DefinitionError, type DefinitionIssue } from '../../src/errors.js';

type Loose = Record<string, unknown>;

const tools = await loadTools([
  {
    type: 'log',
    tool: {
      type: 'function',
      function: { name: 'note', description: 'n', parameters: { type: 'object', properties: {} } },
    },
  },
]);

async function issuesOf(call: () => unknown, heading: string): Promise<string[]> {
  try {
    await call();
  } catch (error) {
    expect(error).toBeInstanceOf(DefinitionError);
    expect((error as Error).message.split('\n')[0]).toBe(`${heading}:`);
    return (error as DefinitionError).issues.map((i) => `${i.path}: ${i.message}`);
  }
  throw new Error('expected the call to be refused');
}

const server = (options: Loose) => () => createMcpServer(options as unknown as McpServerOptions);

describe('createMcpServer checks its own options at creation', () => {
  it.each<[string, Loose, string[]]>([
    [
      'a tool set still a Promise (was a TypeError reading `values`)',
      { tools: loadTools([]) },
      [
        'tools: expected a ToolSet, got a Promise (missing `await`?): `await` the loadTools(...) call',
      ],
    ],
    ['no tools', {}, ['tools: is required']],
    [
      'a name, version and instructions that are not text (were sent to the first client as they were)',
      { tools, name: 5, version: '', instructions: ['a'] },
      [
        'name: expected a non-empty string, got a number',
        'version: expected a non-empty string, got an empty string',
        'instructions: expected a string, got an array',
      ],
    ],
  ])('%s', async (_name, options, issues) => {
    expect(await issuesOf(server(options), 'invalid createMcpServer options')).toEqual(issues);
  });

  it('setTools refuses a tool set still a Promise, changing nothing', async () => {
    const made = createMcpServer({ tools });
    expect(
      await issuesOf(() => made.setTools(loadTools([]) as never), 'invalid setTools options'),
    ).toEqual([
      'tools: expected a ToolSet, got a Promise (missing `await`?): `await` the loadTools(...) call',
    ]);
    expect([...made.tools.tools.keys()]).toEqual(['note']);
    await made.close();
  });

  it('an unknown key warns with the nearest name; correct options still serve', async () => {
    const warnings: string[] = [];
    const made = createMcpServer({
      tools,
      nmae: 'clinic',
      onWarning: (w: DefinitionIssue) => warnings.push(`${w.path}: ${w.message}`),
    } as unknown as McpServerOptions);
    expect(warnings).toEqual(['nmae: is not a known option (did you mean `name`?); it is ignored']);
    expect([...made.tools.tools.keys()]).toEqual(['note']);
    await made.close();
  });
});

const connect = (options: Loose) => () =>
  connectMcpServers(options as unknown as ConnectMcpServersOptions);
const servers = { local: { command: process.execPath, args: ['-e', ''] } };

describe('connectMcpServers checks its options before starting any server', () => {
  it('every wrong option at once, each by its path', async () => {
    expect(
      await issuesOf(
        connect({
          servers,
          tools: loadTools([]),
          actions: { book: 'book' },
          secrets: 'x',
          connectTimeoutMs: '5000',
          onToolsChanged: 'log',
        }),
        'invalid connectMcpServers options',
      ),
    ).toEqual([
      'tools: expected a ToolSet, got a Promise (missing `await`?): `await` the loadTools(...) call',
      'actions.book: expected a function, got a string',
      'secrets: expected a SecretSet, got a string',
      'connectTimeoutMs: expected an integer from 1 to 2147483647, got a string',
      'onToolsChanged: expected a function, got a string',
    ]);
    expect(
      await issuesOf(
        connect({ servers, actions: new Map([['book', 1]]) }),
        'invalid connectMcpServers options',
      ),
    ).toEqual(['actions.book: expected a function, got a number']);
  });

  it('no servers is still the configuration check', async () => {
    expect(await issuesOf(connect({}), 'invalid connectMcpServers options')).toEqual([
      'servers: is required',
    ]);
    expect(await issuesOf(connect({ servers: {} }), 'invalid MCP configuration')).toEqual([
      'servers: names no MCP server',
    ]);
  });

  it('an unknown key is a warning to onWarning naming the nearest option', async () => {
    const warnings: string[] = [];
    await issuesOf(
      connect({
        servers: {},
        connectTimeout: 10,
        onWarning: (w: DefinitionIssue) => warnings.push(`${w.code} ${w.path}: ${w.message}`),
      }),
      'invalid MCP configuration',
    );
    expect(warnings).toEqual([
      'unknown_option connectTimeout: is not a known option (did you mean `connectTimeoutMs`?); it is ignored',
    ]);
  });
});
