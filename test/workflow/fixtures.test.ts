import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runFixture } from '../../src/harness/run-fixture.js';
import { resultProblemLines } from '../../src/harness/reporters/format-failure.js';

const DIR = 'fixtures/syllable/workflows';
const fixtures = readdirSync(DIR).filter((f) => f.endsWith('.yaml'));

describe('fixtures/syllable/workflows: the Step Workflows tutorial, played', () => {
  it('has a conversation for each of the seven examples', () => {
    const examples = new Set(fixtures.map((f) => f.slice(0, 4)));
    expect([...examples].sort()).toEqual(['ex01', 'ex02', 'ex03', 'ex04', 'ex05', 'ex06', 'ex07']);
  });
  for (const file of fixtures) {
    it(`passes: ${file}`, async () => {
      const result = await runFixture(join(DIR, file));
      expect(resultProblemLines(result)).toEqual([]);
      expect(result.status).toBe('passed');
    });
  }

  it('a workflow expectation that does not hold fails with its path', async () => {
    const result = await runFixture({
      name: 'wrong step',
      tools: [join(process.cwd(), DIR, 'ex03-multi-step.tools.json')],
      turns: [
        {
          user: 'Ada',
          model: [
            { tool_calls: [{ name: 'submit_contact_info', args: { user_name: 'Ada' } }] },
            { text: 'ok' },
          ],
          expect: { workflows: { 'contact-form': { step: 'COLLECT_TIME' } } },
        },
      ],
    });
    expect(result.status).toBe('failed');
    expect(resultProblemLines(result).join('\n')).toMatch(
      /turns\[0\]\.expect\.workflows\["contact-form"\]\.step: different value/,
    );
  });
});
