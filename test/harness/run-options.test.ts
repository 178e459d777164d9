// runFixtures and runFixture check their options when called: a mistake in calling the harness
// is a TypeError naming the option, not a result and not a silent default.
import { describe, expect, it } from 'vitest';
import { runFixture, runFixtures, type RunFixturesOptions } from '../../src/testing.js';

type Loose = Record<string, unknown>;
const fixtures = (options: Loose) => runFixtures(options as unknown as RunFixturesOptions);

describe('runFixtures / runFixture options', () => {
  it.each<[string, Loose, string]>([
    [
      'paths as one string (was read letter by letter)',
      { paths: 'fixtures' },
      'runFixtures: paths: expected an array, got a string',
    ],
    [
      'a misspelt transport (ran as text)',
      { paths: [], transport: 'realtme' },
      'runFixtures: transport: expected "text" or "realtime", got a string (did you mean `realtime`?)',
    ],
    [
      'an onResult and an observer hook that are not functions',
      { paths: [], onResult: 'print', observer: { turnEnd: 1 } },
      'runFixtures: onResult: expected a function, got a string; observer.turnEnd: expected a function, got a number',
    ],
    ['no paths', {}, 'runFixtures: paths: is required'],
  ])('runFixtures refuses %s', async (_name, options, message) => {
    await expect(fixtures(options)).rejects.toThrow(new TypeError(message));
  });

  it('runFixture refuses a wrong transport and dir before loading', async () => {
    await expect(
      runFixture({}, { transport: 'http', dir: 3 } as unknown as Parameters<typeof runFixture>[1]),
    ).rejects.toThrow(
      new TypeError(
        'runFixture: transport: expected "text" or "realtime", got a string; dir: expected a non-empty string, got a number',
      ),
    );
  });

  it('correct options still run (a missing path is a result, not a throw)', async () => {
    const summary = await runFixtures({ paths: ['no/such/dir'], transport: 'text' });
    expect(summary.results.map((r) => r.status)).toEqual(['error']);
  });
});
