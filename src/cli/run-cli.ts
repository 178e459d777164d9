/**
 * The command dispatcher behind the `switchboard` binary: picks the command, turns usage
 * mistakes into exit code 2 with a hint, and never lets an exception escape as a stack trace.
 */
import { readFileSync } from 'node:fs';
import { exportCommand, exportHelp } from './commands/export.js';
import { importCommand, importHelp } from './commands/import.js';
import { replCommand, replHelp } from './commands/repl.js';
import { serveCommand, serveHelp } from './commands/serve.js';
import { simulateCommand, simulateHelp } from './commands/simulate.js';
import { testCommand, testHelp } from './commands/test.js';
import { transformCommand, transformHelp } from './commands/transform.js';
import { validateCommand, validateHelp } from './commands/validate.js';
import { closestName } from '../did-you-mean.js';
import { EXIT, UsageError, type CliIO } from './io.js';
import { explainParseArgsError } from './option-errors.js';

type Command = (argv: readonly string[], io: CliIO) => Promise<number>;

const COMMANDS = new Map<string, { run: Command; help: string; summary: string }>([
  ['test', { run: testCommand, help: testHelp, summary: 'run conversation fixtures' }],
  [
    'validate',
    { run: validateCommand, help: validateHelp, summary: 'check tool definition files' },
  ],
  [
    'transform',
    { run: transformCommand, help: transformHelp, summary: "print a call's final arguments" },
  ],
  [
    'simulate',
    {
      run: simulateCommand,
      help: simulateHelp,
      summary: 'replay a fixture as a narrated transcript',
    },
  ],
  ['repl', { run: replCommand, help: replHelp, summary: 'talk to your tools interactively' }],
  [
    'serve',
    { run: serveCommand, help: serveHelp, summary: 'serve the tools as an agent over HTTP' },
  ],
  [
    'import',
    {
      run: importCommand,
      help: importHelp,
      summary: 'convert Vapi/ElevenLabs/Retell/Ultravox tools',
    },
  ],
  [
    'export',
    {
      run: exportCommand,
      help: exportHelp,
      summary: 'write tools for Vapi/ElevenLabs/Retell/Ultravox',
    },
  ],
]);

/** The version in package.json. */
export function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version?: string;
  };
  return pkg.version ?? '0.0.0';
}

/** Top-level help. */
export function mainHelp(): string {
  const lines = [...COMMANDS].map(([name, c]) => `  ${name.padEnd(10)} ${c.summary}`);
  return `Usage: switchboard <command> [options]

Commands:
${lines.join('\n')}

Options:
  -h, --help     show help (also: switchboard <command> --help)
  -v, --version  print the version
`;
}

/** Runs the CLI with the given arguments (without `node` and the script); returns the exit code. */
export async function runCli(argv: readonly string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '-h' || name === '--help' || name === 'help') {
    io.stdout.write(mainHelp());
    return name === undefined ? EXIT.unusable : EXIT.ok;
  }
  if (name === '-v' || name === '--version') {
    io.stdout.write(`${version()}\n`);
    return EXIT.ok;
  }
  const command = COMMANDS.get(name);
  if (command === undefined) {
    const near = closestName({ name, candidates: COMMANDS.keys() });
    const hint = near !== undefined ? `; did you mean ${near}?` : '';
    io.stderr.write(`switchboard: unknown command ${JSON.stringify(name)}${hint}\n\n${mainHelp()}`);
    return EXIT.unusable;
  }
  try {
    return await command.run(rest, io);
  } catch (thrown) {
    const error = explainParseArgsError(thrown, command.help);
    if (error instanceof UsageError) {
      io.stderr.write(`switchboard ${name}: ${error.message}\n\n${command.help}`);
      return EXIT.unusable;
    }
    io.stderr.write(
      `switchboard ${name}: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    return EXIT.unusable;
  }
}
