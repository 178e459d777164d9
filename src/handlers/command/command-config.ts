/**
 * What a host configures for command tools (docs/handlers.md, "Command"): the commands a
 * definition may name, and the runner that starts them. Definitions name a registered command,
 * never an executable path; the host decides which program runs, where, and with what environment.
 */

/** One command a definition can name with `"command": { "name": "…" }`. */
export interface CommandConfig {
  /** Absolute path of the executable. Never looked up in `PATH`. */
  readonly path: string;
  /** Words the host always passes first (a script for an interpreter, a global flag). Default []. */
  readonly args?: readonly string[];
  /** Working directory (absolute). Default: the process's. */
  readonly cwd?: string;
  /**
   * The child's whole environment: nothing of the host process's is passed on, `PATH` included.
   * Values are treated as secrets (scrubbed from what the session shows). Default {}.
   */
  readonly env?: Readonly<Record<string, string>>;
  /** Cap on stdout, bytes; past it the process group is killed (`response_too_large`). Default 1 MiB. */
  readonly maxStdoutBytes?: number;
  /** Cap on the stderr kept, bytes: only its last bytes are kept. Default 64 KiB. */
  readonly maxStderrBytes?: number;
}

/** Default cap on a command's stdout: 1 MiB. */
export const DEFAULT_MAX_STDOUT_BYTES = 1024 * 1024;
/** Default cap on the stderr a command run keeps (its tail): 64 KiB. */
export const DEFAULT_MAX_STDERR_BYTES = 64 * 1024;
/** Characters of stderr's tail a `command_failed` error carries. */
export const STDERR_TAIL_CHARS = 2000;

/** One run the handler asks for: everything resolved, nothing left to look up. */
export interface CommandInvocation {
  /** The registered name. */
  readonly command: string;
  /** The executable (the host's `path`). */
  readonly path: string;
  /** The arguments after the executable (host `args`, subcommand, flags, `--`, positionals). */
  readonly argv: readonly string[];
  /** Working directory; absent: the process's. */
  readonly cwd?: string;
  /** The child's whole environment. */
  readonly env: Readonly<Record<string, string>>;
  /** Deadline of the run; past it the process group is killed. */
  readonly timeoutMs: number;
  /** stdout past this many bytes kills the process group. */
  readonly maxStdoutBytes: number;
  /** Only the last this many bytes of stderr are kept. */
  readonly maxStderrBytes: number;
  /** Aborts when the call is cancelled: the process group is killed. */
  readonly signal: AbortSignal;
}

/** How a run ended, before the handler interprets it. */
export type CommandExit =
  | {
      readonly kind: 'exited';
      /** Null when a signal ended the process. */
      readonly exitCode: number | null;
      readonly signal: string | null;
      readonly stdout: string;
      /** The last `maxStderrBytes` of stderr. */
      readonly stderr: string;
    }
  | { readonly kind: 'spawn_failed'; readonly errno: string; readonly message: string }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'cancelled' }
  | { readonly kind: 'stdout_too_large'; readonly limit: number };

/** Starts command runs. The default spawns processes; the harness's command double answers instead. */
export interface CommandRunner {
  /** Runs one invocation; resolves with how it ended, never rejects. */
  run(invocation: CommandInvocation): Promise<CommandExit>;
}

/** A record of one command run, for events, traces and spans. */
export interface CommandRecord {
  /** The registered name. */
  readonly command: string;
  /** The argv after the host's own `args`, secrets scrubbed. */
  readonly argv: readonly string[];
}

const KEYS = ['path', 'args', 'cwd', 'env', 'maxStdoutBytes', 'maxStderrBytes'];

/** What is wrong with one host command config, as `{ path, message }` relative to it. */
export function commandConfigProblems(config: unknown): { path: string; message: string }[] {
  const out: { path: string; message: string }[] = [];
  if (typeof config !== 'object' || config === null || Array.isArray(config))
    return [{ path: '', message: 'expected an object ({ path, args, cwd, env })' }];
  const c = config as Record<string, unknown>;
  for (const key of Object.keys(c))
    if (!KEYS.includes(key))
      out.push({ path: key, message: `is not a command setting; settings: ${KEYS.join(', ')}` });
  const absolute = (key: string, required: boolean): void => {
    const v = c[key];
    if (v === undefined && !required) return;
    if (typeof v !== 'string' || !v.startsWith('/') || v.includes('\u0000'))
      out.push({
        path: key,
        message: 'expected an absolute path (commands are never looked up in PATH)',
      });
  };
  absolute('path', true);
  absolute('cwd', false);
  const args = c['args'];
  if (
    args !== undefined &&
    !(Array.isArray(args) && args.every((a) => typeof a === 'string' && !a.includes('\u0000')))
  )
    out.push({ path: 'args', message: 'expected a list of strings without NUL characters' });
  const env = c['env'];
  if (env !== undefined) {
    if (typeof env !== 'object' || env === null || Array.isArray(env))
      out.push({ path: 'env', message: 'expected an object of strings by variable name' });
    else
      for (const [name, value] of Object.entries(env))
        if (
          !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ||
          typeof value !== 'string' ||
          value.includes('\u0000')
        )
          out.push({
            path: `env.${name}`,
            message: 'expected a variable name of letters, digits and "_", with a string value',
          });
  }
  for (const key of ['maxStdoutBytes', 'maxStderrBytes']) {
    const v = c[key];
    if (v !== undefined && !(Number.isInteger(v) && typeof v === 'number' && v > 0))
      out.push({ path: key, message: 'expected a whole number of bytes above 0' });
  }
  return out;
}
