/**
 * A throwaway redis-server for the tests: loopback only, a free port, no persistence (no RDB, no
 * AOF, a temporary working directory). Used by the vitest global set-up and the load harness.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RedisServer {
  readonly url: string;
  readonly port: number;
  /** The server's process id (a test freezes it with SIGSTOP). */
  readonly pid: number;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts redis-server (on `port`, default a free one); rejects with install advice when it is not
 * on PATH.
 */
export async function startRedisServer(port?: number): Promise<RedisServer> {
  port ??= await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-redis-'));
  const child: ChildProcess = spawn(
    'redis-server',
    ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no'],
    { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => reject(new Error(`redis-server did not start:\n${output}`)),
      10_000,
    );
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(
        new Error(
          `cannot start redis-server (${err.message}); install it (apt-get install -y redis-server) or set REDIS_URL`,
        ),
      );
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${String(code)}:\n${output}`));
    });
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        child.removeAllListeners('exit');
        resolve();
      }
    };
    child.stdout?.on('data', onData);
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    pid: child.pid ?? 0,
    stop: async () => {
      // A server killed by a signal (a test's SIGKILL) has no exit code, only its signal.
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGCONT'); // a frozen server cannot act on SIGTERM
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
