/**
 * Reporters by name: pure functions from a run summary to text.
 */
import type { RunSummary } from '../fixture-result.js';
import { humanReport } from './human.js';
import { jsonReport } from './json.js';
import { junitReport } from './junit.js';
import { tapReport } from './tap.js';

/** Names accepted by `--reporter`. */
export const REPORTERS = ['human', 'junit', 'tap', 'json'] as const;
export type ReporterName = (typeof REPORTERS)[number];

/** True for a known reporter name. */
export function isReporterName(name: string): name is ReporterName {
  return (REPORTERS as readonly string[]).includes(name);
}

/** Options of {@link report}. */
export interface ReportOptions {
  readonly reporter: ReporterName;
  /** Colours for the human reporter. Default false. */
  readonly color?: boolean;
}

/** Renders a summary with the named reporter. */
export function report(summary: RunSummary, options: ReportOptions): string {
  switch (options.reporter) {
    case 'human':
      return humanReport(summary, { color: options.color === true });
    case 'junit':
      return junitReport(summary);
    case 'tap':
      return tapReport(summary);
    case 'json':
      return jsonReport(summary);
    default: {
      const _exhaustive: never = options.reporter;
      return _exhaustive;
    }
  }
}
