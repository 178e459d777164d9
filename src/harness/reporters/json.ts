/**
 * JSON reporter: the summary without the bulky observed events, stable for machines; each
 * fixture's per-turn latency reports (`timings`) included.
 */
import { checkSummary, type RunSummary } from '../fixture-result.js';

/** Renders the run as one JSON document. */
export function jsonReport(summary: RunSummary): string {
  checkSummary('jsonReport', summary);
  const doc = {
    passed: summary.passed,
    failed: summary.failed,
    errors: summary.errors,
    durationMs: Math.round(summary.durationMs),
    results: summary.results.map((r) => ({
      file: r.file,
      name: r.name,
      status: r.status,
      durationMs: Math.round(r.durationMs),
      failures: r.failures,
      issues: r.issues,
      timings: r.turns.map((t) => t.timings),
    })),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}
