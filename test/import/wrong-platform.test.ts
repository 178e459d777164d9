/**
 * A document refused by the `--from` platform that exactly one other platform imports: the error
 * adds which (`this looks like a Vapi document: --from vapi?`), in the CLI and in `importTools`.
 * Importing is the recogniser, so a document two platforms read gets no hint, and a document
 * that is the platform's own with a real mistake gets none.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DefinitionError } from '../../src/errors.js';
import { importTools } from '../../src/import/import-tools.js';
import type { Platform } from '../../src/import/types.js';
import { UNKNOWN_FIELD } from '../../src/import/conversion-context.js';
import { cliInProcess } from '../cli/build.js';

function read(file: string): unknown {
  return JSON.parse(readFileSync(file, 'utf8'));
}

function refusal(from: Platform, value: unknown): DefinitionError {
  try {
    importTools(value, { from, file: 'x.json' });
  } catch (error) {
    if (error instanceof DefinitionError) return error;
    throw error;
  }
  throw new Error(`importing from ${from} did not fail`);
}

// One file per platform that only its own platform reads.
const OWN: readonly [Platform, string, string][] = [
  ['vapi', 'a Vapi', 'fixtures/import/vapi/gitops-customer-lookup.json'],
  ['elevenlabs', 'an ElevenLabs', 'fixtures/import/elevenlabs/webhook-get-weather.json'],
  ['retell', 'a Retell', 'fixtures/import/retell/multi-state-llm.json'],
  ['ultravox', 'an Ultravox', 'fixtures/import/ultravox/check-availability.json'],
];

// Before, Retell imported any other platform's tool type as one of its own built-ins ("runs
// inside Retell"): a Vapi apiRequest given --from retell became an action without a word more.
it('a tool type that is not Retell’s is not imported as a Retell built-in', () => {
  const error = refusal('retell', read('fixtures/import/vapi/order-status.json'));
  expect(error.message).toMatch(/this looks like a Vapi document: --from vapi\?/);
  expect(error.issues.map((i) => i.message).join('\n')).toMatch(
    /"apiRequest" is not a Retell tool type .*; not imported/,
  );
  // A snake_case type Retell's docs do not list yet is still read as one of its built-ins.
  const newer = importTools(
    { type: 'send_fax', name: 'fax', description: 'Fax it' },
    { from: 'retell' },
  );
  expect(newer.tools.map((t) => t.type)).toEqual(['action']);
});

describe('importTools given another platform’s document', () => {
  for (const [platform, name, file] of OWN) {
    for (const [from] of OWN.filter(([p]) => p !== platform)) {
      it(`${file} with from: ${from} names ${name}`, () => {
        const error = refusal(from, read(file));
        expect(error.message).toContain(`this looks like ${name} document: --from ${platform}?`);
        // The platform's own refusal is kept, and the hint is the last issue.
        expect(error.message.startsWith(`invalid `)).toBe(true);
        expect(error.issues.at(-1)).toMatchObject({
          code: 'vendor_schema',
          path: '',
          file: 'x.json',
        });
      });
    }
  }

  it('no hint for a document that is the platform’s own with a mistake (Ultravox reads it, ignoring fields)', () => {
    const error = refusal('vapi', {
      tools: [{ type: 'function', function: { name: 'f' }, server: { url: 42 } }],
    });
    expect(error.message).toContain('tools[0].server.url');
    expect(error.message).not.toContain('looks like');
  });

  it('no hint when two other platforms read it (which one is a guess)', () => {
    // A tool with only a name and a description: an ElevenLabs client tool, and a bare Ultravox
    // definition (its `name` ignored), so which platform it came from is a guess.
    const doc = { tools: [{ name: 'lookup', description: 'Look it up' }] };
    expect(importTools(doc, { from: 'elevenlabs' }).tools).toHaveLength(1);
    expect(importTools(doc, { from: 'ultravox' }).tools).toHaveLength(1);
    expect(refusal('vapi', doc).message).not.toContain('looks like');
  });

  it('no hint when the one platform that reads it ignores some of its fields', () => {
    const tool = {
      modelToolName: 'f',
      http: { baseUrlPattern: 'https://api.x.test/f', httpMethod: 'GET' },
    };
    expect(refusal('vapi', { tools: [tool] }).message).toContain('--from ultravox?');
    // Ultravox still reads it, warning that `server` is not one of its fields: a guess.
    const mixed = { tools: [{ ...tool, server: { url: 'https://api.x.test/f' } }] };
    expect(importTools(mixed, { from: 'ultravox' }).tools).toHaveLength(1);
    expect(refusal('vapi', mixed).message).not.toContain('looks like');
  });
});

describe('switchboard import --from retell given a Vapi file', () => {
  it('exit 2, with the schema error and the hint', async () => {
    const r = await cliInProcess([
      'import',
      '--from',
      'retell',
      'fixtures/import/vapi/gitops-customer-lookup.json',
    ]);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(
      'fixtures/import/vapi/gitops-customer-lookup.json: this looks like a Vapi document: --from vapi?',
    );
  });
});

function messages(error: DefinitionError): string {
  return error.issues.map((i) => `${i.path}: ${i.message}`).join('\n');
}

// Before, Ultravox read any list item as a bare definition (every field optional): a Vapi,
// Retell or ElevenLabs tool became an action, its fields "not a field switchboard maps".
describe('Ultravox does not read another platform’s tool as a bare definition', () => {
  for (const [file, name, platform, field] of [
    ['fixtures/import/vapi/api-request.json', 'a Vapi', 'vapi', 'type'],
    ['fixtures/import/vapi/function-tool.json', 'a Vapi', 'vapi', 'type'],
    ['fixtures/import/retell/end-call.json', 'a Retell', 'retell', 'type'],
    [
      'fixtures/import/elevenlabs/webhook-post-ticket.json',
      'an ElevenLabs',
      'elevenlabs',
      'tool_config',
    ],
  ] as const) {
    it(`${file}: refused, naming ${name} document`, () => {
      const error = refusal('ultravox', read(file));
      expect(error.message).toContain(`this looks like ${name} document: --from ${platform}?`);
      expect(messages(error)).toMatch(
        new RegExp(
          `tools\\[0\\]\\.${field}: \`${field}\` is an? [A-Za-z, ]+ tool's field, and none of the Ultravox tool fields \\(modelToolName, [^)]*\\) is here: another platform's tool; not imported`,
        ),
      );
    });
  }

  it('a foreign item beside Ultravox tools is skipped with the warning; the rest import', () => {
    const result = importTools(
      {
        tools: [
          { type: 'apiRequest', name: 'vapi_one', url: 'https://a.example.test/x' },
          { modelToolName: 'mine', http: { baseUrlPattern: 'https://b.example.test/y' } },
        ],
      },
      { from: 'ultravox' },
    );
    expect(result.tools.map((t) => t.tool.function.name)).toEqual(['mine']);
    expect(result.warnings).toContainEqual(
      expect.objectContaining({ path: 'tools[0].type', tool: 'vapi_one' }),
    );
  });

  it('a bare definition with an Ultravox field and a stray `type` is still Ultravox’s', () => {
    const result = importTools(
      { type: 'x', modelToolName: 'mine', http: { baseUrlPattern: 'https://b.example.test/y' } },
      { from: 'ultravox' },
    );
    expect(result.tools.map((t) => t.tool.function.name)).toEqual(['mine']);
    expect(result.warnings).toContainEqual(
      expect.objectContaining({ path: 'tools[0].type', message: UNKNOWN_FIELD }),
    );
  });
});

// Before, an ElevenLabs tool without a `type` was a client tool whatever it held: an Ultravox
// `{ name, definition }` became an action, warning "tools[0].definition: not a field switchboard maps".
describe('ElevenLabs does not read another platform’s tool as a client tool', () => {
  for (const file of [
    'fixtures/import/ultravox/customer-query.json',
    'fixtures/import/ultravox/stock-price.json',
  ]) {
    it(`${file}: refused, naming an Ultravox document`, () => {
      const error = refusal('elevenlabs', read(file));
      expect(error.message).toContain('this looks like an Ultravox document: --from ultravox?');
      expect(messages(error)).toMatch(
        /tools\[0\]\.definition: `definition` is an Ultravox tool's field, and none of the ElevenLabs tool fields \(type, api_schema, params, parameters, expects_response\) is here: another platform's tool; not imported/,
      );
    });
  }

  it('a tool with no type and nothing foreign is still a client tool', () => {
    const result = importTools(
      {
        tools: [
          { name: 'open_map', parameters: { type: 'object', properties: {} } },
          { name: 'ping' },
        ],
      },
      { from: 'elevenlabs' },
    );
    expect(result.tools.map((t) => [t.tool.function.name, t.type])).toEqual([
      ['open_map', 'action'],
      ['ping', 'action'],
    ]);
  });
});
