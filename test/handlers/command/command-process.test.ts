/**
 * The command handler running real child processes (docs/handlers.md, "Command tools"): argv
 * reaches the program exactly as built — no shell, no value turned into a flag — the environment
 * is only the host's, exit codes and spawn failures are typed tool errors, stdout is capped, and
 * a deadline or a cancelled call kills the whole process group.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createCommandHandler } from '../../../src/handlers/command/command-handler.js';
import type { CommandConfig } from '../../../src/handlers/command/command-config.js';
import { SecretSet } from '../../../src/handlers/endpoint/secret-set.js';
import type { HandlerOutcome } from '../../../src/handlers/types.js';
import { commandTool, contextFor, scriptCommand } from './command-helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'sb-command-'));
const started: number[] = [];
afterAll(() => {
  // Nothing a test started may outlive it, whatever it asserted.
  for (const pid of started) alive(pid) && process.kill(pid, 'SIGKILL');
});

/** True while a process exists and is not a zombie waiting to be reaped. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

async function run(
  config: CommandConfig,
  command: Record<string, unknown>,
  args: Record<string, unknown>,
  signal?: AbortSignal,
  secrets?: SecretSet,
): Promise<HandlerOutcome> {
  const tool = await commandTool({ name: 'cli', ...command });
  const handler = createCommandHandler({
    commands: { cli: config },
    ...(secrets === undefined ? {} : { secrets }),
  });
  return handler.execute(args, contextFor(tool, signal));
}

function output(outcome: HandlerOutcome): unknown {
  if (outcome.type !== 'success')
    throw new Error(`failed: ${outcome.error.code} ${outcome.error.message}`);
  return outcome.output;
}

const HOSTILE = [
  'two words',
  `it's "quoted"`,
  'a; touch CANARY',
  '$(touch CANARY)',
  '`touch CANARY`',
  'line one\nline two',
  '-rf',
  '--force',
  '--query=other',
  '&& touch CANARY |',
  '> CANARY',
  '*',
  '~',
  '$HOME',
];

describe('argv reaches the program exactly, through no shell', () => {
  it.each(HOSTILE)('a flag value %j stays one --flag=value word', async (value) => {
    const canary = join(dir, 'CANARY');
    const out = (await run(
      scriptCommand('echo-argv.mjs', { cwd: dir }),
      { subcommand: ['memory', 'add'] },
      {
        text: value,
      },
    )) as HandlerOutcome;
    expect(output(out)).toMatchObject({ argv: ['memory', 'add', `--text=${value}`] });
    expect(existsSync(canary)).toBe(false);
  });

  it('keeps every hostile positional a positional after `--`', async () => {
    const out = await run(
      scriptCommand('echo-argv.mjs', { cwd: dir }),
      { subcommand: ['note'], positional: ['words'] },
      { words: HOSTILE, verbose: true },
    );
    expect(output(out)).toMatchObject({ argv: ['note', '--verbose', '--', ...HOSTILE] });
    expect(existsSync(join(dir, 'CANARY'))).toBe(false);
  });

  it('passes the host args first and spells flags by flag_case', async () => {
    const out = await run(
      scriptCommand('echo-argv.mjs'),
      { subcommand: ['memory', 'search'], flag_case: 'snake_case' },
      { maxResults: 3, includeArchived: true },
    );
    expect(output(out)).toMatchObject({
      argv: ['memory', 'search', '--max_results=3', '--include_archived'],
    });
  });
});

describe('environment', () => {
  it('gives the program only the variables the host passes (no PATH, no HOME)', async () => {
    process.env['SB_LEAK_TEST'] = 'host-secret';
    try {
      const out = await run(
        scriptCommand('echo-argv.mjs', { env: { SYNAPSE_HOME: '/data' } }),
        {},
        {},
      );
      const env = (output(out) as { env: Record<string, string> }).env;
      expect(env).toEqual({ SYNAPSE_HOME: '/data' });
    } finally {
      delete process.env['SB_LEAK_TEST'];
    }
  });

  it('scrubs env values from what the model sees', async () => {
    const secrets = new SecretSet();
    const out = await run(
      scriptCommand('echo-argv.mjs', { env: { SYNAPSE_TOKEN: 'tok-1234567890abcdef' } }),
      {},
      {},
      undefined,
      secrets,
    );
    expect(JSON.stringify(output(out))).not.toContain('tok-1234567890abcdef');
    expect(JSON.stringify(output(out))).toContain('[redacted]');
  });
});

describe('outputs and exits', () => {
  it('returns stdout as text when it is not JSON (the trailing newline dropped)', async () => {
    expect(output(await run(scriptCommand('text.mjs'), {}, {}))).toBe(
      'found 2 notes\nfirst: hello',
    );
  });

  it('makes a non-zero exit a command_failed error with the exit code and the tail of stderr', async () => {
    const out = await run(scriptCommand('fail.mjs'), {}, { code: 7 });
    expect(out.type).toBe('error');
    if (out.type !== 'error') return;
    expect(out.error.code).toBe('command_failed');
    expect(out.error.message).toBe('command cli exited with status 7');
    const details = out.error.details as { exit_code: number; stderr: string };
    expect(details.exit_code).toBe(7);
    expect(details.stderr.endsWith('fatal: no such memory')).toBe(true);
    expect(details.stderr.length).toBeLessThanOrEqual(2001);
    expect(details.stderr).not.toContain('line 1 of the log');
  });

  it('makes a program that cannot be started a spawn_failed error (never naming its path)', async () => {
    const out = await run({ path: join(dir, 'no-such-program') }, {}, {});
    expect(out.type === 'error' && out.error.code).toBe('spawn_failed');
    if (out.type === 'error') {
      expect(out.error.details).toEqual({ errno: 'ENOENT' });
      expect(out.error.message).not.toContain(dir);
    }
  });

  it('kills a command whose stdout passes its cap (response_too_large)', async () => {
    const out = await run(scriptCommand('flood.mjs', { maxStdoutBytes: 100_000 }), {}, {});
    expect(out.type === 'error' && out.error.code).toBe('response_too_large');
  });

  it('kills what the command left running in its group when it exits', async () => {
    const out = await run(scriptCommand('exit-leaving-grandchild.mjs'), {}, {});
    const { grandchild } = output(out) as { grandchild: number };
    started.push(grandchild);
    await vi.waitFor(() => expect(alive(grandchild)).toBe(false));
  });
});

describe('deadlines and cancellation kill the whole process group', () => {
  it('a cancelled call kills the command and its grandchild', async () => {
    const pidfile = join(dir, 'cancel.json');
    const controller = new AbortController();
    const running = run(
      scriptCommand('spawn-and-sleep.mjs'),
      { timeout: 120 },
      { pidfile },
      controller.signal,
    );
    // Event-driven: abort once the script says both processes are up.
    const pids = await vi.waitFor(
      () => JSON.parse(readFileSync(pidfile, 'utf8')) as { child: number; grandchild: number },
      { timeout: 20_000, interval: 20 },
    );
    started.push(pids.child, pids.grandchild);
    controller.abort();
    const out = await running;
    expect(out.type === 'error' && out.error.code).toBe('cancelled');
    await vi.waitFor(() => {
      expect(alive(pids.child)).toBe(false);
      expect(alive(pids.grandchild)).toBe(false);
    });
  });

  it('the deadline kills the command and its grandchild (timeout)', async () => {
    const pidfile = join(dir, 'timeout.json');
    const out = await run(scriptCommand('spawn-and-sleep.mjs'), { timeout: 1 }, { pidfile });
    expect(out.type === 'error' && out.error.code).toBe('timeout');
    if (out.type === 'error') expect(out.error.message).toContain('process group was killed');
    // The processes never end on their own, so the deadline ended them. The pid file is checked
    // when the script got that far within its second (the cancel test above is the event-driven
    // proof that the group dies; deadline and cancel share the one kill).
    if (existsSync(pidfile)) {
      const pids = JSON.parse(readFileSync(pidfile, 'utf8')) as {
        child: number;
        grandchild: number;
      };
      started.push(pids.child, pids.grandchild);
      await vi.waitFor(() => {
        expect(alive(pids.child)).toBe(false);
        expect(alive(pids.grandchild)).toBe(false);
      });
    }
  });
});

describe('a call cancelled before it starts', () => {
  it('is cancelled without reaching the runner or the record', async () => {
    const tool = await commandTool({ name: 'cli' });
    const runs: unknown[] = [];
    const records: unknown[] = [];
    // A runner that ignores the signal (a harness double, a host's own): only the handler's own
    // check keeps an already cancelled call from running.
    const handler = createCommandHandler({
      commands: { cli: scriptCommand('echo-argv.mjs') },
      runner: {
        run: (inv) => {
          runs.push(inv.argv);
          return Promise.resolve({
            kind: 'exited',
            exitCode: 0,
            signal: null,
            stdout: '',
            stderr: '',
          });
        },
      },
    });
    const controller = new AbortController();
    controller.abort();
    const context = {
      ...contextFor(tool, controller.signal),
      onCommand: (r: unknown) => void records.push(r),
    };
    const out = await handler.execute({ q: 'x' }, context);
    expect(out.type === 'error' && out.error.code).toBe('cancelled');
    expect(runs).toEqual([]);
    expect(records).toEqual([]);
  });
});

describe('a command ended by a signal', () => {
  it('is command_failed naming the signal, with exit_code null', async () => {
    const tool = await commandTool({ name: 'cli' });
    const handler = createCommandHandler({
      commands: { cli: scriptCommand('echo-argv.mjs') },
      runner: {
        run: () =>
          Promise.resolve({
            kind: 'exited',
            exitCode: null,
            signal: 'SIGTERM',
            stdout: '',
            stderr: 'bye\n',
          }),
      },
    });
    const out = await handler.execute({}, contextFor(tool));
    expect(out.type === 'error' && out.error).toMatchObject({
      code: 'command_failed',
      message: 'command cli was ended by SIGTERM',
      details: { exit_code: null, signal: 'SIGTERM', stderr: 'bye' },
    });
  });
});

describe('a command named like an Object.prototype member', () => {
  it.each(['constructor', 'toString', '__proto__'])(
    '%s, not registered, is not_available (nothing inherited is run)',
    async (name) => {
      const tool = await commandTool({ name });
      const handler = createCommandHandler({ commands: { cli: scriptCommand('echo-argv.mjs') } });
      const out = await handler.execute({}, contextFor(tool));
      expect(out.type === 'error' && out.error).toMatchObject({
        code: 'not_available',
        message: `command ${name} is not available`,
      });
    },
  );
});
