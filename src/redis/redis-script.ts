/**
 * A Lua script the Redis store runs: sent by its SHA-1 (EVALSHA) when the client offers it, so a
 * turn's commands do not carry the script's text each time; the text goes once, on the first
 * NOSCRIPT (a new or flushed Redis), which also caches it server-side.
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
 * Runs `script` for session `id` with EVALSHA, falling back to EVAL when Redis does not have it
 * (NOSCRIPT). Any failure (the connection is down, Redis refused the command) rejects with a
 * {@link SessionStoreFailedError} naming the session, the client's error as its cause.
 */
export function runScript(
  client: RedisEvalClient,
  script: RedisScript,
  options: { keys: string[]; arguments: string[] },
  id: string,
): Promise<unknown> {
  const failed = (err: unknown): never => {
    throw new SessionStoreFailedError(id, err);
  };
  if (client.evalSha === undefined) return client.eval(script.text, options).catch(failed);
  return client.evalSha(script.sha, options).catch((err: unknown) => {
    // NOSCRIPT: nothing ran, so running the text is not a repeat.
    if (err instanceof Error && err.message.startsWith('NOSCRIPT'))
      return client.eval(script.text, options).catch(failed);
    return failed(err);
  });
}
