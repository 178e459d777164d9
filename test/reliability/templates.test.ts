/**
 * RELIABILITY.md "Templates", through the loader and a whole session: fields that would leave
 * own data are missing (skip with a trace warning, or a tool error under the error policy) or
 * refused at load; lone braces are load errors with their position; huge widths are refused.
 */
import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { DefinitionError, type DefinitionIssue } from '../../src/errors.js';
import { createSession } from '../../src/session/create-session.js';
import type { SessionOptions } from '../../src/session/types.js';
import { ScriptedModel } from '../../src/testing.js';
import { fn, lastToolMessage } from './helpers.js';

function tool(defaults: Record<string, unknown>): Record<string, unknown> {
  return {
    type: 'action',
    tool: fn('t', { name: { type: 'string' }, list: { type: 'array' } }),
    defaults,
  };
}

async function loadIssues(defaults: Record<string, unknown>): Promise<DefinitionIssue[]> {
  try {
    await loadTools([tool(defaults)]);
  } catch (error) {
    expect(error).toBeInstanceOf(DefinitionError);
    return (error as DefinitionError).issues.filter((i) => i.severity === 'error');
  }
  return [];
}

async function run(format: string, options: Partial<SessionOptions> = {}) {
  const tools = await loadTools([tool({ out: format })]);
  const seen: unknown[] = [];
  const model = new ScriptedModel(
    [{ tool_calls: [{ name: 't', args: { name: 'Ann', list: [1, 2] } }] }, { text: 'ok' }],
    { record: true },
  );
  const session = createSession({
    tools,
    model,
    vars: { x: 'X' },
    actions: { t: (args) => (seen.push(args), 'done') },
    ...options,
  });
  const result = await session.run('go');
  return { trace: result.traces[0], seen, answer: lastToolMessage(model, 1) };
}

describe('fields never reach anything but own data', () => {
  it.each([
    '{name.__class__}',
    '{name.length}',
    '{list.length}',
    '{vars.toString}',
    '{vars.hasOwnProperty}',
    '{vars.x.length}',
    '{name.toUpperCase}',
    '{params.valueOf}',
    '{list[5]}',
  ])('%s is missing: the entry is skipped with a warning (default policy)', async (format) => {
    const { trace, seen } = await run(format);
    expect(trace?.isError).toBe(false);
    expect(seen).toEqual([{ name: 'Ann', list: [1, 2] }]);
    expect(trace?.transform).toContainEqual(
      expect.objectContaining({ key: 'out', outcome: 'skipped', reason: 'missing_value' }),
    );
  });

  it.each(['{name.length}', '{vars.toString}'])(
    '%s under onMissingTemplateValue "error" is a tool error the model reads',
    async (format) => {
      const { trace, seen, answer } = await run(format, { onMissingTemplateValue: 'error' });
      expect(trace?.errorCode).toBe('missing_template_value');
      expect(answer).toContain(format);
      expect(seen).toEqual([]);
    },
  );

  it.each([
    '{name.constructor}',
    '{name.__proto__}',
    '{vars.constructor.name}',
    '{list[constructor]}',
    '{name.prototype}',
  ])('%s is refused at load (forbidden segment)', async (format) => {
    const issues = await loadIssues({ out: format });
    expect(issues).toEqual([
      expect.objectContaining({ code: 'forbidden_segment', path: 'tools[0].defaults["out"]' }),
    ]);
  });

  it('own data with those names is reachable like any other', async () => {
    const tools = await loadTools([
      {
        type: 'action',
        tool: fn('t', { o: { type: 'object' } }),
        defaults: { out: '{o.length}/{o.toString}/{o.__class__}' },
      },
    ]);
    const seen: unknown[] = [];
    const model = new ScriptedModel(
      [
        { tool_calls: [{ name: 't', args: { o: { length: 3, toString: 'ts', __class__: 'c' } } }] },
        { text: 'ok' },
      ],
      { record: true },
    );
    await createSession({ tools, model, actions: { t: (a) => (seen.push(a), 'ok') } }).run('x');
    expect(seen).toEqual([{ o: { length: 3, toString: 'ts', __class__: 'c' }, out: '3/ts/c' }]);
  });
});

describe('lone braces are load errors with the position', () => {
  it.each([
    ['Hello {name', 6, "single '{'"],
    ['Hello name}', 10, "single '}'"],
    ['{', 0, "single '{'"],
    ['}', 0, "single '}'"],
    ['{{name}', 6, "single '}'"],
    ['{name}}', 6, "single '}'"],
    ['ok {{ and }} then {', 18, "single '{'"],
  ])('%j → position %d', async (format, position, text) => {
    for (const rule of [format, `@override ${format}`, { transform: { format } }]) {
      const issues = await loadIssues({ out: rule });
      expect(issues).toHaveLength(1);
      expect(issues[0]?.code).toBe('template_syntax');
      expect(issues[0]?.path).toMatch(/^tools\[0\]\.defaults\["out"\]/);
      expect(issues[0]?.message).toContain(text);
      // Positions count in the template text (after "@override ").
      expect(issues[0]?.message).toContain(`position ${position}`);
    }
  });

  it('literal braces written doubled render as braces', async () => {
    const { seen } = await run('{{literal}} {name}');
    expect(seen).toEqual([{ name: 'Ann', list: [1, 2], out: '{literal} Ann' }]);
  });
});

describe('huge widths and precisions are refused', () => {
  it.each([
    '{name:>1000000000}',
    '{name:<99999999999999999999}',
    '{x:.1000000000f}',
    '{vars.x:^10001}',
    '{name:010001}',
    '{x:,.20000f}',
  ])('%s fails loading (template_limit)', async (format) => {
    const issues = await loadIssues({ out: format });
    expect(issues).toEqual([expect.objectContaining({ code: 'template_limit' })]);
  });

  it('a width at the cap loads, and the rendered length is still capped at run time', async () => {
    expect(await loadIssues({ out: '{name:>10000}' })).toEqual([]);
    const wide = await run('{name:>10000}');
    expect((wide.seen[0] as { out: string }).out).toHaveLength(10000);
    // Within every limit one by one, over the 1 000 000-character cap together: refused.
    const many = await run('{name:>10000}'.repeat(101));
    expect(many.trace?.transform).toContainEqual(
      expect.objectContaining({ key: 'out', outcome: 'skipped', reason: 'format_error' }),
    );
    expect(many.seen).toEqual([{ name: 'Ann', list: [1, 2] }]);
  });
});
