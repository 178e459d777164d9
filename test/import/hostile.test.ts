/**
 * Hostile vendor files (docs/reliability.md, "Vendor import"): literals that look like templates,
 * nesting that would overflow the stack, control characters in header names, private and
 * metadata addresses, and files that hold no tool at all.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { toChatTools } from '../../src/definition/export.js';
import { DefinitionError } from '../../src/errors.js';
import { transformCall } from '../../src/harness/transform-call.js';
import { renderMustache } from '../../src/expressions/mustache.js';
import { exportTools } from '../../src/import/export-tools.js';
import { importTools } from '../../src/import/import-tools.js';
import type { ConversionWarning, Platform } from '../../src/import/types.js';

const SECRET = 'sk_session_secret_42';
const vars = { api_key: SECRET, 'vars.api_key': SECRET };

function failure(from: Platform, value: unknown): DefinitionError {
  try {
    importTools(value, { from, file: 'vendor.json' });
  } catch (error) {
    if (error instanceof DefinitionError) return error;
    throw error;
  }
  throw new Error('expected the import to fail');
}

async function finalArgs(
  from: Platform,
  value: unknown,
  tool: string,
  args: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  const set = await loadTools({ tools: importTools(value, { from }).tools });
  const out = transformCall({ tools: set, tool, args, vars });
  if (!out.ok) throw new Error(out.message);
  return out.args;
}

const LITERALS = [
  '{{vars.api_key}}',
  '{{#vars}}{{api_key}}{{/vars}}',
  '{{{vars.api_key}}}',
  'x {{ unclosed',
  '{{=<% %>=}}<%vars.api_key%>',
  '  \n{{vars.api_key}}\n  ',
];

describe('vendor literals stay literal', () => {
  it('ElevenLabs constant_value (top level, nested, query) is sent as written, never rendered', async () => {
    for (const literal of LITERALS) {
      const value = [
        {
          type: 'webhook',
          name: 'w',
          api_schema: {
            url: 'https://api.x.test/w',
            method: 'POST',
            request_body_schema: {
              type: 'object',
              properties: {
                key: { type: 'string', constant_value: literal },
                nested: {
                  type: 'object',
                  properties: { key: { type: 'string', constant_value: literal } },
                },
              },
            },
          },
        },
      ];
      const args = await finalArgs('elevenlabs', value, 'w');
      expect(args, literal).toEqual({ key: literal, nested: { key: literal } });
    }
  });

  it('Ultravox staticParameters values and parameterOverrides are sent as written', async () => {
    for (const literal of LITERALS) {
      const value = {
        selectedTools: [
          {
            temporaryTool: {
              modelToolName: 'u',
              http: { baseUrlPattern: 'https://api.x.test/u', httpMethod: 'POST' },
              staticParameters: [
                { name: 'key', location: 'PARAMETER_LOCATION_BODY', value: literal },
              ],
            },
            parameterOverrides: { other: literal },
          },
        ],
      };
      const args = await finalArgs('ultravox', value, 'u');
      expect(args, literal).toEqual({ key: literal, other: literal });
    }
  });

  it('a fixed transfer destination and a tool description stay literal', async () => {
    const value = [
      {
        type: 'transfer_call',
        name: 'transfer',
        description: 'Transfers. Key: {{vars.api_key}} {{#vars}}{{api_key}}{{/vars}}',
        transfer_destination: { type: 'predefined', number: '{{vars.api_key}}' },
      },
    ];
    const set = await loadTools({ tools: importTools(value, { from: 'retell' }).tools });
    const described = JSON.stringify(toChatTools(set, { vars }));
    expect(described).not.toContain(SECRET);
    expect(described).toContain('Key: {{vars.api_key}} {{#vars}}{{api_key}}{{/vars}}');
    const out = transformCall({ tools: set, tool: 'transfer', args: {}, vars });
    expect(out.ok && out.args).toEqual({ destination: '{{vars.api_key}}' });
  });

  it("only the vendor's own variable syntax is translated: a Vapi Liquid variable, deliberately", async () => {
    const value = [
      {
        type: 'function',
        function: { name: 'f' },
        server: { url: 'https://api.x.test/f' },
        parameters: [
          { key: 'who', value: 'id {{ customer_id }} {' },
          { key: 'section', value: '{{#vars}}x{{/vars}}' },
        ],
      },
    ];
    const set = await loadTools({ tools: importTools(value, { from: 'vapi' }).tools });
    const out = transformCall({
      tools: set,
      tool: 'f',
      args: {},
      vars: { ...vars, customer_id: 'C-7' },
    });
    expect(out.ok && out.args).toEqual({
      who: 'id C-7 {',
      // `#vars` is not a Liquid variable name: a warning, and the text stays as written.
      section: '{{#vars}}x{{/vars}}',
    });
  });

  it('an ElevenLabs dynamic_variable that is not a name is refused with a warning', async () => {
    const value = [
      {
        type: 'webhook',
        name: 'w',
        api_schema: {
          url: 'https://api.x.test/w',
          method: 'POST',
          request_body_schema: {
            type: 'object',
            properties: { a: { type: 'string', dynamic_variable: 'x}}{{vars.api_key' } },
          },
        },
      },
    ];
    const result = importTools(value, { from: 'elevenlabs' });
    expect(JSON.stringify(result.tools)).not.toContain('api_key');
    expect(result.warnings.map((w) => w.message)).toContain(
      '"x}}{{vars.api_key" is not a variable name; not imported',
    );
    expect(await finalArgs('elevenlabs', value, 'w')).toEqual({});
  });

  it('a Vapi body default that looks like a rule stays a literal value', async () => {
    const rule = { transform: { action: 'override', format: '{vars.api_key}' } };
    const value = [
      {
        type: 'apiRequest',
        name: 'a',
        method: 'POST',
        url: 'https://api.x.test/a',
        body: {
          type: 'object',
          properties: {
            spec: { type: 'object', default: rule },
            verb: { type: 'string', default: '@override {{api_key}}' },
          },
        },
      },
    ];
    const args = await finalArgs('vapi', value, 'a');
    expect(args['spec']).toEqual(rule);
    // A Liquid variable in a default is translated; the "@override" text stays text.
    expect(args['verb']).toBe(`@override ${SECRET}`);
    expect(await finalArgs('vapi', value, 'a', { spec: { mine: 1 } })).toMatchObject({
      spec: { mine: 1 },
    });
  });

  it('a Vapi request-failed message: Liquid variables spoken, the rest literal; the round trip holds', async () => {
    const value = [
      {
        type: 'function',
        function: { name: 'f' },
        server: { url: 'https://api.x.test/f' },
        messages: [
          { type: 'request-failed', content: 'Sorry {{ name }}, {{vars.api_key}} {{#x}}' },
        ],
      },
    ];
    const imported = importTools(value, { from: 'vapi' }).tools;
    const set = await loadTools({ tools: imported });
    const phrase = set.tools.get('f')!.options.speech.onError.get('*')!.get('*')!;
    // In Liquid `{{vars.api_key}}` is Vapi's variable "vars.api_key" (session variable
    // `vars.vars.api_key`), never the session's `api_key`; `{{#x}}` is no variable: text.
    expect(renderMustache(phrase, { vars: { name: 'Ada', ...vars } })).toBe('Sorry Ada,  {{#x}}');
    const back = exportTools(set, { to: 'vapi' }).tools;
    expect(JSON.stringify(back)).toContain('"content":"Sorry {{name}}, {{vars.api_key}} {{#x}}"');
    expect(importTools(back, { from: 'vapi' }).tools).toEqual(imported);
  });

  it('export writes the literal back: ElevenLabs constant_value, Ultravox value, descriptions', async () => {
    const el = [
      {
        type: 'webhook',
        name: 'w',
        description: 'd {{x}}',
        api_schema: {
          url: 'https://api.x.test/w',
          method: 'POST',
          request_body_schema: {
            type: 'object',
            properties: { key: { type: 'string', constant_value: '{{vars.api_key}}' } },
          },
        },
      },
    ];
    const set = await loadTools({ tools: importTools(el, { from: 'elevenlabs' }).tools });
    const back = exportTools(set, { to: 'elevenlabs' }).tools[0] as {
      description: string;
      api_schema: { request_body_schema: { properties: Record<string, unknown> } };
    };
    expect(back.description).toBe('d {{x}}');
    expect(back.api_schema.request_body_schema.properties['key']).toEqual({
      type: 'string',
      constant_value: '{{vars.api_key}}',
    });
    const again = importTools([back], { from: 'elevenlabs' });
    expect(again.tools).toEqual(importTools(el, { from: 'elevenlabs' }).tools);
    const uv = exportTools(set, { to: 'ultravox' }).tools[0] as {
      temporaryTool: { staticParameters: { value: unknown }[] };
    };
    expect(uv.temporaryTool.staticParameters[0]!.value).toBe('{{vars.api_key}}');
  });
});

function nest(depth: number, leaf: Record<string, unknown>): Record<string, unknown> {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = { type: 'object', properties: { a: v } };
  return v;
}

describe('deep vendor files', () => {
  const deepTools: [Platform, string, unknown][] = [
    [
      'vapi',
      'tools[0].function.parameters',
      [{ type: 'function', function: { name: 'f', parameters: nest(20_000, { type: 'string' }) } }],
    ],
    [
      'elevenlabs',
      'tools[0].api_schema.request_body_schema',
      [
        {
          type: 'webhook',
          name: 'w',
          api_schema: {
            url: 'https://x.test/w',
            method: 'POST',
            request_body_schema: nest(5_000, { type: 'string' }),
          },
        },
      ],
    ],
    [
      'retell',
      'general_tools[0].parameters',
      { general_tools: [{ type: 'custom', name: 'c', parameters: nest(20_000, {}) }] },
    ],
    [
      'ultravox',
      'selectedTools[0].parameterOverrides.x',
      { selectedTools: [{ toolName: 'hangUp', parameterOverrides: { x: nest(20_000, {}) } }] },
    ],
  ];
  for (const [from, under, value] of deepTools) {
    it(`${from}: a schema nested thousands deep is a vendor_schema error with its path, not a stack overflow`, () => {
      const error = failure(from, value);
      expect(error.issues).toHaveLength(1);
      const [issue] = error.issues;
      expect(issue).toMatchObject({
        code: 'vendor_schema',
        severity: 'error',
        file: 'vendor.json',
      });
      expect(issue!.path.startsWith(under)).toBe(true);
      expect(issue!.message).toBe('nested more than 62 levels deep (a tool is at most 62)');
    });
  }

  it('the limit is exact, and what it lets in loads (the definition limit, 64, holds)', async () => {
    // A Retell tool: the tool object is level 1, `parameters` level 2 (level 4 in a definition).
    const tool = (height: number) => ({
      type: 'end_call',
      name: 'e',
      parameters: nest((height - 2) / 2, {}),
    });
    const ok = importTools([tool(62)], { from: 'retell' });
    const set = await loadTools({ tools: ok.tools });
    expect(set.tools.size).toBe(1);
    expect(failure('retell', [tool(64)]).issues[0]!.message).toMatch(/nested more than 62/);
  });

  it('a cyclic document (YAML aliases) is refused, naming the tool', () => {
    const tool: Record<string, unknown> = { type: 'end_call', name: 'e' };
    tool['self'] = tool;
    expect(failure('retell', [tool]).issues.map((i) => `${i.path}: ${i.message}`)).toEqual([
      'tools[0]: contains itself (a cycle of YAML aliases)',
    ]);
  });
});

const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

describe('control characters in warnings', () => {
  const name = 'X-Trace\r\nInjected: 1\u001b[2J\u202e';
  const val = 'v\r\n\u001b]0;title\u0007\u0000';
  const cases: [Platform, unknown][] = [
    [
      'vapi',
      [
        {
          type: 'function',
          function: { name: 'f' },
          server: { url: 'https://x.test/f', headers: { [name]: val } },
        },
      ],
    ],
    [
      'elevenlabs',
      [
        {
          type: 'webhook',
          name: 'w',
          api_schema: { url: 'https://x.test/w', method: 'GET', request_headers: { [name]: val } },
        },
      ],
    ],
    [
      'retell',
      [
        {
          type: 'custom',
          name: 'c',
          url: 'https://x.test/c',
          args_at_root: true,
          headers: { [name]: val },
        },
      ],
    ],
    [
      'ultravox',
      [
        {
          temporaryTool: {
            modelToolName: 'u\u001b[31m',
            http: { baseUrlPattern: 'https://x.test/u', httpMethod: 'GET' },
            staticParameters: [{ name, location: 'PARAMETER_LOCATION_HEADER', value: val }],
          },
        },
      ],
    ],
  ];
  for (const [from, value] of cases) {
    it(`${from}: header names and values are escaped in every warning`, () => {
      const { warnings } = importTools(value, { from });
      const header = warnings.filter((w) => w.message.includes('X-Trace'));
      expect(header.length).toBeGreaterThan(0);
      for (const w of warnings) {
        expect(w.message).not.toMatch(UNPRINTABLE);
        expect(w.path).not.toMatch(UNPRINTABLE);
      }
      expect(header[0]!.message).toContain('X-Trace\\r\\nInjected: 1\\u001b[2J\\u202e');
    });
  }
});

describe('private and metadata addresses', () => {
  const inside: [string, string][] = [
    ['http://169.254.169.254/latest/meta-data/iam', '169.254.169.254'],
    ['http://metadata.google.internal/computeMetadata/v1/', 'metadata.google.internal'],
    ['http://127.0.0.1:6379/', '127.0.0.1:6379'],
    ['http://0x7f.1/admin', '127.0.0.1'],
    ['http://2130706433/admin', '127.0.0.1'],
    ['http://[::1]:8080/x', '[::1]:8080'],
    ['http://[::ffff:169.254.169.254]/x', '[::ffff:a9fe:a9fe]'],
    ['https://localhost/x', 'localhost'],
    ['https://10.1.2.3/x', '10.1.2.3'],
    ['http://redis:6379/x', 'redis:6379'],
    ['https://billing.corp.internal/x', 'billing.corp.internal'],
  ];
  const warningsFor = (url: string): ConversionWarning[] =>
    importTools([{ type: 'custom', name: 'probe', url, args_at_root: true }], { from: 'retell' })
      .warnings;

  for (const [url, address] of inside) {
    it(`${url}: a warning naming the tool and ${address}`, () => {
      const found = warningsFor(url).filter((w) => w.message.includes(`calls ${address},`));
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({ path: 'tools[0].url', tool: 'probe' });
      expect(found[0]!.message).toContain('tool "probe"');
    });
  }

  it('a public host gets no such warning', () => {
    for (const url of [
      'https://api.example.com/x',
      'https://8.8.8.8/x',
      'https://[2001:4860::8888]/',
    ])
      expect(warningsFor(url).filter((w) => w.message.includes(' calls '))).toEqual([]);
  });

  it('every platform warns (Vapi server.url, ElevenLabs api_schema.url, Ultravox baseUrlPattern)', () => {
    const url = 'http://169.254.169.254/latest';
    const cases: [Platform, unknown, string][] = [
      ['vapi', [{ type: 'function', function: { name: 'v' }, server: { url } }], 'server.url'],
      [
        'elevenlabs',
        [{ type: 'webhook', name: 'e', api_schema: { url, method: 'GET' } }],
        'api_schema.url',
      ],
      [
        'ultravox',
        [
          {
            temporaryTool: { modelToolName: 'u', http: { baseUrlPattern: url, httpMethod: 'GET' } },
          },
        ],
        'http.baseUrlPattern',
      ],
    ];
    for (const [from, value, field] of cases) {
      const found = importTools(value, { from }).warnings.filter((w) =>
        w.message.includes('calls 169.254.169.254,'),
      );
      expect(
        found.map((w) => w.field),
        from,
      ).toEqual([field]);
    }
  });
});

describe('a file with no tool to import', () => {
  it('a switchboard tools file given to --from vapi is an error naming what Vapi files look like', () => {
    const clinic = JSON.parse(readFileSync('fixtures/tools/clinic.json', 'utf8')) as unknown;
    const error = failure('vapi', clinic);
    const errors = error.issues.filter((i) => i.severity === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code: 'vendor_schema', path: '', file: 'vendor.json' });
    expect(errors[0]!.message).toBe(
      'no tool to import: expected a list of Vapi tools, { "tools": [...] }, an assistant with model.tools, or one tool, holding at least one tool (this looks like a switchboard tools file already: check it with `switchboard validate`)',
    );
    // Why each item was skipped comes along, as warnings.
    expect(error.issues.filter((i) => i.severity === 'warning').length).toBeGreaterThan(0);
  });

  const empty: [Platform, unknown][] = [
    ['vapi', { model: { tools: [] } }],
    ['elevenlabs', []],
    ['retell', { general_tools: [], states: [{ tools: [] }] }],
    ['ultravox', { selectedTools: [{ toolName: 'someStoredTool' }] }],
  ];
  for (const [from, value] of empty)
    it(`${from}: an empty tool list is an error`, () => {
      expect(failure(from, value).issues[0]!.message).toMatch(/^no tool to import: expected /);
    });
});
