/**
 * A Vapi apiRequest GET or DELETE sends its URL as written, Liquid filled in, and nothing else: the
 * model's arguments reach the server only through the URL's `{{…}}`. Imported, switchboard sent
 * every argument in the query string as well (`/w/Paris?units=metric&query=x&q=x`). Each case runs
 * the imported tool through the fixture HTTP double and asserts the exact URL on the wire; the
 * export writes the same Vapi tool back.
 */
import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { runFixture } from '../../src/harness/run-fixture.js';
import { resultProblemLines } from '../../src/harness/reporters/format-failure.js';
import { exportTools } from '../../src/import/export-tools.js';
import { importTools } from '../../src/import/import-tools.js';

const weather = (extra: Record<string, unknown>) => ({
  type: 'apiRequest',
  name: 'weather',
  method: 'GET',
  body: {
    type: 'object',
    properties: { city: { type: 'string' }, units: { type: 'string' } },
  },
  ...extra,
});

/** Imports `tool`, calls it once with `args` and returns the one URL sent (exact, query and all). */
async function sent(tool: Record<string, unknown>, args: Record<string, unknown>, url: string) {
  const imported = importTools(tool, { from: 'vapi' });
  const method = String(tool['method']);
  const result = await runFixture({
    name: 'vapi url only',
    tools: imported.tools,
    session: { vars: { 'vars.customer': { tier: 'gold' } } },
    http: [{ request: { method, url }, response: { json: { ok: true } } }],
    turns: [
      {
        user: 'go',
        model: [{ tool_calls: [{ name: 'weather', args }] }, { text: 'done' }],
        expect: { requests: [{ method, url }] },
      },
    ],
  });
  // The fixture matches query pairs in any order; the wire URL is compared exactly as well.
  const wire = result.turns.flatMap((t) => t.requests.map((r) => r.url));
  return { problems: [...resultProblemLines(result), ...wire.filter((u) => u !== url)], imported };
}

async function exported(tool: Record<string, unknown>) {
  const imported = importTools(tool, { from: 'vapi' });
  return exportTools(await loadTools({ tools: imported.tools }), { to: 'vapi' });
}

describe('Vapi GET and DELETE send the URL as written', () => {
  it('a path variable is the only place the argument goes; an argument the URL does not name is not sent', async () => {
    const tool = weather({ url: 'https://api.x.test/w/{{city}}' });
    const { problems, imported } = await sent(
      tool,
      { city: 'Paris', units: 'metric' },
      'https://api.x.test/w/Paris',
    );
    expect(problems).toEqual([]);
    expect(imported.warnings.map((w) => w.message).join('\n')).toMatch(/"units" .*not sent/);
    const out = await exported(tool);
    expect(out.warnings).toEqual([]);
    expect(out.tools[0]).toMatchObject({ method: 'GET', url: 'https://api.x.test/w/{{city}}' });
    expect(out.tools[0]).not.toHaveProperty('parameters');
  });

  it('?q={{query}} sends q once, and no second query=', async () => {
    const tool = weather({
      url: 'https://api.x.test/search?q={{query}}&units=metric',
      body: { type: 'object', properties: { query: { type: 'string' } } },
    });
    const { problems } = await sent(
      tool,
      { query: 'rain' },
      'https://api.x.test/search?units=metric&q=rain',
    );
    expect(problems).toEqual([]);
    const out = await exported(tool);
    expect(out.tools[0]).toMatchObject({
      url: 'https://api.x.test/search?units=metric&q={{query}}',
    });
    expect(out.tools[0]).not.toHaveProperty('parameters');
  });

  it('an argument under its own name, text around an argument and a call variable in the query', async () => {
    const tool = weather({
      method: 'DELETE',
      url: 'https://api.x.test/w/{{city}}?units={{units}}&q=site:{{city}}&tier={{customer.tier}}',
    });
    const { problems } = await sent(
      tool,
      { city: 'Paris', units: 'si' },
      'https://api.x.test/w/Paris?units=si&tier=gold&q=site%3AParis',
    );
    expect(problems).toEqual([]);
    const out = await exported(tool);
    expect(out.tools[0]).toMatchObject({
      method: 'DELETE',
      url: 'https://api.x.test/w/{{city}}?units={{units}}&tier={{customer.tier}}&q=site:{{city}}',
    });
  });

  it('fixed values have no place in a GET: not imported, each named', async () => {
    const tool = weather({
      url: 'https://api.x.test/w/{{city}}',
      body: {
        type: 'object',
        properties: { city: { type: 'string' }, source: { type: 'string', value: 'vapi' } },
      },
      parameters: [{ key: 'org', value: 'acme' }],
    });
    const { problems, imported } = await sent(tool, { city: 'Oslo' }, 'https://api.x.test/w/Oslo');
    expect(problems).toEqual([]);
    expect(imported.warnings.map((w) => w.field)).toEqual(
      expect.arrayContaining(['body.properties.source.value', 'parameters[0]']),
    );
  });

  it('a query name given twice, or named like a path variable, is named and the import loads', async () => {
    for (const [url, key, whose] of [
      ['https://api.x.test/w?k={{a}}&k={{b}}', 'k', 'an earlier query parameter'],
      ['https://api.x.test/w/{{id}}?id={{id}}', 'id', 'a path variable'],
    ] as const) {
      const imported = importTools(weather({ url }), { from: 'vapi' });
      expect(imported.warnings.map((w) => w.message)).toContainEqual(
        `query parameter "${key}" takes a variable under a name ${whose} has: switchboard sends one value per name; dropped`,
      );
      // Two hidden values of one name were a load error ("declared twice").
      const set = await loadTools({ tools: imported.tools });
      expect(set.tools.size).toBe(1);
    }
  });

  it('an argument no rule can name (a dot, a prototype name) is named and still sent; the import loads', async () => {
    const tool = weather({
      url: 'https://api.x.test/w/{{city}}',
      body: {
        type: 'object',
        properties: { city: { type: 'string' }, 'a.b': { type: 'string' }, constructor: {} },
      },
    });
    const imported = importTools(tool, { from: 'vapi' });
    expect(imported.tools[0]!.defaults).toBeUndefined();
    expect(imported.warnings.map((w) => w.message)).toEqual(
      expect.arrayContaining([expect.stringMatching(/"a\.b" cannot be named by a rule/)]),
    );
    expect((await loadTools({ tools: imported.tools })).tools.size).toBe(1);
  });

  it('a POST still sends the arguments and fixed values as the body', async () => {
    const tool = weather({
      method: 'POST',
      url: 'https://api.x.test/w',
      parameters: [{ key: 'org', value: 'acme' }],
    });
    const imported = importTools(tool, { from: 'vapi' });
    expect(imported.tools[0]!.defaults).toBeUndefined();
    expect(imported.tools[0]!.static_parameters).toEqual([
      { name: 'org', type: 'string', default: 'acme' },
    ]);
  });
});

describe('a switchboard GET exported to Vapi keeps its query string', () => {
  it('arguments and static values switchboard sends in the query are written into the URL', async () => {
    const set = await loadTools({
      tools: [
        {
          tool: {
            type: 'function',
            function: {
              name: 'weather',
              parameters: { type: 'object', properties: { city: { type: 'string' } } },
            },
          },
          endpoint: { url: 'https://api.x.test/w', method: 'get' },
          static_parameters: [
            { name: 'units', default: 'metric' },
            { name: 'tier', default: '{{vars.customer.tier}}' },
          ],
        },
      ],
    });
    const out = exportTools(set, { to: 'vapi' });
    expect(out.tools[0]).toMatchObject({
      url: 'https://api.x.test/w?city={{city}}&units=metric&tier={{customer.tier}}',
    });
    expect(out.tools[0]).not.toHaveProperty('parameters');
    // …which imports back to the same pairs (the literal one now written in the URL, first).
    const { problems } = await sent(
      out.tools[0]!,
      { city: 'Rome' },
      'https://api.x.test/w?units=metric&city=Rome&tier=gold',
    );
    expect(problems).toEqual([]);
  });
});
