/**
 * MCP servers as a tool source (docs/mcp.md): a real MCP server written with the SDK's McpServer
 * (client-fixture-server.mjs), spawned over stdio, used by switchboard sessions on a scripted model.
 */
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { DefinitionError, type DefinitionIssue } from '../../src/errors.js';
import { connectMcpServers, McpConnectError, type McpToolSource } from '../../src/entries/mcp.js';
import { createSession } from '../../src/session/create-session.js';
import { ScriptedModel } from '../../src/testing.js';
import { fn } from '../session/fixtures.js';

const SCRIPT = fileURLToPath(new URL('./client-fixture-server.mjs', import.meta.url));
const crm = {
  command: process.execPath,
  args: [SCRIPT],
  env: { CRM_TOKEN: 'crm-token-0123456789' },
};

const open: McpToolSource[] = [];
async function connect(
  options: Omit<Parameters<typeof connectMcpServers>[0], 'servers'> & {
    servers?: Parameters<typeof connectMcpServers>[0]['servers'];
  } = {},
): Promise<McpToolSource> {
  const warnings: DefinitionIssue[] = [];
  const mcp = await connectMcpServers({
    servers: { crm },
    onWarning: (w) => warnings.push(w),
    ...options,
  });
  open.push(mcp);
  return mcp;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((m) => m.close()));
});

const overlays = {
  crm: {
    find_customer: {
      static_parameters: [{ name: 'tenant_id', type: 'string', default: '{{vars.tenant}}' }],
      options: { speech: { before: { phrases: { '*': ['Looking that up.'] } } } },
    },
    echo: { description: 'Says it back for {{vars.tenant}}.' },
  },
};

describe('MCP servers as a tool source (stdio)', () => {
  it('a session calls the server’s tools; an overlay hides tenant_id and fills it from a variable', async () => {
    const mcp = await connect({ overlays });
    const model = new ScriptedModel(
      [
        {
          tool_calls: [
            { name: 'find_customer', args: { name: 'Ana' } },
            { name: 'echo', args: { text: 'hi' } },
            { name: 'refuse' },
          ],
        },
        { text: 'Found Ana.' },
      ],
      { record: true },
    );
    const session = createSession({
      model,
      tools: mcp.tools,
      actions: mcp.actions,
      secrets: mcp.secrets,
      vars: { tenant: 'acme' },
    });
    const result = await session.run('find Ana');
    const shown = model.calls[0]!.tools.find((t) => t.function.name === 'find_customer')!;
    expect(shown.function.description).toBe('Finds a customer by name.');
    expect(Object.keys(shown.function.parameters.properties as object)).toEqual(['name']);
    const echo = model.calls[0]!.tools.find((t) => t.function.name === 'echo')!;
    expect(echo.function.description).toBe('Says it back for acme.');
    // A server's own description is text: no session variable shows through it.
    const refuse = model.calls[0]!.tools.find((t) => t.function.name === 'refuse')!;
    expect(refuse.function.description).toBe(
      'Always fails ({ {vars.tenant}} is not a template here).',
    );
    expect(result.traces.map((t) => [t.tool, t.errorCode ?? 'ok'])).toEqual([
      ['find_customer', 'ok'],
      ['echo', 'ok'],
      ['refuse', 'mcp_tool_error'],
    ]);
    // The server got the hidden value; structuredContent is the JSON result.
    expect(result.traces[0]!.args).toEqual({ name: 'Ana', tenant_id: 'acme' });
    expect(result.traces[0]!.output).toEqual({ id: 'c-ana', tenant: 'acme', name: 'Ana' });
    expect(result.traces[1]!.output).toBe('echo: hi');
    expect(result.traces[2]!.output).toEqual({
      error: { code: 'mcp_tool_error', message: 'no such account', result: 'no such account' },
    });
    // The overlay's speech policy applies; the server's readOnlyHint made it side-effect free.
    expect(result.events).toContainEqual(
      expect.objectContaining({ type: 'say', source: 'pre-tool', text: 'Looking that up.' }),
    );
    expect(mcp.tools.tools.get('find_customer')!.options.sideEffects).toBe('none');
    expect(mcp.tools.tools.get('echo')!.options.sideEffects).toBe('unsafe');
    await session.close();
  });

  it('an allow-list keeps only the named tools, beside the host’s own', async () => {
    const own = await loadTools([{ type: 'action', tool: fn('hang_up') }]);
    const mcp = await connect({
      allow: { crm: ['echo'] },
      tools: own,
      actions: { hang_up: () => 'bye' },
    });
    expect([...mcp.tools.tools.keys()]).toEqual(['hang_up', 'echo']);
    expect(mcp.toolsOf('crm')).toEqual(['echo']);
    expect([...mcp.actions.keys()].sort()).toEqual(['echo', 'hang_up']);
  });

  it('the child gets the given env and the SDK’s safe list, not the host’s other variables', async () => {
    process.env.SWITCHBOARD_HOST_ONLY = 'host-secret';
    try {
      const mcp = await connect();
      const session = createSession({
        model: new ScriptedModel([
          {
            tool_calls: [
              { name: 'env', args: { names: ['CRM_TOKEN', 'SWITCHBOARD_HOST_ONLY', 'PATH'] } },
            ],
          },
          { text: 'ok' },
        ]),
        tools: mcp.tools,
        actions: mcp.actions,
      });
      const out = (await session.run('env')).traces[0]!.output as Record<string, unknown>;
      expect(out.CRM_TOKEN).toBe('crm-token-0123456789');
      expect(out.SWITCHBOARD_HOST_ONLY).toBeNull();
      expect(out.PATH).toBe(process.env.PATH);
      // The env value is a secret of the tool source: sessions given mcp.secrets scrub it.
      expect(mcp.secrets.scrubText('x crm-token-0123456789 y')).not.toContain('crm-token');
    } finally {
      delete process.env.SWITCHBOARD_HOST_ONLY;
    }
  });

  it('a list_changed notification re-lists the tools; the next turn sees the new one', async () => {
    let changed!: () => void;
    const seen = new Promise<void>((resolve) => (changed = resolve));
    const mcp = await connect({ onToolsChanged: () => changed() });
    const model = new ScriptedModel(
      [
        { tool_calls: [{ name: 'add_tool' }] },
        { text: 'Added.' },
        { tool_calls: [{ name: 'extra' }] },
        { text: 'Done.' },
      ],
      { record: true },
    );
    const session = createSession({ model, tools: mcp.tools, actions: mcp.actions });
    await session.run('add a tool');
    await seen;
    const second = await session.run('use it');
    const names = (i: number) => model.calls[i]!.tools.map((t) => t.function.name);
    expect(names(0)).not.toContain('extra');
    expect(names(2)).toContain('extra');
    expect(second.traces[0]).toMatchObject({ tool: 'extra', isError: false, output: 'extra ran' });
    expect(mcp.toolsOf('crm')).toContain('extra');
  });

  it('a list change announced during a re-listing is listed again before the refresh ends', async () => {
    const mcp = await connect({
      servers: {
        growing: {
          command: process.execPath,
          args: [fileURLToPath(new URL('./list-change-fixture-server.mjs', import.meta.url))],
        },
      },
    });
    expect(mcp.toolsOf('growing')).toEqual(['t1']);
    await mcp.refresh('growing');
    expect(mcp.toolsOf('growing')).toEqual(['t1', 't2', 't3']);
  });

  it('a list change announced during the first listing is applied once connected', async () => {
    let changed!: () => void;
    const seen = new Promise<void>((resolve) => (changed = resolve));
    const mcp = await connect({
      servers: {
        growing: {
          command: process.execPath,
          args: [
            fileURLToPath(new URL('./list-change-fixture-server.mjs', import.meta.url)),
            '--at-first',
          ],
        },
      },
      onToolsChanged: () => changed(),
    });
    await seen;
    expect(mcp.toolsOf('growing')).toEqual(['t1', 't2', 't3']);
  });

  it('a tool the server removes leaves the tool set and its actions; an allow-list naming it warns', async () => {
    let changed!: () => void;
    const seen = new Promise<void>((resolve) => (changed = resolve));
    const warnings: DefinitionIssue[] = [];
    const mcp = await connect({
      allow: { crm: ['echo', 'remove_echo'] },
      onToolsChanged: () => changed(),
      onWarning: (w) => warnings.push(w),
    });
    const session = createSession({
      model: new ScriptedModel([
        { tool_calls: [{ name: 'remove_echo' }] },
        { text: 'ok' },
        { tool_calls: [{ name: 'echo', args: { text: 'x' } }] },
        { text: 'gone' },
      ]),
      tools: mcp.tools,
      actions: mcp.actions,
    });
    await session.run('remove');
    await seen;
    expect(mcp.toolsOf('crm')).toEqual(['remove_echo']);
    expect(mcp.actions.has('echo')).toBe(false);
    expect((await session.run('echo')).traces[0]!.errorCode).toBe('unknown_tool');
    expect(warnings).toContainEqual(
      expect.objectContaining({
        code: 'mcp_unknown_tool',
        severity: 'warning',
        message: expect.stringContaining('lists no tool "echo"'),
      }),
    );
  });

  it('a tool whose name no model accepts is left out with a warning, unless the host chose it', async () => {
    const warnings: DefinitionIssue[] = [];
    const servers = { crm: { ...crm, args: [SCRIPT, '--with-bad-name'] } };
    const mcp = await connect({ servers, onWarning: (w) => warnings.push(w) });
    expect(mcp.toolsOf('crm')).toContain('find_customer');
    expect(mcp.tools.tools.has('crm.lookup')).toBe(false);
    expect(warnings).toEqual([
      expect.objectContaining({
        code: 'mcp_tool_skipped',
        severity: 'warning',
        message: expect.stringMatching(
          /^left out: MCP server "crm" tool "crm\.lookup".*letters, digits/,
        ),
      }),
    ]);
    const error = await connectMcpServers({ servers, allow: { crm: ['crm.lookup'] } }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DefinitionError);
    expect((error as Error).message).toContain('MCP server "crm" tool "crm.lookup"');
  });

  it('a server that dies mid-call is the typed tool error mcp_server_failed, then and after', async () => {
    const mcp = await connect();
    const session = createSession({
      model: new ScriptedModel([
        { tool_calls: [{ name: 'die' }] },
        { tool_calls: [{ name: 'echo', args: { text: 'still there?' } }] },
        { text: 'Sorry.' },
      ]),
      tools: mcp.tools,
      actions: mcp.actions,
    });
    const result = await session.run('crash it');
    expect(result.traces.map((t) => t.errorCode)).toEqual([
      'mcp_server_failed',
      'mcp_server_failed',
    ]);
    expect(result.traces[0]!.output).toMatchObject({
      error: { code: 'mcp_server_failed', message: expect.stringContaining('"crm"') },
    });
    // The next call is not sent at all: the server is known to be gone.
    expect(result.traces[1]!.output).toMatchObject({
      error: { message: 'MCP server "crm" is not available: it closed the connection' },
    });
    expect(result.events).toContainEqual(
      expect.objectContaining({ type: 'tool-error', code: 'mcp_server_failed', retryable: false }),
    );
  });

  it('a result larger than the SDK’s stdio reader takes is mcp_server_failed naming the cause', async () => {
    const mcp = await connect({ servers: { crm: { ...crm, args: [SCRIPT, '--with-huge'] } } });
    const session = createSession({
      model: new ScriptedModel([
        { tool_calls: [{ name: 'huge' }] },
        { tool_calls: [{ name: 'echo', args: { text: 'still there?' } }] },
        { text: 'Sorry.' },
      ]),
      tools: mcp.tools,
      actions: mcp.actions,
    });
    const result = await session.run('fetch it all');
    expect(result.traces.map((t) => t.errorCode)).toEqual([
      'mcp_server_failed',
      'mcp_server_failed',
    ]);
    const message = (t: (typeof result.traces)[number]): unknown =>
      (t.output as { error: { message: string } }).error.message;
    expect(message(result.traces[0]!)).toMatch(
      /^MCP server "crm" stopped during the call of huge: it sent a message larger than the 10485760-byte limit/,
    );
    // Later calls say why the server is gone too, not only that it is.
    expect(message(result.traces[1]!)).toMatch(/is not available: it sent a message larger/);
  });

  it('a result over maxResultBytes (default 1 MiB) is response_too_large, never in the history; the server goes on', async () => {
    const servers = { crm: { ...crm, args: [SCRIPT, '--with-huge'] } };
    const run = async (mcp: McpToolSource) => {
      const model = new ScriptedModel(
        [
          { tool_calls: [{ name: 'big' }, { name: 'echo', args: { text: 'still there?' } }] },
          { text: 'Done.' },
        ],
        { record: true },
      );
      const session = createSession({ model, tools: mcp.tools, actions: mcp.actions });
      const result = await session.run('fetch it all');
      const toolMessages = model.calls[1]!.messages.filter((m) => m.role === 'tool');
      return { result, size: Math.max(...toolMessages.map((m) => String(m.content).length)) };
    };
    const capped = await run(await connect({ servers }));
    expect(capped.result.traces.map((t) => t.errorCode)).toEqual(['response_too_large', undefined]);
    expect(capped.result.traces[0]!.output).toMatchObject({
      error: {
        message:
          'MCP tool big of server "crm" answered 1572864 bytes, over the 1048576 a result may have (maxResultBytes); it was not used',
      },
    });
    expect(capped.size).toBeLessThan(1000);
    const raised = await run(await connect({ servers, maxResultBytes: 2 * 1024 * 1024 }));
    expect(raised.result.traces.map((t) => t.errorCode)).toEqual([undefined, undefined]);
    expect(raised.size).toBe(1572864);
  });

  it('closes its connections with the session (closeWith): the server process ends', async () => {
    const mcp = await connect();
    const session = createSession({
      model: new ScriptedModel([
        { tool_calls: [{ name: 'env', args: { names: [] } }] },
        { text: 'ok' },
      ]),
      tools: mcp.tools,
      actions: mcp.actions,
      closeWith: [mcp],
    });
    const { pid } = (await session.run('hi')).traces[0]!.output as { pid: number };
    expect(() => process.kill(pid, 0)).not.toThrow();
    const echo = mcp.actions.get('echo')!;
    await session.close();
    expect(() => process.kill(pid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
    const signal = new AbortController().signal;
    await expect(
      echo({ text: 'x' }, { tool: 'echo', callId: 'c1', session: {} as never, signal }),
    ).rejects.toMatchObject({ code: 'mcp_server_failed' });
  });
});

describe('MCP host configuration mistakes fail at connect, naming the server', () => {
  it('an overlay or allow-list for an unknown server; unknown fields; nothing starts', async () => {
    const error = await connectMcpServers({
      servers: { crm, bad: { command: 'x', url: 'http://localhost/' } as never },
      overlays: { crmm: {} },
      allow: { crm: 'echo' as never },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DefinitionError);
    const message = (error as Error).message;
    expect(message).toContain('overlays.crmm: names no MCP server (did you mean "crm"?)');
    expect(message).toContain('servers.bad: give either "command" (stdio) or "url"');
    expect(message).toContain('allow.crm: expected an array of tool names');
  });

  it('an allow-list or overlay naming a tool the server does not list', async () => {
    const error = await connectMcpServers({
      servers: { crm },
      allow: { crm: ['echo', 'find_customr'] },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DefinitionError);
    expect((error as Error).message).toContain(
      'MCP server "crm" lists no tool "find_customr" (did you mean "find_customer"?)',
    );
  });

  it('an overlay that does not load (a static parameter of a wrong type)', async () => {
    const error = await connectMcpServers({
      servers: { crm },
      overlays: {
        crm: { echo: { static_parameters: [{ name: 'n', type: 'int', default: 'x' }] } },
      },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DefinitionError);
    expect((error as Error).message).toMatch(
      /MCP server "crm" tool "echo".*static_parameters\[0\]/,
    );
  });

  it('a command that does not exist', async () => {
    const error = await connectMcpServers({
      servers: { crm: { command: '/nonexistent/crm-server' } },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpConnectError);
    expect(error).toMatchObject({ server: 'crm' });
    expect((error as Error).message).toMatch(
      /^MCP server "crm" \(\/nonexistent\/crm-server\) did not connect: .*ENOENT/,
    );
  });

  it('a server that exits at start: the error shows the end of its stderr', async () => {
    const error = await connectMcpServers({
      servers: { crm: { command: process.execPath, args: [SCRIPT, '--fail-at-start'] } },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpConnectError);
    expect((error as Error).message).toContain('did not connect');
    expect((error as Error).message).toContain('crm: missing CRM_TOKEN');
  });

  it('a server with a long stderr: the error keeps its last lines, not its first', async () => {
    // The last line is built at run time: the command line shown in the error holds the script.
    const script =
      "process.stderr.write('noise '.repeat(1000) + '\\nfatal: no ' + 'CRM_TOKEN\\n'); process.exit(2)";
    const error = await connectMcpServers({
      servers: { crm: { command: process.execPath, args: ['-e', script] } },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpConnectError);
    expect((error as Error).message).toContain('fatal: no CRM_TOKEN');
    expect((error as Error).message).not.toContain('noise '.repeat(400));
  });

  it('a server that never answers the handshake fails after connectTimeoutMs, and is stopped', async () => {
    // It says its pid on stderr (kept for the error's tail) and never answers.
    const script =
      'process.stderr.write("pid " + process.pid + "\\n"); setInterval(() => {}, 1000)';
    const error = await connectMcpServers({
      servers: { mute: { command: process.execPath, args: ['-e', script] } },
      connectTimeoutMs: 200,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpConnectError);
    const message = (error as Error).message;
    expect(message).toMatch(/^MCP server "mute" .* did not connect: .*timed out/i);
    // Gone when the error is thrown: the SDK's own close signalled it only 2 s later, so a host
    // exiting on the error (the CLI) left it running for ever.
    const pid = Number(/pid (\d+)/.exec(message)?.[1]);
    expect(pid).toBeGreaterThan(0);
    expect(() => process.kill(pid, 0)).toThrow();
  });

  it('two servers listing the same tool name', async () => {
    const error = await connectMcpServers({
      servers: { crm, copy: crm },
      allow: { crm: ['echo'], copy: ['echo', 'refuse'] },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DefinitionError);
    const message = (error as Error).message;
    expect(message).toContain(
      'servers.copy: tool "echo" of MCP server "copy" is also a tool of MCP server "crm"',
    );
    expect(message).not.toContain('refuse');
  });

  it('an MCP tool named like one of the host’s tools', async () => {
    const own = await loadTools([{ type: 'action', tool: fn('echo') }]);
    const error = await connectMcpServers({ servers: { crm }, tools: own }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DefinitionError);
    expect((error as Error).message).toContain(
      'tool "echo" of MCP server "crm" is also one of the host\'s tools',
    );
  });
});
