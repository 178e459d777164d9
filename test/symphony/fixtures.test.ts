// Every example under fixtures/symphony/ runs with scripted models and matches its `expect`.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readExample, runExample } from './run-fixture.js';

const DIR = join(__dirname, '../../fixtures/symphony');
const files = readdirSync(DIR).filter((f) => f.endsWith('.yaml'));

describe('fixtures/symphony', () => {
  it('has the examples the docs list', () => {
    expect(files.length).toBeGreaterThanOrEqual(1);
  });
  for (const file of files) {
    it(file, async () => {
      const example = readExample(join(DIR, file));
      const run = await runExample(example);
      expect(run.result).toMatchObject(example.expect);
      if (example.expectDelays !== undefined) expect(run.delays).toEqual(example.expectDelays);
      if (example.expectWarnings !== undefined)
        expect(run.warnings.map((w) => `${w.path}: ${w.code}`)).toEqual(example.expectWarnings);
    });
  }
});
