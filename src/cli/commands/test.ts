/**
 * `switchboard test [paths…]`: runs conversation fixtures and reports. Exit 0 all passed, 1 any
 * failed, 2 unusable input (a bad fixture or tools file, a missing path, no fixture found).
 */
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { exitCodeOf } from '../../harness/fixture-result.js';
import { isReporterName, report, REPORTERS } from '../../harness/reporters/index.js';
import { runFixtures } from '../../harness/run-fixtures.js';
import { EXIT, UsageError, useColor, type CliIO } from '../io.js';

/** Folder searched when no path is given. */
export const DEFAULT_FIXTURE_PATH = 'fixtures/conversations';

export const testHelp = `Usage: switchboard test [paths…] [options]

Runs conversation fixtures (YAML or JSON). Paths are files or folders (searched recursively;
in folders, files with a top-level "turns" key are fixtures). Default: ${DEFAULT_FIXTURE_PATH}

Options:
  --reporter <name>  ${REPORTERS.join(' | ')} (default human)
  --realtime         run each fixture through the Realtime transport: a loopback Realtime
                     server whose model is the fixture's script, over a WebSocket
  -h, --help         show this help

Exit codes: 0 all passed, 1 any failed, 2 unusable input (bad fixture, missing path).
`;

/** Runs the command; returns the exit code. */
export async function testCommand(argv: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      reporter: { type: 'string', default: 'human' },
      realtime: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help === true) {
    io.stdout.write(testHelp);
    return EXIT.ok;
  }
  const reporter = values.reporter ?? 'human';
  if (!isReporterName(reporter))
    throw new UsageError(
      `unknown reporter ${JSON.stringify(reporter)} (use ${REPORTERS.join(', ')})`,
    );
  if (positionals.length === 0 && !existsSync(DEFAULT_FIXTURE_PATH)) {
    io.stderr.write(
      `switchboard test: no fixture named, and no ${DEFAULT_FIXTURE_PATH} folder (the default) here; name fixture files or folders: switchboard test my-bot.yaml\n`,
    );
    return EXIT.unusable;
  }
  const paths = positionals.length > 0 ? positionals : [DEFAULT_FIXTURE_PATH];
  const summary = await runFixtures({
    paths,
    ...(values.realtime === true ? { transport: 'realtime' as const } : {}),
  });
  if (summary.results.length === 0) {
    io.stderr.write(`switchboard test: no fixtures found in ${paths.join(', ')}\n`);
    return EXIT.unusable;
  }
  io.stdout.write(report(summary, { reporter, color: reporter === 'human' && useColor(io) }));
  return exitCodeOf(summary);
}
