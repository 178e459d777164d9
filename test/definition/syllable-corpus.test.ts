/**
 * The corpus of real Syllable definitions (fixtures/syllable/definitions): each is stored as its
 * source published it, with a sidecar naming the source (repo, path, commit) and what it says the
 * definition does. Each must load with exactly the warnings its sidecar lists, and behave as
 * documented (the conversation fixtures, plus the checks below).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { toChatTools } from '../../src/definition/export.js';
import { runFixture } from '../../src/harness/run-fixture.js';
import { resultProblemLines } from '../../src/harness/reporters/format-failure.js';

const DIR = 'fixtures/syllable/definitions';
const CONVERSATIONS = 'fixtures/syllable/conversations';
const definitions = readdirSync(DIR).filter((f) => f.endsWith('.json'));

interface Sidecar {
  source: { repo: string | null; path: string; commit: string | null };
  stored: string;
  says: string;
  behaviour: string;
  warnings: string[];
  conversation?: string;
}

function sidecar(file: string): Sidecar {
  return parseYaml(readFileSync(join(DIR, file.replace(/\.json$/, '.source.yaml')), 'utf8'));
}

async function load(file: string) {
  return loadTools(join(DIR, file));
}

describe('fixtures/syllable/definitions', () => {
  it('holds the published definitions', () => {
    expect(definitions.length).toBeGreaterThanOrEqual(8);
  });

  for (const file of definitions) {
    describe(file, () => {
      const meta = sidecar(file);

      it('names its source and what the source says it does', () => {
        expect(meta.source.path).toEqual(expect.any(String));
        if (meta.source.repo !== null) {
          expect(meta.source.repo).toMatch(/^asksyllable\//);
          expect(meta.source.commit).toMatch(/^[0-9a-f]{40}$/);
        }
        expect(meta.stored).toMatch(/^(unchanged|transcribed)/);
        expect(meta.says.length).toBeGreaterThan(20);
        expect(meta.behaviour.length).toBeGreaterThan(20);
      });

      it(`loads with exactly the warnings [${meta.warnings.join(', ')}]`, async () => {
        const set = await load(file);
        expect(set.tools.size).toBe(1);
        expect(set.warnings.map((w) => w.code).sort()).toEqual([...meta.warnings].sort());
      });

      if (meta.conversation !== undefined) {
        const fixture = join(DIR, meta.conversation);
        it(`behaves as documented: ${meta.conversation}`, async () => {
          const result = await runFixture(fixture);
          expect(resultProblemLines(result)).toEqual([]);
          expect(result.status).toBe('passed');
        });
      }
    });
  }

  it('every conversation fixture belongs to a definition', () => {
    const named = definitions.map((f) => sidecar(f).conversation?.replace('../conversations/', ''));
    for (const f of readdirSync(CONVERSATIONS)) expect(named).toContain(f);
  });
});

describe('documented behaviour beyond the conversations', () => {
  const view = { vars: {}, session: {} };

  it('openapi example: the static temperature_unit is hidden from the model', async () => {
    const set = await load('openapi-get-weather.json');
    const params = toChatTools(set, view)[0]?.function.parameters as {
      properties: Record<string, unknown>;
      required: string[];
    };
    expect(Object.keys(params.properties)).toEqual(['latitude', 'longitude', 'current']);
    expect(params.required).toEqual(['latitude', 'longitude', 'current']);
  });

  it('the seed example: the bare property map is what the model sees as an object schema', async () => {
    const set = await load('seed-set-language.json');
    const fn = toChatTools(set, view)[0]?.function;
    expect(fn?.parameters).toEqual({
      type: 'object',
      properties: {
        language: {
          type: 'string',
          description: "The ISO 639 language code to set for the session e.g. 'en-US'.",
        },
        message: {
          type: 'string',
          description: "Inform the caller we're now speaking in the new language.",
        },
      },
    });
    expect(set.tools.get('set_language')?.type).toBe('context');
  });

  it('TypeScript SDK examples: timeout 45 s honoured, method and location resolved', async () => {
    for (const file of ['ts-sdk-tooldefinition.json', 'ts-sdk-toolcreaterequest.json']) {
      const endpoint = (await load(file)).tools.get('get_weather')?.endpoint;
      expect(endpoint).toMatchObject({
        url: 'https://api.example.com',
        method: 'delete',
        argumentLocation: 'query',
        timeoutSecs: 45,
      });
    }
  });

  it('a rule with neither value nor format (ToolCreateRequest example) sets nothing', async () => {
    const tool = (await load('ts-sdk-toolcreaterequest.json')).tools.get('get_weather')!;
    const outKey = tool.defaults.apply({ key: 'value' });
    expect(outKey.ok && outKey.args).toEqual({ key: 'value' });
    const outEmpty = tool.defaults.apply({});
    expect(outEmpty.ok && outEmpty.args).toEqual({});
  });
});
