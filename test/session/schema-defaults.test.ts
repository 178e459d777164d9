import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { createSession } from '../../src/session/create-session.js';
import { ScriptedModel } from '../../src/testing.js';
import { fn } from './fixtures.js';

/** Runs one scripted turn that calls `name` once per entry of `calls`; returns what the handler got. */
async function handlerArgs(
  tool: Record<string, unknown>,
  calls: Record<string, unknown>[],
): Promise<Record<string, unknown>[]> {
  const name = (tool['function'] as { name: string }).name;
  const tools = await loadTools([{ type: 'action', tool }]);
  const seen: Record<string, unknown>[] = [];
  const s = createSession({
    tools,
    model: new ScriptedModel([
      ...calls.map((args) => ({ tool_calls: [{ name, args }] })),
      { text: 'done' },
    ]),
    actions: {
      [name]: (args) => {
        seen.push(args as Record<string, unknown>);
        return 'ok';
      },
    },
  });
  const r = await s.run('go');
  // Accepted on the first try: no call was refused.
  expect(r.events.filter((e) => e.type === 'tool-error')).toEqual([]);
  return seen;
}

describe('JSON Schema defaults in a tool’s parameters', () => {
  it('fills a required parameter the model left out with its default', async () => {
    const tool = fn('count', { n: { type: 'integer', default: 3 } }, ['n']);
    expect(await handlerArgs(tool, [{}])).toEqual([{ n: 3 }]);
  });

  it('keeps a value the model gave', async () => {
    const tool = fn('count', { n: { type: 'integer', default: 3 } }, ['n']);
    expect(await handlerArgs(tool, [{ n: 7 }])).toEqual([{ n: 7 }]);
  });

  it('gives each call its own copy of an object default', async () => {
    const tool = fn('filter', {
      opts: {
        type: 'object',
        properties: { tags: { type: 'array', items: { type: 'string' } } },
        default: { tags: ['a'] },
      },
    });
    const seen = await handlerArgs(tool, [{}, {}]);
    expect(seen).toEqual([{ opts: { tags: ['a'] } }, { opts: { tags: ['a'] } }]);
    expect(seen[0]!['opts']).not.toBe(seen[1]!['opts']);
  });

  it('fills nested defaults inside an object the model gave', async () => {
    const tool = fn('filter', {
      opts: { type: 'object', properties: { limit: { type: 'integer', default: 10 } } },
    });
    expect(await handlerArgs(tool, [{ opts: {} }])).toEqual([{ opts: { limit: 10 } }]);
  });

  it('calls the weather tool without `current` on the first try', async () => {
    // The shape of the Syllable API's weather tool: `current` is required and has a default.
    const tool = fn(
      'get_weather',
      {
        location: { type: 'string', description: 'City name' },
        current: { type: 'boolean', default: true, description: 'Current weather or forecast' },
        units: { type: 'string', enum: ['metric', 'imperial'], default: 'metric' },
      },
      ['location', 'current'],
    );
    expect(
      await handlerArgs(tool, [{ location: 'Paris' }, { location: 'Oslo', current: false }]),
    ).toEqual([
      { location: 'Paris', current: true, units: 'metric' },
      { location: 'Oslo', current: false, units: 'metric' },
    ]);
  });
});
