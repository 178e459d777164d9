/**
 * The command dispatcher behind the `switchboard` binary: picks the command, turns usage
 * mistakes into exit code 2 with a hint, and never lets an exception escape as a stack trace.
 */
import { closestName } from '../did-you-mean.js';
import { EXIT, UsageError, type CliIO } from './io.js';
import { explainParseArgsError, isParseArgsError, optionsInHelp } from './option-errors.js';
import { version } from './version.js';

type Command = (argv: readonly string[], io: CliIO) => Promise<number>;

/** A command's code and help text, loaded only when the command runs (a fast `--version`). */
interface LoadedCommand {
  readonly run: Command;
  readonly help: string;
}

const COMMANDS = new Map<string, { load: () => Promise<LoadedCommand>; summary: string }>([
  [
    'test',
    {
      load: async () => {
        const m = await import('./commands/test.js');
        return { run: m.testCommand, help: m.testHelp };
      },
      summary: 'run conversation fixtures',
    },
  ],
  [
    'validate',
    {
      load: async () => {
        const m = await import('./commands/validate.js');
        return { run: m.validateCommand, help: m.validateHelp };
      },
      summary: 'check tool definition files',
    },
  ],
  [
    'transform',
    {
      load: async () => {
        const m = await import('./commands/transform.js');
        return { run: m.transformCommand, help: m.transformHelp };
      },
      summary: "print a call's final arguments",
    },
  ],
  [
    'simulate',
    {
      load: async () => {
        const m = await import('./commands/simulate.js');
        return { run: m.simulateCommand, help: m.simulateHelp };
      },
      summary: 'replay a fixture as a narrated transcript',
    },
  ],
  [
    'repl',
    {
      load: async () => {
        const m = await import('./commands/repl.js');
        return { run: m.replCommand, help: m.replHelp };
      },
      summary: 'talk to your tools interactively',
    },
  ],
  [
    'serve',
    {
      load: async () => {
        const m = await import('./commands/serve.js');
        return { run: m.serveCommand, help: m.serveHelp };
      },
      summary: 'serve the tools as an agent over HTTP',
    },
  ],
  [
    'mcp',
    {
      load: async () => {
        const m = await import('./commands/mcp.js');
        return { run: m.mcpCommand, help: m.mcpHelp };
      },
      summary: 'serve the tools over MCP (stdio or HTTP)',
    },
  ],
  [
    'studio',
    {
      load: async () => {
        const m = await import('./commands/studio.js');
        return { run: m.studioCommand, help: m.studioHelp };
      },
      summary: 'a local web app: tools, conversation, timeline, fixtures',
    },
  ],
  [
    'import',
    {
      load: async () => {
        const m = await import('./commands/import.js');
        return { run: m.importCommand, help: m.importHelp };
      },
      summary: 'convert Vapi/ElevenLabs/Retell/Ultravox tools',
    },
  ],
  [
    'export',
    {
      load: async () => {
        const m = await import('./commands/export.js');
        return { run: m.exportCommand, help: m.exportHelp };
      },
      summary: 'write tools for Vapi/ElevenLabs/Retell/Ultravox',
    },
  ],
]);

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

/**
 * For an unknown option: the other commands whose help lists it, with how they write it. Their
 * code is loaded only on this error path.
 */
async function otherCommandsWith(thrown: unknown, current: string): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  if (!isParseArgsError(thrown) || thrown.code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return found;
  const named = /'(--[^'\s,]+)/.exec(thrown.message)?.[1];
  if (named === undefined) return found;
  for (const [name, command] of COMMANDS) {
    if (name === current) continue;
    const usage = optionsInHelp((await command.load()).help).get(named);
    if (usage !== undefined) found.set(name, usage);
  }
  return found;
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
  // `switchboard --verison` is a mistyped option, not a command named "--verison".
  if (name.startsWith('-')) {
    const options = [...optionsInHelp(mainHelp()).keys()].filter(
      (o) => o.startsWith('--') === name.startsWith('--'),
    );
    const near = closestName({ name, candidates: options });
    const hint =
      near !== undefined ? `; did you mean ${near}?` : `; the options are ${options.join(', ')}`;
    io.stderr.write(
      `switchboard: unknown option ${name}${hint} (a command's options go after it: switchboard <command> [options])\n\n${mainHelp()}`,
    );
    return EXIT.unusable;
  }
  const command = COMMANDS.get(name);
  if (command === undefined) {
    const near = closestName({ name, candidates: COMMANDS.keys() });
    const hint = near !== undefined ? `; did you mean ${near}?` : '';
    io.stderr.write(`switchboard: unknown command ${JSON.stringify(name)}${hint}\n\n${mainHelp()}`);
    return EXIT.unusable;
  }
  const { run, help } = await command.load();
  try {
    return await run(rest, io);
  } catch (thrown) {
    const error = explainParseArgsError(thrown, help, await otherCommandsWith(thrown, name));
    if (error instanceof UsageError) {
      io.stderr.write(`switchboard ${name}: ${error.message}\n\n${help}`);
      return EXIT.unusable;
    }
    io.stderr.write(
      `switchboard ${name}: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    return EXIT.unusable;
  }
}
