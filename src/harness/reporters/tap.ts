/**
 * TAP version 13 reporter: `ok` / `not ok` per fixture with a YAML diagnostic block of the
 * problems. Descriptions are kept on one line and `#` is escaped (it starts a TAP directive).
 */
import { checkSummary, type RunSummary } from '../fixture-result.js';
import { resultProblemLines } from './format-failure.js';

function description(text: string): string {
  return text
    .replace(/[\r\n]+/g, ' ')
    .replace(/\\/g, '\\\\')
    .replace(/#/g, '\\#');
}

/** Renders the run as TAP 13. */
export function tapReport(summary: RunSummary): string {
  checkSummary('tapReport', summary);
  const lines = ['TAP version 13', `1..${summary.results.length}`];
  summary.results.forEach((r, i) => {
    const ok = r.status === 'passed';
    lines.push(`${ok ? 'ok' : 'not ok'} ${i + 1} - ${description(r.name)}`);
    if (ok) return;
    lines.push('  ---');
    lines.push(`  file: ${JSON.stringify(r.file)}`);
    lines.push(`  status: ${r.status}`);
    lines.push('  problems:');
    for (const p of resultProblemLines(r)) lines.push(`    - ${JSON.stringify(p)}`);
    lines.push('  ...');
  });
  lines.push(`# pass ${summary.passed}`, `# fail ${summary.failed + summary.errors}`);
  return `${lines.join('\n')}\n`;
}
