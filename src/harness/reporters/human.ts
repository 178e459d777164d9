/**
 * The default reporter: one line per fixture, details of every failure, a summary line.
 * Colour is optional and decided by the caller (the CLI checks the TTY and NO_COLOR).
 */
import { checkSummary, type FixtureResult, type RunSummary } from '../fixture-result.js';
import { resultProblemLines } from './format-failure.js';

/** Options of {@link humanReport}. */
export interface HumanReportOptions {
  /** ANSI colours. Default false. */
  readonly color?: boolean;
}

const CODES = {
  green: [32, 39],
  red: [31, 39],
  yellow: [33, 39],
  dim: [2, 22],
  bold: [1, 22],
} as const;
type Style = keyof typeof CODES;

function paint(enabled: boolean): (style: Style, text: string) => string {
  return (style, text) =>
    enabled ? `\u001b[${CODES[style][0]}m${text}\u001b[${CODES[style][1]}m` : text;
}

/** One fixture's line (and its details when it did not pass). */
export function humanResult(r: FixtureResult, options: HumanReportOptions = {}): string {
  const c = paint(options.color === true);
  const ms = c('dim', `(${Math.round(r.durationMs)} ms)`);
  const mark =
    r.status === 'passed'
      ? c('green', '✓')
      : r.status === 'failed'
        ? c('red', '✗')
        : c('yellow', '!');
  const label = r.name === r.file ? r.file : `${r.name} ${c('dim', r.file)}`;
  const lines = [`${mark} ${label} ${ms}`];
  if (r.status === 'error') lines.push(`    ${c('yellow', 'unusable fixture:')}`);
  for (const line of resultProblemLines(r)) lines.push(`    ${line}`);
  return lines.join('\n');
}

/** The whole report. */
export function humanReport(summary: RunSummary, options: HumanReportOptions = {}): string {
  checkSummary('humanReport', summary);
  const c = paint(options.color === true);
  const parts = summary.results.map((r) => humanResult(r, options));
  const counts = [
    c('green', `${summary.passed} passed`),
    summary.failed > 0 ? c('red', `${summary.failed} failed`) : `${summary.failed} failed`,
    ...(summary.errors > 0 ? [c('yellow', `${summary.errors} unusable`)] : []),
  ];
  parts.push(
    '',
    `${c('bold', 'fixtures:')} ${counts.join(', ')} (${summary.results.length} total, ${Math.round(summary.durationMs)} ms)`,
  );
  return `${parts.join('\n')}\n`;
}
