/**
 * Vendor text at the edges of the variable syntax (docs/import.md): braces beside a variable,
 * literal text that a platform would read as its own variable on export. Each case is one a
 * seeded fault broke without any other test noticing (docs/reliability.md).
 */
import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { transformCall } from '../../src/harness/transform-call.js';
import { exportTools } from '../../src/import/export-tools.js';
import { importTools } from '../../src/import/import-tools.js';
import type { Platform } from '../../src/import/types.js';

async function finalArgs(
  from: Platform,
  value: unknown,
  tool: string,
  vars: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const set = await loadTools({ tools: importTools(value, { from }).tools });
  const out = transformCall({ tools: set, tool, args: {}, vars });
  if (!out.ok) throw new Error(out.message);
  return out.args;
}

describe('braces beside a vendor variable render as written', () => {
  it('a Vapi fixed value "{{{id}}}" sends the brace, the value, the brace', async () => {
    // `{` then `{{vars.id}}` would be mustache's triple (unescaped) tag, losing both braces.
    const value = [
      {
        type: 'function',
        function: { name: 'f' },
        server: { url: 'https://api.x.test/f' },
        parameters: [{ key: 'ref', value: '{{{id}}}' }],
      },
    ];
    expect(await finalArgs('vapi', value, 'f', { id: 'C7' })).toEqual({ ref: '{C7}' });
  });

  it('a Vapi body default "{x} {{name}}" keeps "{x}" as text (a format field otherwise)', async () => {
    const value = [
      {
        type: 'apiRequest',
        name: 'a',
        method: 'POST',
        url: 'https://api.x.test/a',
        body: {
          type: 'object',
          properties: { greeting: { type: 'string', default: '{x} {{name}}' } },
        },
      },
    ];
    expect(await finalArgs('vapi', value, 'a', { name: 'Ann' })).toEqual({
      greeting: '{x} Ann',
    });
  });
});

describe('Vapi Liquid that names a session variable, not an argument', () => {
  it('a body value "{{customer_id}}" with no argument of that name is sent from the variable', async () => {
    const value = [
      {
        type: 'apiRequest',
        name: 'a',
        method: 'POST',
        url: 'https://api.x.test/a',
        body: {
          type: 'object',
          properties: { customer_id: { type: 'string', value: '{{customer_id}}' } },
        },
      },
    ];
    expect(await finalArgs('vapi', value, 'a', { customer_id: 'C7' })).toEqual({
      customer_id: 'C7',
    });
  });
});

describe('Vapi Liquid under a key a rule cannot address', () => {
  it('a parameters key "filter.q" stays one key (not nested) and the warning says what it reads', async () => {
    const value = [
      {
        type: 'apiRequest',
        name: 'a',
        method: 'POST',
        url: 'https://api.x.test/a',
        body: { type: 'object', properties: { query: { type: 'string' } } },
        parameters: [{ key: 'filter.q', value: 'site:{{query}}' }],
      },
    ];
    const result = importTools(value, { from: 'vapi' });
    expect(result.warnings.map((w) => w.message)).toContainEqual(
      expect.stringContaining('under the key "filter.q", which a switchboard rule cannot address'),
    );
    const set = await loadTools({ tools: result.tools });
    const out = transformCall({
      tools: set,
      tool: 'a',
      args: { query: 'Q' },
      vars: { query: 'V' },
    });
    expect(out.ok && out.args).toEqual({ query: 'Q', 'filter.q': 'site:V' });
  });
});

describe('literal text a platform would read as its own variable is not exported as one', () => {
  it('an ElevenLabs constant "{{api_key}}" is not written as Vapi Liquid or a Retell variable', async () => {
    const el = [
      {
        type: 'webhook',
        name: 'w',
        api_schema: {
          url: 'https://api.x.test/w',
          method: 'GET',
          query_params_schema: {
            properties: { key: { type: 'string', constant_value: '{{api_key}}' } },
          },
        },
      },
    ];
    const set = await loadTools({ tools: importTools(el, { from: 'elevenlabs' }).tools });
    for (const to of ['vapi', 'retell'] as const) {
      const out = exportTools(set, { to });
      // Vapi and Retell would fill `{{api_key}}` from their own variables: not a literal there.
      expect(JSON.stringify(out.tools)).not.toContain('{{api_key}}');
      expect(out.warnings.some((w) => w.field === 'static_parameters.key')).toBe(true);
    }
  });

  it('a session value Vapi has no variable for ({{vars.session.language}}) is not exported', async () => {
    const set = await loadTools({
      tools: [
        {
          type: 'action',
          tool: { type: 'function', function: { name: 'f', parameters: { type: 'object' } } },
          static_parameters: [
            { name: 'lang', type: 'string', default: '{{vars.session.language}}' },
            { name: 'call', type: 'string', default: '{{vars.session.id}}' },
          ],
        },
      ],
    });
    const out = exportTools(set, { to: 'vapi' });
    // `{{session.language}}` would be an empty Liquid variable in Vapi; the call id has one.
    expect((out.tools[0] as { parameters: unknown }).parameters).toEqual([
      { key: 'call', value: '{{call.id}}' },
    ]);
    expect(out.warnings.map((w) => w.field)).toContain('static_parameters.lang');
  });
});

describe('a session variable named like an argument, exported to Vapi', () => {
  // Vapi's `{{hospital}}` names the argument `hospital` when the body declares one (an import
  // reads it so), so `{vars.hospital}` written as `{{hospital}}` came back as the argument.
  it('is not exported as that Liquid name, with a warning, so no round trip reads it as the argument', async () => {
    const set = await loadTools({
      tools: [
        {
          type: 'endpoint',
          tool: {
            type: 'function',
            function: {
              name: 'book',
              parameters: {
                type: 'object',
                properties: { hospital: { type: 'string' }, city: { type: 'string' } },
              },
            },
          },
          endpoint: { url: 'https://api.clinic.test/book', method: 'post' },
          defaults: { hospital: '{vars.hospital}', city: '{vars.city_name}' },
          static_parameters: [{ name: 'site', default: '{{vars.city}}' }],
        },
      ],
    });
    const out = exportTools(set, { to: 'vapi' });
    const body = (out.tools[0] as { body: { properties: Record<string, { default?: unknown }> } })
      .body;
    expect(body.properties['hospital']?.default).toBeUndefined();
    expect(body.properties['city']?.default).toBe('{{city_name}}');
    expect((out.tools[0] as { parameters?: unknown }).parameters).toBeUndefined();
    expect(out.warnings.map((w) => w.field)).toEqual(
      expect.arrayContaining(['defaults.hospital', 'static_parameters.site']),
    );
    const back = await loadTools({ tools: importTools(out.tools, { from: 'vapi' }).tools });
    const call = transformCall({
      tools: back,
      tool: 'book',
      args: {},
      vars: { 'vars.hospital': 'Queens', 'vars.city_name': 'Bronx' },
    });
    expect(call.ok && call.args).toEqual({ city: 'Bronx' });
  });
});

describe('a required property with a default, through Vapi and back', () => {
  // Syllable's weather example: `current` required with `"default": true`. The Vapi export writes
  // the default on the body property; the import made it a `defaults` rule but kept `current`
  // required, so every call leaving it out was refused before the rule could fill it.
  it('fills the default when the model leaves the property out', async () => {
    const set = await loadTools([
      {
        type: 'endpoint',
        tool: {
          type: 'function',
          function: {
            name: 'get_weather',
            parameters: {
              type: 'object',
              properties: {
                city: { type: 'string' },
                current: { type: 'boolean', default: true },
              },
              required: ['city', 'current'],
            },
          },
        },
        endpoint: { url: 'https://api.weather.test/v1/forecast', method: 'post' },
      },
    ]);
    const exported = exportTools(set, { to: 'vapi' });
    const back = await loadTools({ tools: importTools(exported.tools, { from: 'vapi' }).tools });
    const call = transformCall({
      tools: back,
      tool: 'get_weather',
      args: { city: 'Paris' },
      vars: {},
    });
    expect(call.ok && call.args).toEqual({ city: 'Paris', current: true });
    expect(back.tools.get('get_weather')?.tool.function.parameters).toMatchObject({
      required: ['city'],
    });
  });
});
