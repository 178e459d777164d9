/**
 * Final arguments → argv (docs/handlers.md, "Command"). No shell ever sees it: it is passed
 * to the executable as an array. What it guards against is a value turning into something it was
 * not — a flag, a second flag, a positional — so every flag carries its value in one word
 * (`--name=value`) and positionals follow a `--`, where no value can be read as an option.
 */
import type { CommandSpec, FlagCase } from '../../definition/types.js';

/** The argv, or why these arguments cannot be one. */
export type ArgvResult =
  { readonly ok: true; readonly argv: string[] } | { readonly ok: false; readonly message: string };

/** A flag name a value cannot escape from: no `=`, no leading `-`, no spaces or controls. */
const FLAG_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/**
 * `maxResults` → `max_results` (`snake_case`) or `max-results` (`kebab-case`); the other
 * separator is rewritten too (`max-results` → `max_results` and back). `as_written` keeps it.
 */
export function flagName(name: string, flagCase: FlagCase): string {
  if (flagCase === 'as_written') return name;
  const sep = flagCase === 'snake_case' ? '_' : '-';
  return name
    .replace(/([a-z0-9])([A-Z])/g, `$1${sep}$2`)
    .replace(/([A-Z]+)([A-Z][a-z])/g, `$1${sep}$2`)
    .replace(/[-_]/g, sep)
    .toLowerCase();
}

/** One scalar as argv text; objects (and arrays inside arrays) as their JSON text. */
function text(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * Builds the argv after the host's own `args`: the subcommand words, then one `--flag=value` word
 * per argument (in the arguments' order; `true` → `--flag`, `false` and `null` → nothing, an array
 * → the flag once per element), then `--` and the positional parameters (an array → one word per
 * element). A value with a NUL character is refused (no argv can carry it).
 */
export function buildArgv(args: Readonly<Record<string, unknown>>, spec: CommandSpec): ArgvResult {
  const argv = [...spec.subcommand];
  const positional = new Map<string, unknown>();
  for (const [name, value] of Object.entries(args)) {
    if (spec.positional.includes(name)) {
      positional.set(name, value);
      continue;
    }
    if (value === undefined || value === null || value === false) continue;
    if (!FLAG_NAME.test(name))
      return {
        ok: false,
        message: `argument "${name}" cannot be a flag name (letters, digits, "_", "-", "." only)`,
      };
    const flag = `--${flagName(name, spec.flagCase)}`;
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) {
      if (v === undefined || v === null || v === false) continue;
      argv.push(v === true ? flag : `${flag}=${text(v)}`);
    }
  }
  const tail: string[] = [];
  for (const name of spec.positional) {
    const value = positional.get(name);
    if (value === undefined || value === null) continue;
    for (const v of Array.isArray(value) ? value : [value])
      if (v !== undefined && v !== null) tail.push(text(v));
  }
  if (tail.length > 0) argv.push('--', ...tail);
  const bad = argv.findIndex((word) => word.includes('\u0000'));
  if (bad !== -1)
    return { ok: false, message: 'an argument contains a NUL character, which no argv can carry' };
  return { ok: true, argv };
}
