/**
 * Malformed vendor files fail with the file and the JSON path; unknown vendor fields only warn;
 * secrets never reach the definitions or the warnings.
 */
import { describe, expect, it } from 'vitest';
import { DefinitionError, formatIssue } from '../../src/errors.js';
import { loadTools } from '../../src/definition/load.js';
import { importTools } from '../../src/import/import-tools.js';
import type { Platform } from '../../src/import/types.js';

function failure(from: Platform, value: unknown): string[] {
  try {
    importTools(value, { from, file: 'vendor.json' });
  } catch (error) {
    expect(error).toBeInstanceOf(DefinitionError);
    return (error as DefinitionError).issues.map(formatIssue);
  }
  throw new Error('expected the import to fail');
}

describe('malformed vendor files', () => {
  it('Vapi: a wrongly typed server.url names the file and the path', () => {
    const tools = [
      { type: 'endCall' },
      { type: 'endCall' },
      { type: 'function', function: { name: 'f' }, server: { url: 42 } },
    ];
    expect(failure('vapi', { tools })).toEqual([
      'vendor.json: tools[2].server.url: expected a string',
    ]);
  });

  it('Vapi: a missing type is required', () => {
    expect(failure('vapi', [{ function: { name: 'f' } }])).toEqual([
      'vendor.json: tools[0].type: is required',
    ]);
  });

  it('ElevenLabs: a list response item reports the path inside tool_config', () => {
    const value = {
      tools: [{ id: 'x', tool_config: { type: 'webhook', name: 'w', api_schema: { url: 1 } } }],
    };
    expect(failure('elevenlabs', value)).toEqual([
      'vendor.json: tools[0].tool_config.api_schema.url: expected a string',
    ]);
  });

  it('Retell: general_tools paths are kept', () => {
    expect(
      failure('retell', { general_tools: [{ type: 'custom', name: 'c', headers: { A: 1 } }] }),
    ).toEqual(['vendor.json: general_tools[0].headers.A: expected a string']);
  });

  it('Ultravox: a bad parameter location lists the allowed ones', () => {
    const value = {
      selectedTools: [
        {
          temporaryTool: {
            modelToolName: 't',
            dynamicParameters: [{ name: 'a', location: 'BODY' }],
          },
        },
      ],
    };
    const [line] = failure('ultravox', value);
    expect(line).toMatch(
      /^vendor\.json: selectedTools\[0\]\.temporaryTool\.dynamicParameters\[0\]\.location: expected one of PARAMETER_LOCATION_UNSPECIFIED\|/,
    );
  });

  it('a document of the wrong shape says what was expected', () => {
    expect(failure('retell', 'hello')[0]).toMatch(/^vendor\.json: expected a list of Retell tools/);
  });
});

describe('lenient on unknown vendor fields', () => {
  it('warns with the path and still imports', () => {
    const result = importTools([{ type: 'end_call', name: 'bye', brand_new_field: true }], {
      from: 'retell',
    });
    expect(result.tools).toHaveLength(1);
    expect(result.warnings).toEqual([
      {
        path: 'tools[0].brand_new_field',
        field: 'brand_new_field',
        message: 'not a field switchboard maps; ignored',
        tool: 'bye',
      },
    ]);
  });

  it('a non-JSON-Schema keyword is removed with a warning so the definition compiles in strict ajv', async () => {
    const result = importTools(
      [
        {
          type: 'function',
          function: {
            name: 'f',
            parameters: { type: 'object', properties: { a: { type: 'string', 'x-ui': 'box' } } },
          },
        },
      ],
      { from: 'vapi' },
    );
    expect(result.warnings.map((w) => w.path)).toContain(
      'tools[0].function.parameters.properties.a["x-ui"]',
    );
    await expect(loadTools({ tools: result.tools })).resolves.toBeDefined();
  });

  it('a PATCH endpoint becomes an action with a warning on the method', async () => {
    const result = importTools(
      [{ type: 'custom', name: 'p', url: 'https://x.test/a', method: 'PATCH', args_at_root: true }],
      { from: 'retell' },
    );
    expect(result.tools[0]!.type).toBe('action');
    expect(result.warnings.find((w) => w.field === 'method')?.message).toMatch(
      /PATCH has no switchboard endpoint/,
    );
    await loadTools({ tools: result.tools });
  });
});

describe('secrets', () => {
  const SECRET = 'sk_live_do_not_copy_123';
  const cases: [Platform, unknown][] = [
    [
      'vapi',
      [
        {
          type: 'function',
          function: { name: 'f' },
          server: { url: 'https://api.x.test/f', headers: { Authorization: `Bearer ${SECRET}` } },
        },
      ],
    ],
    [
      'vapi',
      [
        {
          type: 'apiRequest',
          name: 'a',
          method: 'POST',
          url: 'https://api.x.test/a',
          headers: {
            type: 'object',
            properties: { 'X-Api-Key': { type: 'string', value: SECRET } },
          },
        },
      ],
    ],
    [
      'elevenlabs',
      [
        {
          type: 'webhook',
          name: 'w',
          description: 'd',
          api_schema: {
            url: 'https://api.x.test/w',
            method: 'POST',
            request_headers: { 'X-Custom-Token': SECRET },
          },
        },
      ],
    ],
    [
      'retell',
      [
        {
          type: 'custom',
          name: 'c',
          url: 'https://api.x.test/c',
          args_at_root: true,
          headers: { Authorization: `Basic ${SECRET}` },
        },
      ],
    ],
    [
      'ultravox',
      [
        {
          temporaryTool: {
            modelToolName: 'u',
            http: { baseUrlPattern: 'https://api.x.test/u', httpMethod: 'POST' },
          },
          authTokens: { key: SECRET },
        },
      ],
    ],
  ];
  for (const [from, value] of cases) {
    it(`${from}: a literal credential becomes a service reference; the value appears nowhere`, () => {
      const result = importTools(value, { from });
      expect(JSON.stringify(result)).not.toContain(SECRET);
      expect(result.warnings.some((w) => /service|secret|credential/.test(w.message))).toBe(true);
      if (from !== 'ultravox') expect(result.tools[0]!.service).toBe('api_x_test');
    });
  }
});
