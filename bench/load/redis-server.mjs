// A throwaway redis-server for the load harness (same settings as test/redis-server.ts): loopback,
// a free port, no persistence.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

export async function startRedisServer() {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-load-redis-'));
  const child = spawn(
    'redis-server',
    ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no'],
    // Detached: its own session, so its own scheduler autogroup (Linux), as a Redis server on
    // the same host runs in production, rather than one CPU share with the engine processes.
    { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  await new Promise((resolve, reject) => {
    let output = '';
    child.once('error', (e) =>
      reject(
        new Error(
          `cannot start redis-server (${e.message}); apt-get install -y redis-server, or set REDIS_URL`,
        ),
      ),
    );
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}:\n${output}`)));
    const onData = (chunk) => {
      output += chunk;
      if (output.includes('Ready to accept connections')) {
        child.stdout.off('data', onData);
        child.stdout.resume();
        child.removeAllListeners('exit');
        resolve();
      }
    };
    child.stdout.on('data', onData);
  });
  // Detached, it would outlive an interrupted run (Ctrl-C reaches the terminal's process group
  // only): stop it on the way out.
  const kill = () => {
    if (child.exitCode === null) child.kill('SIGTERM');
  };
  process.once('exit', kill);
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ])
    process.once(signal, () => {
      kill();
      process.exit(code);
    });
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
