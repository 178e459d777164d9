/**
 * The conversation fixtures run over the Realtime transport too (`switchboard test --realtime`):
 * a loopback Realtime server whose brain is each fixture's script, a WebSocket, attachRealtime.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resultProblemLines } from '../../src/harness/reporters/format-failure.js';
import { runFixture } from '../../src/harness/run-fixture.js';

const fixtures = readdirSync('fixtures/conversations').filter((f) => /\.(ya?ml|json)$/.test(f));

describe('fixtures/conversations over Realtime', () => {
  for (const file of fixtures) {
    it(`passes: ${file}`, async () => {
      const result = await runFixture(join('fixtures/conversations', file), {
        transport: 'realtime',
      });
      expect(resultProblemLines(result)).toEqual([]);
      expect(result.status).toBe('passed');
    });
  }
});

describe('fixtures/failing over Realtime fail for the same reasons', () => {
  const cases: [string, string][] = [
    ['wrong-argument.yaml', 'expectation'],
    ['unused-step.yaml', 'unused_steps'],
    ['model-overcalled.yaml', 'model_overcalled'],
    ['undeclared-request.yaml', 'undeclared_request'],
    ['unused-exchange.yaml', 'unused_exchange'],
  ];
  for (const [file, kind] of cases) {
    it(`${file} fails with ${kind}`, async () => {
      const result = await runFixture(join('fixtures/failing', file), { transport: 'realtime' });
      expect(result.status).toBe('failed');
      expect(result.failures.map((f) => f.kind)).toContain(kind);
    });
  }
});
