/**
 * Helpers of the CLI tests: {@link cliInProcess} runs a command through `runCli` in this
 * process (what most cases need: output and exit code); {@link cli} and {@link cliAsync} spawn
 * the real binary, for what only a process shows (the bin and its shebang, the exit status,
 * real stdin, signals). A spawn costs a Node start-up and the CLI's imports (about half a
 * second each on a quiet 2-core machine), which is why cases that need no process use the
 * first.
 */
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Readable } from 'node:stream';
import { runCli } from '../../src/cli/run-cli.js';

/** dist/ is built once by test/global-setup.ts; this only checks it is there. */
export function buildOnce(): void {
  if (!existsSync('dist/cli/main.js'))
    throw new Error('dist/cli/main.js is missing: the global setup did not build');
}

/** Runs `switchboard …` as a user would. */
export function cli(
  args: readonly string[],
  options: { input?: string; env?: Record<string, string> } = {},
): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, ['dist/cli/main.js', ...args], {
    encoding: 'utf8',
    input: options.input ?? '',
    env: { PATH: process.env['PATH'] ?? '', NO_COLOR: '1', ...options.env },
    timeout: 30_000,
  });
}

/** Like {@link cli}, without blocking this process (a test server in it must keep answering). */
export function cliAsync(
  args: readonly string[],
  options: { input?: string; env?: Record<string, string> } = {},
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['dist/cli/main.js', ...args], {
      env: { PATH: process.env['PATH'] ?? '', NO_COLOR: '1', ...options.env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

/**
 * Runs `switchboard …` in this process, with the environment {@link cli} gives the binary
 * (`NO_COLOR=1` unless overridden) and `input` as piped (non-TTY) stdin. Same result shape as
 * {@link cli}; relative paths resolve against the working directory, as for the binary.
 */
export async function cliInProcess(
  args: readonly string[],
  options: { input?: string; env?: Record<string, string> } = {},
): Promise<{ status: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const status = await runCli(args, {
    stdout: { write: (text: string) => (stdout += text), isTTY: false },
    stderr: { write: (text: string) => (stderr += text), isTTY: false },
    stdin: Readable.from(
      options.input === undefined || options.input === '' ? [] : [options.input],
    ),
    env: { NO_COLOR: '1', ...options.env },
  });
  return { status, stdout, stderr };
}

/** `switchboard repl <tools> --model manual …` in this process, fed `input` one line each. */
export async function pipedRepl(
  tools: string,
  args: readonly string[],
  input: readonly string[],
): Promise<{ code: number; out: string; err: string }> {
  const r = await cliInProcess(['repl', tools, '--model', 'manual', ...args], {
    input: `${input.join('\n')}\n`,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** A long-running command (serve, mcp --http, studio) started in this process. */
export interface RunningInProcess {
  readonly stdout: () => string;
  readonly stderr: () => string;
  /** Resolves with the match once stdout matches `pattern`; rejects if the command ends first. */
  readonly waitFor: (pattern: RegExp) => Promise<RegExpExecArray>;
  /** Asks the command to stop, as SIGTERM does for the binary; resolves with its exit code. */
  readonly stop: () => Promise<number>;
  /** The exit code, once the command ends. */
  readonly exit: Promise<number>;
}

/** Starts `switchboard …` in this process; {@link RunningInProcess.stop} stands for SIGTERM. */
export function startInProcess(
  args: readonly string[],
  options: { env?: Record<string, string> } = {},
): RunningInProcess {
  let stdout = '';
  let stderr = '';
  const stopListeners = new Set<() => void>();
  const outputListeners = new Set<() => void>();
  const exit = runCli(args, {
    stdout: {
      write: (text: string) => {
        stdout += text;
        for (const listener of outputListeners) listener();
        return true;
      },
    },
    stderr: { write: (text: string) => (stderr += text) },
    stdin: Readable.from([]),
    env: { NO_COLOR: '1', ...options.env },
    onStop: (listener) => {
      stopListeners.add(listener);
      return () => stopListeners.delete(listener);
    },
  });
  const waitFor = (pattern: RegExp): Promise<RegExpExecArray> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        const match = pattern.exec(stdout);
        if (match === null) return;
        outputListeners.delete(check);
        resolve(match);
      };
      outputListeners.add(check);
      check();
      void exit.then((code) => {
        outputListeners.delete(check);
        reject(new Error(`exited ${code} before printing ${pattern}: ${stderr}`));
      });
    });
  const stop = (): Promise<number> => {
    for (const listener of [...stopListeners]) listener();
    return exit;
  };
  return { stdout: () => stdout, stderr: () => stderr, waitFor, stop, exit };
}
