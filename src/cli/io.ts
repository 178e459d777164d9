/**
 * The process surface the commands use (streams, environment, working directory), injectable so
 * commands run in-process in tests and behave the same as the real binary.
 */
import { describeJsonError, jsonOptionExample } from './json-option.js';

/** A writable text sink. */
export interface TextOut {
  write(text: string): unknown;
  readonly isTTY?: boolean;
}

/** What a command may touch. */
export interface CliIO {
  readonly stdout: TextOut;
  readonly stderr: TextOut;
  readonly stdin: NodeJS.ReadableStream & { readonly isTTY?: boolean };
  readonly env: Readonly<Record<string, string | undefined>>;
  /**
   * Subscribes `listener` to the host's request that a long-running command (serve, mcp,
   * studio) stop; returns the unsubscribe. Default: the process's SIGTERM and SIGINT, listened
   * to only while a command waits for them, so every other command keeps dying on them.
   */
  readonly onStop?: (listener: () => void) => () => void;
}

/** The real process. */
export function processIO(): CliIO {
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env };
}

function processSignals(listener: () => void): () => void {
  process.on('SIGTERM', listener);
  process.on('SIGINT', listener);
  return () => {
    process.off('SIGTERM', listener);
    process.off('SIGINT', listener);
  };
}

/**
 * Resolves when the host asks the command to stop (see {@link CliIO.onStop}), or when `also`
 * fires; listens from the call on, and stops listening once resolved.
 */
export function stopRequested(io: CliIO, also?: (stop: () => void) => void): Promise<void> {
  return new Promise((resolve) => {
    let done = false;
    const stop = (): void => {
      if (done) return;
      done = true;
      off();
      resolve();
    };
    const off = (io.onStop ?? processSignals)(stop);
    also?.(stop);
  });
}

/**
 * Colour decision: `NO_COLOR` (any non-empty value) wins, then `FORCE_COLOR` (non-`0`), then
 * whether the stream is a terminal.
 */
export function useColor(io: CliIO, stream: TextOut = io.stdout): boolean {
  const no = io.env['NO_COLOR'];
  if (no !== undefined && no !== '') return false;
  const force = io.env['FORCE_COLOR'];
  if (force !== undefined && force !== '') return force !== '0';
  return stream.isTTY === true;
}

/** Exit codes shared by every command. */
export const EXIT = { ok: 0, failed: 1, unusable: 2 } as const;

/** Thrown for a usage mistake; the shell prints it with the command's help and exits 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Parses a JSON option value, naming the option and the place when it is malformed. */
export function parseJsonOption(
  name: string,
  text: string | undefined,
  kind: 'object' | 'any' = 'object',
): unknown {
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(describeJsonError(name, text, (error as Error).message));
  }
  if (kind === 'object' && (typeof value !== 'object' || value === null || Array.isArray(value))) {
    throw new UsageError(
      `--${name} must be a JSON object, got ${Array.isArray(value) ? 'a list' : JSON.stringify(value)}; ${jsonOptionExample(name)}`,
    );
  }
  return value;
}

/** An environment variable's value, or undefined when it is unset or blank. */
export function nonEmpty(text: string | undefined): string | undefined {
  return text === undefined || text.trim() === '' ? undefined : text;
}
