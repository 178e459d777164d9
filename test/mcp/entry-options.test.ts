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

describe('createMcpServer: session options that steer a model have no effect there', () => {
  it('warns once per key, naming it and why, and the server still serves', async () => {
    const warnings: DefinitionIssue[] = [];
    // One options object shared with the host's own sessions (as a JavaScript host writes it).
    const shared: Loose = {
      tools,
      model: { name: 'm', stream: async function* () {} },
      maxCalls: 3,
      maxToolRounds: 2,
      finalAnswerAfterMaxRounds: true,
      modelId: 'gpt-x',
      prompt: 'You are the clinic.',
      systemContext: 'memory',
      speechAck: 'host',
      limits: { maxCallsPerAnswer: 2 },
      agents: { front: { prompt: 'front', maxCalls: 2 } },
      onWarning: (w: DefinitionIssue) => warnings.push(w),
    };
    const made = createMcpServer(shared as unknown as McpServerOptions);
    expect(warnings.map((w) => `${w.code} ${w.path}`)).toEqual([
      'ignored_option model',
      'ignored_option modelId',
      'ignored_option maxToolRounds',
      'ignored_option maxCalls',
      'ignored_option finalAnswerAfterMaxRounds',
      'ignored_option prompt',
      'ignored_option systemContext',
      'ignored_option speechAck',
      'ignored_option limits.maxCallsPerAnswer',
      'ignored_option agents.front.maxCalls',
    ]);
    expect(warnings.every((w) => w.severity === 'warning')).toBe(true);
    expect(warnings.find((w) => w.path === 'maxCalls')?.message).toBe(
      'has no effect in createMcpServer: every call the MCP client makes runs: no model calls are counted here (cap them there); it is ignored',
    );
    made.setTools(tools);
    expect(warnings).toHaveLength(10); // given at creation, not again
    expect([...made.tools.tools.keys()]).toEqual(['note']);
    await made.close();
  });

  it("speechAck 'auto' is what applies anyway: no warning", async () => {
    const warnings: DefinitionIssue[] = [];
    const made = createMcpServer({
      tools,
      speechAck: 'auto',
      onWarning: (w: DefinitionIssue) => warnings.push(w),
    } as unknown as McpServerOptions);
    expect(warnings).toEqual([]);
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
