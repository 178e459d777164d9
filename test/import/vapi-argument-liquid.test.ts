/**
 * Vapi renders Liquid in an apiRequest's values from the model's arguments as well as from the
 * assistant's variables: `"value": "site:docs {{query}}"` sends the text around the model's
 * query. Imported as a session variable, the call sent the session's `query` (usually unset)
 * instead. Each place Vapi writes Liquid is checked by running the imported tool, and the export
 * writes the Liquid back as the vendor wrote it.
 */
import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { transformCall } from '../../src/harness/transform-call.js';
import { exportTools } from '../../src/import/export-tools.js';
import { importTools } from '../../src/import/import-tools.js';

const search = (extra: Record<string, unknown>) => ({
  type: 'apiRequest',
  name: 'docs_search',
  method: 'POST',
  url: 'https://api.example.com/search',
  function: {
    name: 'docs_search',
    parameters: {
      type: 'object',
      properties: { query: { type: 'string' } },
      required: ['query'],
    },
  },
  ...extra,
});

async function call(tool: Record<string, unknown>, vars: Record<string, unknown> = {}) {
  const imported = importTools(tool, { from: 'vapi' });
  const set = await loadTools({ tools: imported.tools });
  const out = transformCall({
    tools: set,
    tool: 'docs_search',
    args: JSON.stringify({ query: 'refunds' }),
    vars: { 'vars.query': 'a session value', ...vars },
  });
  return { out, imported, exported: exportTools(set, { to: 'vapi' }) };
}

describe("Vapi Liquid that reads the model's arguments", () => {
  it('a body value mixing the argument with text sends the text around the argument', async () => {
    const tool = search({
      body: {
        type: 'object',
        properties: { query: { type: 'string', value: 'site:docs {{ query }}' } },
      },
    });
    const { out, imported, exported } = await call(tool);
    expect(out.ok && out.args).toEqual({ query: 'site:docs refunds' });
    expect(imported.tools[0]!.static_parameters).toBeUndefined();
    expect(exported.tools[0]).toMatchObject({
      body: { properties: { query: { type: 'string', value: 'site:docs {{query}}' } } },
    });
  });

  it('mixes an argument and a session variable in one value', async () => {
    const tool = search({
      body: {
        type: 'object',
        properties: {
          query: { type: 'string' },
          q: { type: 'string', value: '{{customer.name}} asks: {{query}}' },
        },
      },
    });
    const { out, exported } = await call(tool, { 'vars.customer': { name: 'Ana' } });
    expect(out.ok && out.args).toEqual({ query: 'refunds', q: 'Ana asks: refunds' });
    // q is not the model's to fill: it goes back as a fixed value with its Liquid.
    expect(exported.tools[0]).toMatchObject({
      parameters: [{ key: 'q', value: '{{customer.name}} asks: {{query}}' }],
    });
  });

  it('a body property the model fills counts as an argument for another value', async () => {
    const tool = search({
      function: { name: 'docs_search' },
      body: {
        type: 'object',
        properties: {
          query: { type: 'string' },
          filter: { type: 'string', value: 'title:{{query}}' },
        },
      },
    });
    const { out } = await call(tool);
    expect(out.ok && out.args).toEqual({ query: 'refunds', filter: 'title:refunds' });
  });

  it('a `parameters` entry and a nested value read the argument too', async () => {
    const tool = search({
      parameters: [
        { key: 'source', value: 'voice-{{query}}' },
        { key: 'meta', value: { echo: '{{query}}', tier: '{{customer.tier}}' } },
      ],
    });
    const { out } = await call(tool, { 'vars.customer': { tier: 'gold' } });
    expect(out.ok && out.args).toEqual({
      query: 'refunds',
      source: 'voice-refunds',
      meta: { echo: 'refunds', tier: 'gold' },
    });
  });

  it('a default naming the argument of another property fills from it', async () => {
    const tool = search({
      body: {
        type: 'object',
        properties: {
          query: { type: 'string' },
          title: { type: 'string', default: 'About {{query}}' },
        },
      },
    });
    const { out, exported } = await call(tool);
    expect(out.ok && out.args).toEqual({ query: 'refunds', title: 'About refunds' });
    expect(exported.tools[0]).toMatchObject({
      body: { properties: { title: { type: 'string', default: 'About {{query}}' } } },
    });
  });

  it('a GET query value and a path segment mixing the argument with text read it', async () => {
    const tool = search({
      method: 'GET',
      url: 'https://api.example.com/search/{{query}}-all?q=site:{{query}}&tier={{customer.tier}}',
    });
    const { out, imported } = await call(tool, { 'vars.customer': { tier: 'gold' } });
    expect(imported.tools[0]!.endpoint?.url).toBe('https://api.example.com/search/{query}-all');
    expect(out.ok && out.args).toEqual({ query: 'refunds', tier: 'gold', q: 'site:refunds' });
  });

  it('Liquid naming no argument still reads the session variable', async () => {
    const tool = search({ parameters: [{ key: 'tier', value: 'tier-{{customer.tier}}' }] });
    const { out } = await call(tool, { 'vars.customer': { tier: 'gold' } });
    expect(out.ok && out.args).toEqual({ query: 'refunds', tier: 'tier-gold' });
  });
});
