import { describe, expect, it } from 'vitest';
import { summarize, exitCodeOf, type FixtureResult } from '../../src/harness/fixture-result.js';
import { junitReport, escapeXml } from '../../src/harness/reporters/junit.js';
import { tapReport } from '../../src/harness/reporters/tap.js';
import { jsonReport } from '../../src/harness/reporters/json.js';
import { humanReport } from '../../src/harness/reporters/human.js';
import { assertWellFormedXml } from './xml-check.js';

const nasty = 'a <b> & "c" \'d\' \u0000\u0007 \uD800 ]]> # x';
const results: FixtureResult[] = [
  {
    file: 'ok.yaml',
    name: 'ok',
    status: 'passed',
    durationMs: 3,
    failures: [],
    issues: [],
    turns: [],
  },
  {
    file: 'bad.yaml',
    name: nasty,
    status: 'failed',
    durationMs: 5,
    issues: [],
    turns: [],
    failures: [
      {
        kind: 'expectation',
        turn: 0,
        message: 'm',
        mismatches: [
          {
            path: 'turns[0].expect.reply',
            reason: 'different value',
            expected: nasty,
            actual: 'x',
          },
        ],
      },
    ],
  },
  {
    file: 'err.yaml',
    name: 'err.yaml',
    status: 'error',
    durationMs: 0,
    failures: [],
    turns: [],
    issues: [
      {
        code: 'fixture_schema',
        severity: 'error',
        path: 'turns',
        message: nasty,
        file: 'err.yaml',
      },
    ],
  },
];
const summary = summarize(results, 10);

describe('reporters', () => {
  it('exit code: 2 beats 1 beats 0', () => {
    expect(exitCodeOf(summary)).toBe(2);
    expect(exitCodeOf(summarize(results.slice(0, 2), 1))).toBe(1);
    expect(exitCodeOf(summarize(results.slice(0, 1), 1))).toBe(0);
  });
  it('JUnit XML is well-formed even with hostile text', () => {
    const xml = junitReport(summary);
    assertWellFormedXml(xml);
    expect(xml).toContain('<failure message="turn 1: m"');
    expect(xml).toContain('<error message=');
    expect(escapeXml('<&>')).toBe('&lt;&amp;&gt;');
    expect(xml).not.toContain('\u0000');
  });
  it('the XML checker rejects broken documents', () => {
    expect(() => assertWellFormedXml('<a><b></a>')).toThrow();
    expect(() => assertWellFormedXml('<a x="1&"/>')).toThrow();
  });
  it('TAP has a plan, one line per fixture and escaped directives', () => {
    const tap = tapReport(summary);
    const lines = tap.split('\n');
    expect(lines.slice(0, 3)).toEqual(['TAP version 13', '1..3', 'ok 1 - ok']);
    expect(tap).toMatch(/^not ok 2 - .*\\# x$/m);
    expect(tap).toMatch(/^not ok 3 - err\.yaml$/m);
  });
  it('JSON parses back with counts', () => {
    const doc = JSON.parse(jsonReport(summary)) as {
      passed: number;
      failed: number;
      errors: number;
      results: unknown[];
    };
    expect([doc.passed, doc.failed, doc.errors, doc.results.length]).toEqual([1, 1, 1, 3]);
  });
  it('human shows the mismatch path, expected and actual', () => {
    const text = humanReport(summary);
    expect(text).toContain('turns[0].expect.reply: different value');
    expect(text).toContain('actual:   "x"');
    expect(text).toContain('1 passed, 1 failed, 1 unusable');
    expect(text).not.toContain('\u001b[');
    expect(humanReport(summary, { color: true })).toContain('\u001b[');
  });
});
