/**
 * A Lua script the Redis store runs: sent by its SHA-1 (EVALSHA), so a turn's commands do not
 * carry the script's text each time; the text goes once, on the first NOSCRIPT (a new or flushed
 * Redis), which also caches it server-side.
 */
import { createHash } from 'node:crypto';
import { SessionStoreFailedError } from '../session/coordination.js';
import type { RedisEvalClient } from './types.js';

/** A script and its SHA-1. */
export interface RedisScript {
  readonly text: string;
  readonly sha: string;
}

export function redisScript(text: string): RedisScript {
  return { text, sha: createHash('sha1').update(text).digest('hex') };
}

/**
 * How the store reaches Redis. `command`: the client {@link RedisSessionStore.connect} made, sent
 * raw argument arrays (`sendCommand`), which skips node-redis's per-command parser, key-prefix
 * and reply-transform layers (a third of its CPU per command, docs/benchmarks.md); safe because
 * the store made that client and set none of those options. `typed`: a client the host passed,
 * used through `evalSha`/`eval` so whatever it was configured with applies.
 */
export type ScriptClient =
  | { readonly kind: 'command'; readonly send: (args: string[]) => Promise<unknown> }
  | { readonly kind: 'typed'; readonly client: RedisEvalClient };

/** A script's keys and arguments. */
export interface ScriptCall {
  readonly keys: string[];
  readonly arguments: string[];
}

/**
 * Runs `script` for session `id` with EVALSHA, falling back to EVAL when Redis does not have it
 * (NOSCRIPT). Any failure (the connection is down, Redis refused the command) rejects with a
 * {@link SessionStoreFailedError} naming the session, the client's error as its cause.
 */
export function runScript(
  client: ScriptClient,
  script: RedisScript,
  options: ScriptCall,
  id: string,
  /**
   * Send the text at once. For a command sent behind one Redis has not answered: its NOSCRIPT
   * reply would come after our deadline gave up on it, and the text would never be sent.
   */
  byText = false,
): Promise<unknown> {
  const failed = (err: unknown): never => {
    throw new SessionStoreFailedError(id, err);
  };
  const viaText = (): Promise<unknown> =>
    (client.kind === 'command'
      ? client.send(commandArgs('EVAL', script.text, options))
      : client.client.eval(script.text, options)
    ).catch(failed);
  if (byText) return viaText();
  const bySha =
    client.kind === 'command'
      ? client.send(commandArgs('EVALSHA', script.sha, options))
      : client.client.evalSha?.(script.sha, options);
  if (bySha === undefined) return viaText();
  return bySha.catch((err: unknown) => {
    // NOSCRIPT: nothing ran, so running the text is not a repeat.
    if (err instanceof Error && err.message.startsWith('NOSCRIPT')) return viaText();
    return failed(err);
  });
}

/** `EVALSHA sha numkeys key… arg…` (or EVAL with the text) as one argument array. */
function commandArgs(name: string, script: string, call: ScriptCall): string[] {
  const args = [name, script, String(call.keys.length)];
  for (const key of call.keys) args.push(key);
  for (const arg of call.arguments) args.push(arg);
  return args;
}
