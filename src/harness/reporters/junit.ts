/**
 * JUnit XML reporter (one `testsuite`, one `testcase` per fixture). Text is escaped for XML and
 * characters XML 1.0 cannot carry at all (most control characters, lone surrogates) are replaced,
 * so the document is well-formed whatever a model or a fixture wrote.
 */
import { argumentError } from '../../option-checks.js';
import { checkSummary, type RunSummary } from '../fixture-result.js';
import { resultProblemLines } from './format-failure.js';

/** Escapes text for XML content and attribute values. */
export function escapeXml(text: string): string {
  if (typeof text !== 'string') throw argumentError('escapeXml(text)', 'a string', text);
  return text
    .replace(/[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

function secs(ms: number): string {
  return (ms / 1000).toFixed(3);
}

/** Options of {@link junitReport}. */
export interface JunitReportOptions {
  /** Suite name. Default `switchboard fixtures`. */
  readonly suiteName?: string;
}

/** Renders the run as JUnit XML. */
export function junitReport(summary: RunSummary, options: JunitReportOptions = {}): string {
  checkSummary('junitReport', summary);
  const name = escapeXml(options.suiteName ?? 'switchboard fixtures');
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${name}" tests="${summary.results.length}" failures="${summary.failed}" errors="${summary.errors}" time="${secs(summary.durationMs)}">`,
    `  <testsuite name="${name}" tests="${summary.results.length}" failures="${summary.failed}" errors="${summary.errors}" skipped="0" time="${secs(summary.durationMs)}">`,
  ];
  for (const r of summary.results) {
    const open = `    <testcase name="${escapeXml(r.name)}" classname="${escapeXml(r.file)}" time="${secs(r.durationMs)}"`;
    if (r.status === 'passed') {
      lines.push(`${open}/>`);
      continue;
    }
    const problems = resultProblemLines(r);
    const tag = r.status === 'failed' ? 'failure' : 'error';
    const message = problems[0] ?? r.status;
    lines.push(`${open}>`);
    lines.push(
      `      <${tag} message="${escapeXml(message)}" type="${r.status === 'failed' ? 'FixtureFailure' : 'UnusableFixture'}">${escapeXml(problems.join('\n'))}</${tag}>`,
    );
    lines.push('    </testcase>');
  }
  lines.push('  </testsuite>', '</testsuites>');
  return `${lines.join('\n')}\n`;
}
