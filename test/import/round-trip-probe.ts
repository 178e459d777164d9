/**
 * The round-trip probe: imports a vendor file with its platform, exports the result to the same
 * platform, imports that again, and lists every difference between the two switchboard
 * definitions (tools, parameters, endpoint method/url/placement, static values, defaults rules,
 * options and speech), each marked warned when an export warning names the field that differs.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { joinPath } from '../../src/definition/json-path.js';
import { loadTools } from '../../src/definition/load.js';
import { exportTools } from '../../src/import/export-tools.js';
import { importTools } from '../../src/import/import-tools.js';
import type { ConversionWarning, Platform, ToolDefinitionJson } from '../../src/import/types.js';

/** One field that differs between the first import and the import of the export. */
export interface Difference {
  /** The tool's name, and the field inside its definition (`endpoint.url`, `defaults.q`). */
  readonly tool: string;
  readonly field: string;
  readonly first: unknown;
  readonly again: unknown;
  /** The export warning naming the field, when there is one. */
  readonly warning?: string;
}

/** The outcome for one vendor file. */
export interface ProbeResult {
  readonly file: string;
  readonly differences: readonly Difference[];
  readonly verdict: 'identical' | 'warned' | 'silent';
}

/** Every vendor example of a platform (`fixtures/import/<platform>/*.json`). */
export function vendorFiles(p: Platform): string[] {
  return readdirSync(join('fixtures/import', p))
    .filter((f) => f.endsWith('.json'))
    .map((f) => join('fixtures/import', p, f));
}

/** Runs the round trip of one vendor file and compares the two imports. */
export async function probe(p: Platform, file: string): Promise<ProbeResult> {
  return probeDocument(p, JSON.parse(readFileSync(file, 'utf8')), file);
}

/** {@link probe} of a parsed vendor document (`file` names it in the result). */
export async function probeDocument(p: Platform, doc: unknown, file: string): Promise<ProbeResult> {
  const first = importTools(doc, { from: p, file });
  const exported = exportTools(await loadTools({ tools: first.tools }), { to: p });
  const again = importTools(JSON.parse(JSON.stringify(exported.tools)), { from: p });
  await loadTools({ tools: again.tools });
  const differences = compare(first.tools, again.tools, exported.warnings);
  const verdict =
    differences.length === 0
      ? 'identical'
      : differences.every((d) => d.warning !== undefined)
        ? 'warned'
        : 'silent';
  return { file, differences, verdict };
}

function compare(
  first: readonly ToolDefinitionJson[],
  again: readonly ToolDefinitionJson[],
  warnings: readonly ConversionWarning[],
): Difference[] {
  const out: Difference[] = [];
  const byName = new Map(again.map((t) => [t.tool.function.name, t]));
  first.forEach((tool, index) => {
    const name = tool.tool.function.name;
    const other = byName.get(name);
    byName.delete(name);
    // Export warnings name fields of the tools file the export read: `tools[<index>].<field>`.
    const mine = warnings.filter((w) => w.path.startsWith(`tools[${index}]`));
    const named = (field: string): string | undefined =>
      mine.find((w) => related(w.field, field))?.message;
    if (other === undefined) {
      // A tool the export left out is named by the warning that says so, at any of its fields.
      const left = mine.find((w) => /not exported/.test(w.message))?.message;
      out.push({ tool: name, field: '', first: 'present', again: 'absent', ...warned(left) });
      return;
    }
    for (const [field, a, b] of leaves(normalise(tool), normalise(other), ''))
      out.push({ tool: name, field, first: a, again: b, ...warned(named(field)) });
  });
  for (const name of byName.keys())
    out.push({ tool: name, field: '', first: 'absent', again: 'present' });
  return out;
}

const warned = (message: string | undefined) => (message === undefined ? {} : { warning: message });

/** True when one field path is the other or contains it (`options` and `options.background`). */
function related(a: string, b: string): boolean {
  const under = (x: string, y: string) => x === y || y.startsWith(`${x}.`) || y.startsWith(`${x}[`);
  return under(a, b) || under(b, a);
}

/**
 * A timeout equal to switchboard's default (20 s) is left out by every exporter: the same
 * behaviour, so it is not a difference.
 */
function normalise(t: ToolDefinitionJson): ToolDefinitionJson {
  if (t.endpoint?.timeout !== 20) return t;
  const { timeout: _default, ...endpoint } = t.endpoint;
  return { ...t, endpoint };
}

/** The leaf paths where two JSON values differ (objects walked by key, lists compared whole). */
function leaves(a: unknown, b: unknown, at: string): [string, unknown, unknown][] {
  if (isDeepStrictEqual(a, b)) return [];
  if (isObject(a) && isObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].flatMap((k) => leaves(a[k], b[k], joinPath(at, k)));
  }
  return [[at, a, b]];
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
