/**
 * The public API report (api/*.api.md, written by API Extractor) matches the built declarations:
 * a change to what an entry exports, or to a public signature, fails here until the report is
 * updated with `npm run api -- --update` and committed, so it shows in review.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

describe('the public API report', () => {
  it('api/ matches every entry of the built package', () => {
    const run = spawnSync(process.execPath, ['scripts/api-report.mjs'], { encoding: 'utf8' });
    expect(run.stderr + run.stdout).not.toMatch(/changed|error/i);
    expect(run.status).toBe(0);
  });
});
