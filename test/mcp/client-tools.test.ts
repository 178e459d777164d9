/** What the model sees of an MCP call result (docs/mcp.md, "Results"). */
import { describe, expect, it } from 'vitest';
import { isToolError } from '../../src/errors.js';
import { serverTools, toolOutput } from '../../src/mcp/client-tools.js';

describe('MCP results as tool output', () => {
  it('structuredContent wins; text blocks join; other blocks become a list without their data', () => {
    expect(
      toolOutput('crm', 't', {
        content: [{ type: 'text', text: '{"a":1}' }],
        structuredContent: { a: 1 },
      }),
    ).toEqual({ a: 1 });
    expect(
      toolOutput('crm', 't', {
        content: [
          { type: 'text', text: 'one' },
          { type: 'text', text: 'two' },
        ],
      }),
    ).toBe('one\ntwo');
    expect(toolOutput('crm', 't', { content: [] })).toBe('');
    expect(
      toolOutput('crm', 't', {
        content: [
          { type: 'text', text: 'see' },
          { type: 'image', data: 'AAAA', mimeType: 'image/png' },
          { type: 'resource_link', uri: 'file:///a.txt', name: 'a' },
          { type: 'resource', resource: { uri: 'mem://n', text: 'note' } },
          { type: 'resource', resource: { uri: 'mem://b', blob: 'AAAA', mimeType: 'x/y' } },
        ],
      }),
    ).toEqual([
      { type: 'text', text: 'see' },
      { type: 'image', mimeType: 'image/png', bytes: 3 },
      { type: 'resource_link', uri: 'file:///a.txt', name: 'a' },
      { type: 'resource', uri: 'mem://n', text: 'note' },
      { type: 'resource', uri: 'mem://b', mimeType: 'x/y' },
    ]);
  });

  it('isError is the tool error mcp_tool_error carrying the text and the whole value', () => {
    const thrown = (() => {
      try {
        toolOutput('crm', 't', {
          isError: true,
          content: [{ type: 'text', text: 'bad id\nmore' }],
        });
      } catch (error) {
        return error;
      }
    })();
    expect(isToolError(thrown) && thrown.toJSON()).toEqual({
      error: { code: 'mcp_tool_error', message: 'bad id', result: 'bad id\nmore' },
    });
    expect(() => toolOutput('crm', 't', { isError: true, content: [] })).toThrow(
      'MCP tool t of server "crm" reported an error',
    );
  });
});

describe("a server's annotations as side-effect classes", () => {
  it('read-only is none; idempotent is idempotent only when not also destructive; else unsafe', async () => {
    const tool = (name: string, annotations?: Record<string, boolean>) => ({
      name,
      inputSchema: { type: 'object' as const },
      ...(annotations === undefined ? {} : { annotations }),
    });
    const { tools, issues } = await serverTools({
      server: 'crm',
      initial: true,
      listed: [
        tool('look', { readOnlyHint: true }),
        tool('put', { idempotentHint: true }),
        tool('wipe', { idempotentHint: true, destructiveHint: true }),
        tool('plain'),
        tool('not_read_only', { readOnlyHint: false }),
      ],
    });
    expect(issues).toEqual([]);
    expect(Object.fromEntries([...tools].map(([n, d]) => [n, d.options.sideEffects]))).toEqual({
      look: 'none',
      put: 'idempotent',
      wipe: 'unsafe',
      plain: 'unsafe',
      not_read_only: 'unsafe',
    });
  });
});
