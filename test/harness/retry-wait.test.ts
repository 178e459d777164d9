import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runFixture } from '../../src/harness/run-fixture.js';
import { resultProblemLines } from '../../src/harness/reporters/format-failure.js';

// A fixture does not wait out a retry's backoff or `Retry-After`: the attempts and their records
// are a real run's, the wait is skipped. (A run that waited would take at least the 3 s asked for,
// so the bound below fails deterministically if the wait comes back.)
describe('fixtures skip retry waits', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sb-retry-wait-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('retries a 503 with Retry-After: 3 at once, and the turn passes', async () => {
    const file = join(dir, 'retry-after.yaml');
    writeFileSync(
      file,
      [
        'name: a 503 asking for 3 s is retried without waiting',
        `tools: ${JSON.stringify(resolve('fixtures/tools/weather.yaml'))}`,
        'session: { services: { weather: {} } }',
        'http:',
        '  - request: { method: GET, url: "https://api.weather.test/v1/forecast" }',
        '    response: { status: 503, headers: { retry-after: "3" }, text: busy }',
        '  - request: { method: GET, url: "https://api.weather.test/v1/forecast" }',
        '    response: { json: { current: { summary: Rain } } }',
        'turns:',
        '  - user: "Weather in Oslo?"',
        '    model:',
        '      - tool_calls: [ { name: get_weather, args: { city: Oslo } } ]',
        '      - text: "Rain in Oslo."',
        '    expect:',
        '      tool_errors: []',
        '      reply: "Rain in Oslo."',
        '',
      ].join('\n'),
    );
    const result = await runFixture(file);
    expect(resultProblemLines(result)).toEqual([]);
    expect(result.status).toBe('passed');
    // Both attempts were made (the 503, then the answer).
    expect(result.turns[0]?.requests).toHaveLength(2);
    expect(result.durationMs).toBeLessThan(3000);
  });
});
