/**
 * The sourced vendor examples under fixtures/import/<platform>/: each names its source, imports to
 * exactly the committed Syllable output (imported/), loads without errors, transforms as the
 * platform meant, and the platform's conversation fixture plays the imported tools.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { importTools } from '../../src/import/import-tools.js';
import { PLATFORMS, type Platform, type ToolDefinitionJson } from '../../src/import/types.js';
import { runFixture } from '../../src/harness/run-fixture.js';
import { resultProblemLines } from '../../src/harness/reporters/format-failure.js';
import { transformCall } from '../../src/harness/transform-call.js';

const examples = (p: Platform): string[] =>
  readdirSync(join('fixtures/import', p)).filter((f) => f.endsWith('.json'));

function imported(p: Platform, file: string) {
  const path = join('fixtures/import', p, file);
  return importTools(JSON.parse(readFileSync(path, 'utf8')), { from: p, file: path });
}

for (const p of PLATFORMS) {
  describe(`${p} examples`, () => {
    it('has at least five sourced examples, each listed in the README', () => {
      expect(examples(p).length).toBeGreaterThanOrEqual(5);
      const readme = readFileSync(join('fixtures/import', p, 'README.md'), 'utf8');
      for (const file of examples(p)) {
        const meta = parseYaml(
          readFileSync(join('fixtures/import', p, file.replace(/\.json$/, '.source.yaml')), 'utf8'),
        ) as {
          source: { repo?: string; path?: string; commit?: string; url?: string }[];
          notes: string;
        };
        expect(meta.source.length, file).toBeGreaterThan(0);
        for (const s of meta.source) {
          // A repository file at a commit, or a published page's address.
          if (s.repo !== undefined) {
            expect(s.repo).toMatch(/^[\w.-]+\/[\w.-]+$/);
            expect(s.commit).toMatch(/^[0-9a-f]{40}$/);
            expect(s.path?.length).toBeGreaterThan(3);
          } else expect(s.url).toMatch(/^https:\/\/[\w.-]+\//);
        }
        expect(meta.notes.length).toBeGreaterThan(20);
        expect(readme, `${file} in README.md`).toContain(file);
      }
    });

    for (const file of examples(p)) {
      it(`${file}: imports to the committed output, which loads without errors`, async () => {
        const result = imported(p, file);
        const committed = JSON.parse(
          readFileSync(join('fixtures/import', p, 'imported', file), 'utf8'),
        );
        expect({ tools: result.tools }).toEqual(committed);
        const set = await loadTools({ tools: result.tools });
        expect(set.tools.size).toBe(result.tools.length);
        expect(set.warnings.filter((w) => w.severity === 'error')).toEqual([]);
        for (const w of result.warnings) {
          expect(w.path.length).toBeGreaterThan(0);
          expect(w.field.length).toBeGreaterThan(0);
          expect(w.message.length).toBeGreaterThan(10);
        }
      });
    }

    const conversations = readdirSync(join('fixtures/import', p)).filter((f) =>
      /^conversation.*\.yaml$/.test(f),
    );
    for (const file of conversations)
      it(`plays ${file} over the imported tools`, async () => {
        const result = await runFixture(join('fixtures/import', p, file));
        expect(resultProblemLines(result)).toEqual([]);
        expect(result.status).toBe('passed');
      });

    it('runs every example in a conversation fixture', () => {
      const played = conversations
        .map((f) => readFileSync(join('fixtures/import', p, f), 'utf8'))
        .join('\n');
      for (const file of examples(p)) expect(played, file).toContain(`imported/${file}`);
    });

    it("calls each example's endpoint and action tools in a conversation, asserting an endpoint's request", () => {
      const called = calledTools(p, conversations);
      const missing = examples(p).flatMap((file) => {
        const defs = (
          JSON.parse(readFileSync(join('fixtures/import', p, 'imported', file), 'utf8')) as {
            tools: ToolDefinitionJson[];
          }
        ).tools;
        return defs.flatMap((d) => {
          // A context tool is a workflow: its steps are played through the tools they allow.
          if (d.type === 'context') return [];
          const seen = called.get(`imported/${file}#${d.tool.function.name}`);
          const ok = seen !== undefined && (d.type !== 'endpoint' || seen);
          return ok ? [] : [`${file}: ${d.tool.function.name}`];
        });
      });
      expect(missing).toEqual([]);
    });
  });
}

/**
 * `imported/<file>#<tool>` → whether a turn calling that tool asserts requests, for each tool the
 * conversation fixtures call (a turn's calls are counted for every tools file of its fixture).
 */
function calledTools(p: Platform, conversations: readonly string[]): Map<string, boolean> {
  const out = new Map<string, boolean>();
  for (const c of conversations) {
    const fixture = parseYaml(readFileSync(join('fixtures/import', p, c), 'utf8')) as {
      tools: string | string[];
      turns: {
        model?: { tool_calls?: { name: string }[] }[];
        expect?: { requests?: unknown[] };
      }[];
    };
    const files = Array.isArray(fixture.tools) ? fixture.tools : [fixture.tools];
    for (const turn of fixture.turns) {
      const asserted = (turn.expect?.requests ?? []).length > 0;
      for (const step of turn.model ?? [])
        for (const call of step.tool_calls ?? [])
          for (const f of files) {
            const key = `${f}#${call.name}`;
            out.set(key, (out.get(key) ?? false) || asserted);
          }
    }
  }
  return out;
}

describe('imported tools transform as the platform meant', () => {
  async function transform(
    p: Platform,
    file: string,
    tool: string,
    args: Record<string, unknown>,
    vars: Record<string, unknown> = {},
  ) {
    const set = await loadTools({ tools: imported(p, file).tools });
    return transformCall({ tools: set, tool, args: JSON.stringify(args), vars });
  }

  it('Vapi: a Liquid path variable fills the URL placeholder; a body "default" fills only a missing argument', async () => {
    const vars = { 'vars.session.source': '+1555' };
    const filled = await transform('vapi', 'api-request.json', 'lookup_customer', {}, vars);
    expect(filled.ok && filled.args).toEqual({
      customer_number: '+1555',
      fields: 'name,plan',
    });
    const given = await transform(
      'vapi',
      'api-request.json',
      'lookup_customer',
      { fields: 'name' },
      vars,
    );
    expect(given.ok && given.args).toMatchObject({ fields: 'name' });
  });

  it('ElevenLabs: a nested dynamic_variable overrides what the model sent', async () => {
    const out = await transform(
      'elevenlabs',
      'webhook-post-ticket.json',
      'create_ticket',
      { summary: 's', customer: { name: 'Ada', tier: 'platinum' } },
      { 'vars.customer_tier': 'gold' },
    );
    expect(out.ok && out.args).toMatchObject({
      customer: { name: 'Ada', tier: 'gold' },
      channel: 'phone',
    });
  });

  it('Retell: a query_params variable becomes a hidden argument', async () => {
    const out = await transform(
      'retell',
      'custom-get-availability.json',
      'check_availability',
      { date: 'd' },
      { 'vars.patient_id': 'P-1' },
    );
    expect(out.ok && out.args).toEqual({ date: 'd', patient: 'P-1' });
  });

  it('Ultravox: the call-id automatic parameter is the session id', async () => {
    const out = await transform('ultravox', 'transfer-call.json', 'transferCall', {
      firstName: 'A',
      transferReason: 'r',
    });
    expect(out.ok && out.args).toMatchObject({
      ultravoxCallId: expect.any(String),
      useWhisper: true,
    });
  });
});
