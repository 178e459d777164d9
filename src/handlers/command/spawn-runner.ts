/**
 * The default command runner: one child process per run, never a shell (`shell: false`, argv as
 * an array), in a process group of its own (`detached`), with only the host's environment. The
 * deadline, a cancelled call and a stdout past its cap kill the whole group (SIGKILL to `-pid`),
 * so a command's own children end with it; when the command exits, whatever it left running in
 * its group is killed too. stdin is closed (`/dev/null`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { CommandExit, CommandInvocation, CommandRunner } from './command-config.js';

/** Kills a process group; a group already gone is not an error. */
function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // ESRCH: every member already exited.
  }
}

/** The last `max` bytes of `chunks` (stderr is kept as a tail: its end says what went wrong). */
function tail(chunks: Buffer[], max: number): Buffer[] {
  const all = Buffer.concat(chunks);
  return [all.length > max ? all.subarray(all.length - max) : all];
}

/** One run, from spawn to its single {@link CommandExit}. */
function runOnce(inv: CommandInvocation): Promise<CommandExit> {
  return new Promise((resolve) => {
    if (inv.signal.aborted) {
      resolve({ kind: 'cancelled' });
      return;
    }
    let child: ChildProcess;
    try {
      child = spawn(inv.path, [...inv.argv], {
        shell: false,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        // A copy with no prototype chain to inherit from: exactly the host's variables.
        env: Object.assign(Object.create(null) as Record<string, string>, inv.env),
        ...(inv.cwd === undefined ? {} : { cwd: inv.cwd }),
        windowsHide: true,
      });
    } catch (err) {
      resolve(spawnFailure(err));
      return;
    }
    let stopped: CommandExit | undefined;
    let settled = false;
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr: Buffer[] = [];
    let stderrBytes = 0;

    const stop = (why: CommandExit): void => {
      if (stopped !== undefined || settled) return;
      stopped = why;
      killGroup(child.pid);
      child.stdout?.destroy();
      child.stderr?.destroy();
    };
    const timer = setTimeout(() => stop({ kind: 'timeout' }), inv.timeoutMs);
    const onAbort = (): void => stop({ kind: 'cancelled' });
    inv.signal.addEventListener('abort', onAbort, { once: true });
    const settle = (exit: CommandExit): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      inv.signal.removeEventListener('abort', onAbort);
      resolve(exit);
    };

    child.stdout?.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes > inv.maxStdoutBytes)
        stop({ kind: 'stdout_too_large', limit: inv.maxStdoutBytes });
      else stdout.push(chunk);
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr.push(chunk);
      stderrBytes += chunk.length;
      if (stderrBytes > inv.maxStderrBytes * 2) {
        stderr = tail(stderr, inv.maxStderrBytes);
        stderrBytes = stderr[0]?.length ?? 0;
      }
    });
    child.on('error', (err) => {
      // Spawn failures (ENOENT, EACCES) arrive here with no pid; a kill failure never does.
      if (child.pid === undefined) settle(spawnFailure(err));
    });
    // The command itself ended: what it left running in its group goes too, so the pipes close.
    child.on('exit', () => killGroup(child.pid));
    child.on('close', (code: number | null, signal: NodeJS.Signals | null) => {
      if (stopped !== undefined) {
        settle(stopped);
        return;
      }
      settle({
        kind: 'exited',
        exitCode: code,
        signal,
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderr: Buffer.concat(tail(stderr, inv.maxStderrBytes)).toString('utf8'),
      });
    });
  });
}

function spawnFailure(err: unknown): CommandExit {
  const errno =
    typeof err === 'object' && err !== null && typeof (err as { code?: unknown }).code === 'string'
      ? (err as { code: string }).code
      : 'EUNKNOWN';
  const message = err instanceof Error ? err.message : String(err);
  return { kind: 'spawn_failed', errno, message };
}

/** The process-spawning runner (the default of the command handler). */
export const spawnRunner: CommandRunner = { run: runOnce };
