/**
 * import → export → import is stable for every sourced example, except the documented losses
 * (docs/import.md "Round trips"), which are asserted exactly along with the warning that names them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { exportTools } from '../../src/import/export-tools.js';
import { importTools } from '../../src/import/import-tools.js';
import { PLATFORMS, type Platform, type ToolDefinitionJson } from '../../src/import/types.js';

/** The description of a transfer tool's `destination` parameter. */
const desc = (t: ToolDefinitionJson): string =>
  (t.tool.function.parameters['properties'] as Record<string, { description: string }>)[
    'destination'
  ]!.description;

/** Examples whose round trip loses something the platform cannot say, and what. */
const LOSSY: Record<
  string,
  { warning: RegExp; differs: (first: ToolDefinitionJson, again: ToolDefinitionJson) => void }
> = {
  'elevenlabs/system-transfer.json': {
    warning: /conditions are left empty/,
    differs: (first, again) => {
      expect(desc(first)).toContain('(The caller asks about billing)');
      expect(desc(again)).not.toContain('billing');
    },
  },
  'retell/multi-state-llm.json': {
    warning: /a context tool runs inside switchboard/,
    differs: (first, again) => {
      expect(first.type).toBe('context');
      expect(again.type).not.toBe('context');
    },
  },
  'vapi/dynamic-transfer-function.json': {
    // Vapi runs apiRequest tools synchronously; its `async` has no effect there.
    warning: /Vapi runs apiRequest tools synchronously/,
    differs: (first, again) => {
      expect(first.options?.background).toBe(true);
      expect(again.options?.background).toBeUndefined();
    },
  },
  'elevenlabs/transfer-to-agent.json': {
    warning: /conditions are left empty/,
    differs: (first, again) => {
      expect(desc(first)).toContain('(When the user asks for billing support.)');
      expect(desc(again)).toBe('Where to transfer the call: AGENT_ID_1; AGENT_ID_2');
    },
  },
  'retell/create-llm-docs.json': {
    warning: /Retell has no host-implemented tools[\s\S]*a context tool runs inside switchboard/,
    differs: (first, again) => {
      expect(first.type).toBe('context');
      expect(again.type).not.toBe('context');
    },
  },
  'retell/flow-custom-tool.json': {
    warning: /Retell tools carry their headers/,
    differs: (first, again) => {
      expect(first.service).toBe('api_example_com');
      expect(again.service).toBeUndefined();
    },
  },
  'retell/custom-post-order.json': {
    warning: /Retell tools carry their headers/,
    differs: (first, again) => {
      expect(first.service).toBe('orders_example_test');
      expect(again.service).toBeUndefined();
    },
  },
};

function withoutDefaultTimeout(t: ToolDefinitionJson): ToolDefinitionJson {
  if (t.endpoint?.timeout !== 20) return t;
  const { timeout: _default, ...endpoint } = t.endpoint;
  return { ...t, endpoint };
}

async function roundTrip(p: Platform, file: string) {
  const path = join('fixtures/import', p, file);
  const first = importTools(JSON.parse(readFileSync(path, 'utf8')), { from: p, file: path });
  const exported = exportTools(await loadTools({ tools: first.tools }), { to: p });
  const again = importTools(JSON.parse(JSON.stringify(exported.tools)), { from: p });
  await loadTools({ tools: again.tools });
  return { first, exported, again };
}

for (const p of PLATFORMS) {
  describe(`${p}: import → export → import`, () => {
    for (const file of readdirSync(join('fixtures/import', p)).filter((f) => f.endsWith('.json'))) {
      const lossy = LOSSY[`${p}/${file}`];
      it(`${file}${lossy ? ' (documented loss)' : ''}`, async () => {
        const { first, exported, again } = await roundTrip(p, file);
        if (lossy === undefined) {
          expect(exported.tools.length).toBe(first.tools.length);
          // A timeout equal to switchboard's default (20 s) is not exported (docs/import.md).
          expect(again.tools).toEqual(first.tools.map(withoutDefaultTimeout));
        } else {
          expect(exported.warnings.map((w) => w.message).join('\n')).toMatch(lossy.warning);
          lossy.differs(first.tools.at(-1)!, again.tools.at(-1)!);
        }
      });
    }
  });
}
