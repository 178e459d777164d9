/**
 * Renders failures as plain text lines shared by every reporter: the failure's message, then for
 * each mismatch the path, the reason, and expected vs actual on their own lines.
 */
import { formatIssue } from '../../errors.js';
import type { FixtureFailure, FixtureResult } from '../fixture-result.js';
import type { Mismatch } from '../match.js';

/** Longest rendering of one value before it is cut. */
const MAX_VALUE = 400;

/** Renders a value compactly for a diff line (JSON, cut at {@link MAX_VALUE} characters). */
export function showValue(value: unknown): string {
  if (value === undefined) return '(absent)';
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE)}…` : text;
}

/** One mismatch as lines. */
export function mismatchLines(m: Mismatch): string[] {
  const lines = [`${m.path}: ${m.reason}`];
  if (m.expected !== undefined || m.reason === 'unexpected key')
    lines.push(`  expected: ${showValue(m.expected)}`);
  if (m.actual !== undefined || m.reason === 'missing')
    lines.push(`  actual:   ${showValue(m.actual)}`);
  return lines;
}

/** One failure as lines (unindented). */
export function failureLines(f: FixtureFailure): string[] {
  const where = f.turn === undefined ? '' : `turn ${f.turn + 1}: `;
  const lines = [`${where}${f.message}`];
  for (const m of f.mismatches ?? []) lines.push(...mismatchLines(m).map((l) => `  ${l}`));
  return lines;
}

/** Everything wrong with a result, as lines: load errors, or failures. */
export function resultProblemLines(r: FixtureResult): string[] {
  if (r.status === 'error')
    return r.issues.filter((i) => i.severity === 'error').map((i) => formatIssue(i));
  return r.failures.flatMap(failureLines);
}
