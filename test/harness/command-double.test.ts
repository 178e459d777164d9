/**
 * The command double (docs/harness.md, "Command double") and the REPL's run recorder: runs are
 * matched by argv, answered as declared, recorded; a recorded session becomes `commands:`.
 */
import { describe, expect, it } from 'vitest';
import { createCommandDouble } from '../../src/harness/command-double.js';
import { commandExchangeSchema, type CommandExchange } from '../../src/harness/fixture-schema.js';
import { commandsSection, createRecordingRunner } from '../../src/harness/recording-runner.js';
import type { CommandInvocation } from '../../src/handlers/command/command-config.js';

const exchange = (value: unknown): CommandExchange => commandExchangeSchema.parse(value);
const inv = (argv: string[], over: Partial<CommandInvocation> = {}): CommandInvocation => ({
  command: 'synapse',
  path: '/never/run',
  argv,
  env: {},
  timeoutMs: 60_000,
  maxStdoutBytes: 1024,
  maxStderrBytes: 1024,
  signal: new AbortController().signal,
  ...over,
});

describe('createCommandDouble', () => {
  it('answers the first unused run whose argv is equal, and records every run', async () => {
    const double = createCommandDouble({
      commands: new Map([
        [
          'synapse',
          [
            exchange({ argv: ['a'], response: { json: { n: 1 } } }),
            exchange({ response: { stdout: 'any', stderr: 'warn', exit_code: 3 } }),
          ],
        ],
      ]),
    });
    expect(await double.runner.run(inv(['a']))).toEqual({
      kind: 'exited',
      exitCode: 0,
      signal: null,
      stdout: '{"n":1}',
      stderr: '',
    });
    expect(await double.runner.run(inv(['a']))).toMatchObject({ exitCode: 3, stdout: 'any' });
    expect(await double.runner.run(inv(['b']))).toMatchObject({ kind: 'spawn_failed' });
    expect(double.runs).toEqual([
      { command: 'synapse', argv: ['a'], exchange: 0 },
      { command: 'synapse', argv: ['a'], exchange: 1 },
      { command: 'synapse', argv: ['b'] },
    ]);
    expect(double.unusedCommands()).toEqual([]);
    expect(Object.keys(double.commands)).toEqual(['synapse']);
  });

  it('a declared argv matches only the same argv: not one with more or fewer arguments', async () => {
    const double = createCommandDouble({
      commands: new Map([
        ['synapse', [exchange({ argv: ['a', 'b'], response: { stdout: 'ok' } })]],
      ]),
    });
    expect(await double.runner.run(inv(['a', 'b', 'c']))).toMatchObject({ kind: 'spawn_failed' });
    expect(await double.runner.run(inv(['a']))).toMatchObject({ kind: 'spawn_failed' });
    expect(double.unusedCommands()).toEqual([{ command: 'synapse', index: 0, remaining: 1 }]);
    expect(await double.runner.run(inv(['a', 'b']))).toMatchObject({ stdout: 'ok' });
  });

  it('times out past the deadline, stops on cancel, and applies the stdout cap', async () => {
    const double = createCommandDouble({
      commands: new Map([
        [
          'synapse',
          [
            exchange({ response: { delay_ms: 60_000 }, times: 2 }),
            exchange({ response: { stdout: 'x'.repeat(2000) } }),
          ],
        ],
      ]),
    });
    expect(await double.runner.run(inv([], { timeoutMs: 1 }))).toEqual({ kind: 'timeout' });
    const controller = new AbortController();
    const running = double.runner.run(inv([], { signal: controller.signal }));
    controller.abort();
    expect(await running).toEqual({ kind: 'cancelled' });
    expect(await double.runner.run(inv([]))).toEqual({ kind: 'stdout_too_large', limit: 1024 });
  });

  it('refuses json and stdout together in one response', () => {
    expect(() => exchange({ response: { json: {}, stdout: 'x' } })).toThrow(
      /either json or stdout/,
    );
  });
});

describe('createRecordingRunner and commandsSection', () => {
  it('records argv after the host args, scrubbed, and writes runs a double replays', async () => {
    const recorder = createRecordingRunner({
      commands: { synapse: { path: '/bin/node', args: ['/srv/synapse.js'] } },
      scrub: (t) => t.replace('s3cret', '[redacted]'),
      runner: {
        run: (i) =>
          Promise.resolve(
            i.argv.includes('bad')
              ? { kind: 'exited', exitCode: 2, signal: null, stdout: '', stderr: 'no s3cret\n' }
              : { kind: 'exited', exitCode: 0, signal: null, stdout: '{"ok":true}', stderr: '' },
          ),
      },
    });
    await recorder.runner.run(inv(['/srv/synapse.js', 'memory', '--key=s3cret']));
    await recorder.runner.run(inv(['/srv/synapse.js', 'bad']));
    await recorder.runner.run(inv(['/srv/synapse.js', 'slow']));
    const section = commandsSection([
      ...recorder.runs,
      { command: 'synapse', argv: ['slow'], exit: { kind: 'timeout' }, timeoutMs: 5000 },
      { command: 'synapse', argv: ['gone'], exit: { kind: 'cancelled' }, timeoutMs: 5000 },
    ]);
    expect(section).toEqual({
      synapse: [
        { argv: ['memory', '--key=[redacted]'], response: { exit_code: 0, json: { ok: true } } },
        { argv: ['bad'], response: { exit_code: 2, stderr: 'no [redacted]\n' } },
        { argv: ['slow'], response: { exit_code: 0, json: { ok: true } } },
        { argv: ['slow'], response: { delay_ms: 6000 } },
      ],
    });
    // What was written parses as the fixture format.
    for (const run of section['synapse'] ?? []) expect(() => exchange(run)).not.toThrow();
  });
});
