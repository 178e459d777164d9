/**
 * Every vendor example survives import → export → import: each difference between the two
 * switchboard definitions is named by an export warning (docs/import.md "Round trips"). With
 * PROBE_REPORT=1 the counts and every difference are printed.
 */
import { describe, expect, it } from 'vitest';
import { PLATFORMS } from '../../src/import/types.js';
import { probe, vendorFiles, type ProbeResult } from './round-trip-probe.js';

describe('round-trip probe over fixtures/import', () => {
  it('leaves no difference unwarned', async () => {
    const results: ProbeResult[] = [];
    for (const p of PLATFORMS)
      for (const file of vendorFiles(p)) results.push(await probe(p, file));
    if (process.env['PROBE_REPORT'] === '1') report(results);
    const silent = results.flatMap((r) =>
      r.differences
        .filter((d) => d.warning === undefined)
        .map(
          (d) =>
            `${r.file}: ${d.tool}: ${d.field}: ${JSON.stringify(d.first)} → ${JSON.stringify(d.again)}`,
        ),
    );
    expect(silent).toEqual([]);
    expect(results.length).toBeGreaterThan(40);
  });
});

function report(results: readonly ProbeResult[]): void {
  const count = (v: ProbeResult['verdict']) => results.filter((r) => r.verdict === v).length;
  const lines = [
    `files ${results.length}: identical ${count('identical')}, differing with warning ${count('warned')}, differing silently ${count('silent')}`,
  ];
  for (const r of results)
    for (const d of r.differences)
      lines.push(
        `${d.warning === undefined ? 'SILENT' : 'warned'} ${r.file}: ${d.tool}: ${d.field}: ${JSON.stringify(d.first)} → ${JSON.stringify(d.again)}${d.warning !== undefined ? ` [${d.warning.slice(0, 90)}]` : ''}`,
      );
  console.log(lines.join('\n'));
}
