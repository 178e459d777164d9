/**
 * `switchboard simulate <fixture>`: replays a fixture as a narrated transcript. Exit 0 when it
 * passes, 1 when it fails, 2 when the fixture is unusable.
 */
import { parseArgs } from 'node:util';
import { formatIssue } from '../../errors.js';
import { createNarrator } from '../../harness/narrator.js';
import { runFixture } from '../../harness/run-fixture.js';
import { EXIT, UsageError, useColor, type CliIO } from '../io.js';

export const simulateHelp = `Usage: switchboard simulate <fixture> [options]

Replays a conversation fixture as a narrated transcript: the caller, the model, each tool call
with its arguments before and after transforms, the HTTP exchange, spoken lines and language
changes. Nothing leaves the machine.

Options:
  --realtime   narrate the fixture run through the Realtime transport (a loopback Realtime
               server speaking OpenAI's event shapes, with the fixture's script as its model)
  --timings    print each turn's latency report (model time to first token and tool call,
               each tool's duration and queueing, phrases spoken, total)
  --no-color   plain output (also NO_COLOR=1, or when stdout is not a terminal)
  -h, --help   show this help

Exit codes: 0 the fixture passed, 1 it failed, 2 it is unusable.
`;

/** Runs the command; returns the exit code. */
export async function simulateCommand(argv: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      'no-color': { type: 'boolean' },
      timings: { type: 'boolean' },
      realtime: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help === true) {
    io.stdout.write(simulateHelp);
    return EXIT.ok;
  }
  if (positionals.length !== 1) throw new UsageError('name exactly one fixture file');
  const file = positionals[0] as string;
  const color = values['no-color'] !== true && useColor(io);
  const narrator = createNarrator({
    write: (line) => io.stdout.write(`${line}\n`),
    color,
    timings: values.timings === true,
  });
  if (values.realtime === true)
    io.stdout.write(
      'transport: Realtime (a loopback server speaking OpenAI Realtime events; the script is its model)\n',
    );
  const result = await runFixture(file, {
    observer: narrator,
    ...(values.realtime === true ? { transport: 'realtime' as const } : {}),
  });
  if (result.status === 'error') {
    io.stderr.write(`switchboard simulate: ${file} is unusable:\n`);
    for (const i of result.issues.filter((x) => x.severity === 'error'))
      io.stderr.write(`  ${formatIssue(i)}\n`);
    return EXIT.unusable;
  }
  io.stdout.write(
    `\n${result.status === 'passed' ? '✓ passed' : `✗ failed (${result.failures.length} problem(s))`}\n`,
  );
  if (result.status === 'failed') {
    for (const f of result.failures.filter((x) => x.turn === undefined))
      io.stdout.write(`  ✗ ${f.message}\n`);
  }
  return result.status === 'passed' ? EXIT.ok : EXIT.failed;
}
