/** Helpers of the tarball walk: child processes that never block the test worker, page files. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** The result of a finished child process. */
export interface Ran {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * The environment of the walk's processes: this one's, without npm's lifecycle variables of the
 * `npm test` running us (they describe the repo, not the fresh project) and without the keys that
 * would make the page's bot call a real model or use another token.
 */
export function walkEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^npm_(package|lifecycle)_|^npm_command$|^INIT_CWD$/.test(key)) continue;
    if (key === 'OPENAI_API_KEY' || key === 'OPENAI_BASE_URL' || key === 'CLINIC_TOKEN') continue;
    env[key] = value;
  }
  env['NO_COLOR'] = '1';
  return env;
}

/**
 * Runs a command to its end without blocking this process: a synchronous spawn would stall the
 * worker's answers to vitest for as long as npm or tsc runs (vitest gives up after 60 s).
 */
export function run(command: string, args: readonly string[], cwd: string): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: walkEnv() });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    child.stdin.end();
  });
}

/** Fails with the command's own output when it did not exit 0. */
export function ok(ran: Ran, what: string): Ran {
  if (ran.status !== 0)
    throw new Error(
      `${what} exited ${ran.status}\n--- stdout\n${ran.stdout}\n--- stderr\n${ran.stderr}`,
    );
  return ran;
}

/**
 * The files a docs page shows, by name: every fenced block whose info string names a file
 * (```` ```js file=bot.mjs ````), its text exactly as the page shows it.
 */
export function pageFiles(path: string): Map<string, string> {
  const page = readFileSync(path, 'utf8');
  const files = new Map<string, string>();
  for (const match of page.matchAll(/^```\w+ file=(\S+)\n([\s\S]*?)^```$/gm)) {
    const [, name, text] = match;
    if (name === undefined || text === undefined) continue;
    if (files.has(name)) throw new Error(`${path} shows ${name} twice`);
    files.set(name, text);
  }
  return files;
}

/** A long-running child (a server), with the lines it has printed so far. */
export interface Running {
  readonly child: ChildProcessWithoutNullStreams;
  readonly lines: string[];
  /** Resolves with the first printed line that matches. */
  waitFor(pattern: RegExp): Promise<RegExpMatchArray>;
}

/** Starts a child that keeps running; `waitFor` waits on its output, not on the clock. */
export function start(command: string, args: readonly string[], cwd: string): Running {
  const child = spawn(command, args, { cwd, env: walkEnv() });
  const lines: string[] = [];
  const waiters: { pattern: RegExp; resolve: (m: RegExpMatchArray) => void }[] = [];
  let partial = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    partial += chunk.toString();
    const parts = partial.split('\n');
    partial = parts.pop() ?? '';
    for (const line of parts) {
      lines.push(line);
      for (const waiter of [...waiters]) {
        const match = line.match(waiter.pattern);
        if (match === null) continue;
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(match);
      }
    }
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<never>((_, reject) =>
    child.on('close', (status) => reject(new Error(`${command} exited ${status}: ${stderr}`))),
  );
  exited.catch(() => undefined);
  return {
    child,
    lines,
    waitFor(pattern) {
      for (const line of lines) {
        const match = line.match(pattern);
        if (match !== null) return Promise.resolve(match);
      }
      const found = new Promise<RegExpMatchArray>((resolve) => waiters.push({ pattern, resolve }));
      return Promise.race([found, exited]);
    },
  };
}
