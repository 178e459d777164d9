/**
 * Every vendor example survives import → export → import: each difference between the two
 * switchboard definitions is named by an export warning (docs/import.md "Round trips"), for the
 * examples as published and with each HTTP tool's method switched to GET, POST, PUT and DELETE
 * (where a platform places arguments by method) and a query added to its URL. With PROBE_REPORT=1 the counts and every
 * difference are printed.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PLATFORMS, type Platform } from '../../src/import/types.js';
import { probe, probeDocument, vendorFiles, type ProbeResult } from './round-trip-probe.js';

describe('round-trip probe over fixtures/import', () => {
  it('leaves no difference unwarned', async () => {
    const results: ProbeResult[] = [];
    for (const p of PLATFORMS)
      for (const file of vendorFiles(p)) results.push(await probe(p, file));
    if (process.env['PROBE_REPORT'] === '1') report(results);
    expect(silent(results)).toEqual([]);
    expect(results.length).toBeGreaterThan(40);
  });

  it('leaves no difference unwarned with each HTTP tool sent by another method, with a query', async () => {
    const results: ProbeResult[] = [];
    for (const p of PLATFORMS)
      for (const file of vendorFiles(p))
        for (const method of ['GET', 'POST', 'PUT', 'DELETE']) {
          const doc = withMethod(p, JSON.parse(readFileSync(file, 'utf8')), method);
          if (doc !== undefined) results.push(await probeDocument(p, doc, `${file} as ${method}`));
        }
    if (process.env['PROBE_REPORT'] === '1') report(results);
    expect(silent(results)).toEqual([]);
    expect(results.length).toBeGreaterThan(80);
  });
});

/**
 * `doc` with the method of each of the platform's HTTP tools set and a query added to its URL (a
 * literal pair, a name given twice and, where the platform fills them, a variable), or undefined
 * when it has no HTTP tool.
 */
function withMethod(p: Platform, doc: unknown, method: string): unknown {
  const liquid = p === 'vapi' || p === 'retell';
  const query = `lit=a%20b&k=2&k=3${liquid ? '&v={{some_var}}' : ''}`;
  const withQuery = (url: unknown) =>
    typeof url === 'string' ? `${url}${url.includes('?') ? '&' : '?'}${query}` : url;
  let touched = false;
  const visit = (x: unknown): void => {
    if (Array.isArray(x)) x.forEach(visit);
    else if (typeof x === 'object' && x !== null) {
      const o = x as Record<string, unknown>;
      const http =
        (p === 'vapi' && o['type'] === 'apiRequest') ||
        (p === 'retell' && o['type'] === 'custom' && typeof o['url'] === 'string') ||
        (p === 'elevenlabs' && typeof o['url'] === 'string' && typeof o['method'] === 'string');
      if (http) {
        o['method'] = method;
        o['url'] = withQuery(o['url']);
      }
      if (p === 'ultravox' && typeof o['baseUrlPattern'] === 'string') {
        o['httpMethod'] = method;
        o['baseUrlPattern'] = withQuery(o['baseUrlPattern']);
      }
      touched ||= http || (p === 'ultravox' && typeof o['baseUrlPattern'] === 'string');
      Object.values(o).forEach(visit);
    }
  };
  visit(doc);
  return touched ? doc : undefined;
}

function silent(results: readonly ProbeResult[]): string[] {
  return results.flatMap((r) =>
    r.differences
      .filter((d) => d.warning === undefined)
      .map(
        (d) =>
          `${r.file}: ${d.tool}: ${d.field}: ${JSON.stringify(d.first)} → ${JSON.stringify(d.again)}`,
      ),
  );
}

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
