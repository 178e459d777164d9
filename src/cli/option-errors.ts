/**
 * Turns `node:util` parseArgs errors into usage errors a person can act on: which option, what
 * was wrong with it, and the nearest option the command has ("did you mean --args?"). The
 * command's help text is the list of its options, so every command gets this from the shell
 * (run-cli.ts) without repeating its option table.
 */
import { closestName } from '../did-you-mean.js';
import { UsageError } from './io.js';

/** The options a help text lists: `--name` (and `-x`) → how it is written, e.g. `--args <json>`. */
export function optionsInHelp(help: string): Map<string, string> {
  const options = new Map<string, string>();
  for (const line of help.split('\n')) {
    // An option line: indented, starts with a dash, its usage ends at a run of two spaces.
    const match = /^\s+(-[^\s].*?)(?:\s{2,}|$)/.exec(line);
    if (match === null) continue;
    const usage = match[1]!.trim();
    const long = /--[A-Za-z][\w-]*/.exec(usage)?.[0];
    const usageOfLong = long === undefined ? usage : usage.slice(usage.indexOf(long));
    for (const name of usage.match(/(?<![\w-])--?[A-Za-z][\w-]*/g) ?? [])
      if (!options.has(name)) options.set(name, name.startsWith('--') ? usageOfLong : usage);
  }
  return options;
}

/**
 * The option that takes `word` as one of its listed choices — `--reporter` for `json` when the
 * help says `--reporter <name>  human | junit | tap | json` or `--model openai|manual` — written
 * as the option and the value. A flag named after a choice (`test --json`, as `validate` has)
 * is then answered with the option that gives it. Placeholders (`<file|json>`) are not choices.
 */
export function choiceOptionFor(help: string, word: string): string | undefined {
  for (const line of help.split('\n')) {
    const match = /^\s+(--[A-Za-z][\w-]*)((?: [^\s]+)?)(?:\s{2,}(.*))?$/.exec(line);
    if (match === null) continue;
    const [, name, usage = '', description = ''] = match;
    const inUsage = usage.trim().startsWith('<') ? [] : usage.trim().split('|');
    const listed = /^([\w-]+(?: \| [\w-]+)+)/.exec(description)?.[1]?.split(' | ') ?? [];
    if ([...inUsage, ...listed].includes(word)) return `${name} ${word}`;
  }
  return undefined;
}

/** True for the errors parseArgs throws for a usage mistake. */
export function isParseArgsError(error: unknown): error is TypeError & { code: string } {
  return (
    error instanceof TypeError &&
    'code' in error &&
    typeof error.code === 'string' &&
    error.code.startsWith('ERR_PARSE_ARGS')
  );
}

/**
 * A {@link UsageError} explaining a parseArgs error in terms of `help`'s options; the error
 * itself when it is not a parseArgs error. `elsewhere`: the other commands that have the option
 * named (command → how their help writes it), for an option given to the wrong command.
 */
export function explainParseArgsError(
  error: unknown,
  help: string,
  elsewhere: ReadonlyMap<string, string> = new Map(),
): unknown {
  if (!isParseArgsError(error)) return error;
  const options = optionsInHelp(help);
  // parseArgs names an option with a short alias as '-o, --out <value>': the name ends before the comma.
  const named = /'(--?[^'\s,]+)/.exec(error.message)?.[1];
  if (named === undefined) return new UsageError(error.message.split('\n')[0] ?? error.message);
  const usage = options.get(named) ?? named;
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const nearest = closestName({
      name: named,
      candidates: [...options.keys()].filter((o) => o.startsWith('--') === named.startsWith('--')),
    });
    // An option another command has with a value (`serve --host <addr>`) is that option, not a
    // flag standing for one of this command's choices (`repl --speech-ack host`).
    const other = [...elsewhere].filter(([, usage]) => / </.test(usage));
    const choice =
      named.startsWith('--') && other.length === 0
        ? choiceOptionFor(help, named.slice(2))
        : undefined;
    const hint =
      other.length > 0
        ? `; it is an option of ${other.map(([command, usage]) => `switchboard ${command} (${usage})`).join(', ')}`
        : choice !== undefined
          ? `; did you mean ${choice}?`
          : nearest !== undefined
            ? `; did you mean ${options.get(nearest) ?? nearest}?`
            : `; the options are ${[...options.keys()].filter((o) => o.startsWith('--')).join(', ')}`;
    return new UsageError(
      `unknown option ${named}${hint} (an argument that starts with "-" goes after "--")`,
    );
  }
  if (/does not take an argument/.test(error.message))
    return new UsageError(`${named} takes no value; write ${named} on its own`);
  if (/ambiguous/.test(error.message))
    return new UsageError(
      `${named} needs a value (${usage}), but the next argument is an option; to pass a value that starts with "-", write ${named}=<value>`,
    );
  if (/argument missing/.test(error.message))
    return new UsageError(`${named} needs a value: ${usage}`);
  return new UsageError(`${named}: ${error.message.split('\n')[0] ?? error.message}`);
}
