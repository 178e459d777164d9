/**
 * Export warns, by name, about every defaults rule, phrase or setting a platform cannot express,
 * and writes what it can.
 */
import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { exportTools } from '../../src/import/export-tools.js';
import { PLATFORMS } from '../../src/import/types.js';

const tool = {
  type: 'endpoint',
  tool: {
    type: 'function',
    function: {
      name: 'book',
      parameters: {
        type: 'object',
        properties: { city: { type: 'string' }, notes: { type: 'string' } },
      },
    },
  },
  endpoint: { url: 'https://api.clinic.test/v1/book', method: 'post' },
  defaults: {
    city: {
      transform: { action: 'override', value: 'The Bronx', when: { key: 'city', value: 'Bronx' } },
    },
    notes: '@remove',
    channel: '@override voice',
  },
};

describe('export warnings', () => {
  for (const to of PLATFORMS) {
    // A service (auth, headers) has no place in a definition the platform reads: each platform
    // names what to set on its side instead of exporting the service name silently.
    it(`${to}: a tool's service is a warning naming it`, async () => {
      const result = exportTools(await loadTools([{ ...tool, service: 'crm_prod' }]), { to });
      const service = result.warnings.find((w) => w.field === 'service');
      expect(service?.message).toMatch(/^service "crm_prod"/);
      expect(service?.path).toBe('tools[0].service');
    });

    it(`${to}: conditional and remove rules are named, each by its key`, async () => {
      const result = exportTools(await loadTools([tool]), { to });
      const byField = new Map(result.warnings.map((w) => [w.field, w]));
      expect(byField.get('defaults.city')?.message).toMatch(
        /^a conditional rule on "city" cannot be expressed/,
      );
      expect(byField.get('defaults.notes')?.message).toMatch(
        /^a remove rule on "notes" cannot be expressed/,
      );
      expect(byField.get('defaults.city')?.path).toBe('tools[0].defaults.city');
      expect(result.tools).toHaveLength(1);
    });
  }

  it('Ultravox writes an unconditional literal override as a static parameter', async () => {
    const result = exportTools(
      await loadTools([
        { ...tool, defaults: { channel: { transform: { action: 'override', value: 'voice' } } } },
      ]),
      { to: 'ultravox' },
    );
    expect(result.warnings).toEqual([]);
    expect(result.tools[0]).toMatchObject({
      temporaryTool: {
        staticParameters: [
          { name: 'channel', location: 'PARAMETER_LOCATION_BODY', value: 'voice' },
        ],
      },
    });
  });

  it("Vapi writes a default of a body argument as the property's default (a variable as Liquid)", async () => {
    const result = exportTools(
      await loadTools([{ ...tool, defaults: { city: '{vars.home_city}' } }]),
      { to: 'vapi' },
    );
    expect(result.warnings).toEqual([]);
    expect(result.tools[0]).toMatchObject({
      type: 'apiRequest',
      body: { properties: { city: { type: 'string', default: '{{home_city}}' } } },
    });
  });

  it("a default naming an argument is Vapi's Liquid of that argument; with a format spec, warned", async () => {
    const plain = exportTools(await loadTools([{ ...tool, defaults: { notes: 'about {city}' } }]), {
      to: 'vapi',
    });
    expect(plain.warnings).toEqual([]);
    expect(plain.tools[0]).toMatchObject({
      body: { properties: { notes: { type: 'string', default: 'about {{city}}' } } },
    });
    const spec = exportTools(
      await loadTools([{ ...tool, defaults: { notes: 'about {city:>10}' } }]),
      { to: 'vapi' },
    );
    expect(spec.warnings.map((w) => w.field)).toEqual(['defaults.notes']);
  });

  it('context and log tools are not exported, with a warning', async () => {
    const log = {
      type: 'log',
      tool: {
        type: 'function',
        function: { name: 'note', parameters: { type: 'object', properties: {} } },
      },
    };
    const result = exportTools(await loadTools([log]), { to: 'retell' });
    expect(result.tools).toEqual([]);
    expect(result.warnings[0]).toMatchObject({ path: 'tools[0].type', tool: 'note' });
  });
});

describe('export of int and boolean static parameters in the URL', () => {
  // Syllable's static parameter types include int and boolean; one that fills a path
  // placeholder was left out, so the exported tool called `/clinics/{clinic_id}/…` as written.
  const clinic = {
    type: 'endpoint',
    tool: { type: 'function', function: { name: 'book', parameters: { type: 'object' } } },
    endpoint: {
      url: 'https://api.clinic.test/clinics/{clinic_id}/book',
      method: 'get',
      argument_location: 'query',
    },
    static_parameters: [
      { name: 'clinic_id', type: 'int', required: true, default: 42 },
      { name: 'sms', type: 'boolean', default: false },
    ],
  };

  it('Vapi and Retell write the value into the path, as the engine sends it', async () => {
    const set = await loadTools([clinic]);
    for (const to of ['vapi', 'retell'] as const) {
      const result = exportTools(set, { to });
      const url = (result.tools[0] as { url: string }).url;
      expect(url, to).toMatch(/^https:\/\/api\.clinic\.test\/clinics\/42\/book(\?|$)/);
      expect(result.warnings.map((w) => w.field).filter((f) => /clinic_id|url/.test(f))).toEqual(
        [],
      );
    }
    const retell = exportTools(set, { to: 'retell' });
    expect(JSON.stringify(retell.tools[0])).toContain('"sms":"false"');
  });
});

describe('export warnings of a Syllable API tool object', () => {
  it('point into the file: the definition is under tools[i].definition', async () => {
    const api = {
      name: 'book',
      service_id: 4,
      definition: { ...tool, options: { propagate_tool_result: true } },
    };
    const result = exportTools(await loadTools([api]), { to: 'vapi' });
    expect(result.warnings.map((w) => w.path)).toContain(
      'tools[0].definition.options.propagate_tool_result',
    );
    expect(result.warnings.every((w) => w.path.startsWith('tools[0].definition.'))).toBe(true);
  });
});

describe('ElevenLabs property schemas', () => {
  // ElevenLabs keeps type, description, enum, items and properties; a schema `default` (which
  // switchboard fills in, as Syllable does) or a `pattern` was dropped without a word.
  it('name each JSON Schema keyword they cannot hold', async () => {
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
                current: { type: 'boolean', default: true },
                zip: { type: 'array', items: { type: 'string', pattern: '^[0-9]{5}$' } },
              },
              required: ['current'],
            },
          },
        },
        endpoint: { url: 'https://api.weather.test/v1/forecast', method: 'get' },
      },
    ]);
    const result = exportTools(set, { to: 'elevenlabs' });
    expect(result.warnings.map((w) => w.path)).toEqual([
      'tools[0].tool.function.parameters.properties.current.default',
      'tools[0].tool.function.parameters.properties.zip.items.pattern',
    ]);
    expect(result.warnings[0]?.message).toMatch(/"default" not exported$/);
  });
});

describe('a description rendering session variables', () => {
  // "Book at {{vars.hospital}}" is rendered per session here; every platform shows a description
  // as written, so its model read the tags. The export said nothing.
  for (const to of PLATFORMS) {
    it(`${to}: is a warning; a literal description is not`, async () => {
      const described = (description: string, name: string) => ({
        ...tool,
        tool: { ...tool.tool, function: { ...tool.tool.function, name, description } },
      });
      const set = await loadTools([
        described('Book at {{vars.hospital}}', 'book'),
        described('Book', 'book_plain'),
      ]);
      const paths = exportTools(set, { to }).warnings.map((w) => w.path);
      expect(paths).toContain('tools[0].tool.function.description');
      expect(paths).not.toContain('tools[1].tool.function.description');
    });
  }
});
