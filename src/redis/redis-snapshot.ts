/**
 * How a session state is laid out in Redis, so that a turn's save writes only what the turn added
 * (docs/sessions-redis.md, "Options"):
 *
 * - the state hash holds `head` (the state's JSON without its history), `n` (the number of
 *   history messages stored), `hc` (a SHA-256 chain over those messages, when signing) and `mac`;
 * - the messages list holds one JSON text per history message, in order.
 *
 * A save that extends the stored history appends the new messages and rewrites the head; a save
 * after an in-place rewrite of an older message, or without knowledge of what is stored, rewrites
 * the list. With a secret, `mac` = HMAC(id, n, hc, head), where hc is the chain
 * hc_i = SHA-256(hc_{i-1} + "\n" + message_i): extending it costs only the new messages, and
 * changing, dropping or reordering any stored message breaks it.
 */
import { createHash } from 'node:crypto';
import type { SessionState } from '../session/types.js';

/**
 * Writes a state (KEYS: state hash, history list). ARGV: head, mac, ttl ms, kept message count,
 * new count, chain, then the messages to append. Shared by the plain save and, after its lease
 * and revision checks, the leased save (redis-lease.ts). Returns the new revision.
 */
export const WRITE_STATE = `
local function write_state(state, list, a, first)
  local keep = tonumber(a[first + 3])
  if keep == 0 then redis.call('DEL', list) end
  for i = first + 6, #a do redis.call('RPUSH', list, a[i]) end
  local rev = redis.call('HINCRBY', state, 'rev', 1)
  redis.call('HSET', state, 'head', a[first], 'mac', a[first + 1], 'n', a[first + 4], 'hc', a[first + 5])
  redis.call('PEXPIRE', state, a[first + 2])
  redis.call('PEXPIRE', list, a[first + 2])
  return rev
end`;

/** What is stored after a save: the message count and the chain value at that count. */
export interface StoredHistory {
  readonly count: number;
  readonly chain: string;
}

/** A save's payload: the head, the messages to append after `keep` kept ones, and the seal. */
export interface EncodedSave {
  readonly head: string;
  readonly keep: number;
  readonly appended: readonly string[];
  readonly stored: StoredHistory;
  readonly mac: string;
}

/** Signs (id, count, chain, head); '' when the store has no secret. */
export type Signer = (id: string, text: string) => string;

/** The SHA-256 chain extended over `messages` (only used when signing). */
export function extendChain(chain: string, messages: readonly string[]): string {
  let value = chain;
  for (const message of messages) {
    value = createHash('sha256').update(value).update('\n').update(message).digest('hex');
  }
  return value;
}

/** The text the mac covers. */
export function sealText(count: number, chain: string, head: string): string {
  return `${count}\n${chain}\n${head}`;
}

/**
 * Encodes `state` for a save that keeps the first `from.count` stored messages (pass
 * `{count: 0, chain: ''}` for a full rewrite). `signing` says whether the chain is kept.
 */
export function encodeSave(
  state: SessionState,
  from: StoredHistory,
  sign: Signer,
  signing: boolean,
): EncodedSave {
  const { history, ...rest } = state;
  const head = JSON.stringify(rest);
  const appended: string[] = [];
  for (let i = from.count; i < history.length; i++) appended.push(JSON.stringify(history[i]));
  const chain = signing ? extendChain(from.chain, appended) : '';
  const stored = { count: history.length, chain };
  return {
    head,
    keep: from.count,
    appended,
    stored,
    mac: sign(state.id, sealText(stored.count, chain, head)),
  };
}

/** The parts of a stored state as read back. */
export interface StoredParts {
  readonly head: string;
  readonly count: number;
  readonly chain: string;
  readonly mac: string;
  readonly messages: readonly unknown[];
}

/**
 * Checks a stored state's parts and joins them into one state object (unchecked beyond its
 * shape). Throws an Error whose message says what is wrong (the caller names the session).
 */
export function decodeStored(
  id: string,
  parts: StoredParts,
  verify: ((id: string, text: string, mac: string) => boolean) | undefined,
): unknown {
  const texts: string[] = [];
  for (const m of parts.messages) {
    if (typeof m !== 'string') throw new Error('a stored message is not text');
    texts.push(m);
  }
  if (texts.length !== parts.count)
    throw new Error(`it holds ${texts.length} messages where ${parts.count} were saved`);
  if (verify !== undefined) {
    const chain = extendChain('', texts);
    if (chain !== parts.chain || !verify(id, sealText(parts.count, chain, parts.head), parts.mac))
      throw new Error('its signature does not match (altered, or written by another deployment)');
  }
  let head: unknown;
  const history: unknown[] = [];
  try {
    head = JSON.parse(parts.head);
    for (const text of texts) history.push(JSON.parse(text));
  } catch {
    throw new Error('it is not JSON');
  }
  if (head === null || typeof head !== 'object' || Array.isArray(head))
    throw new Error('it is not a state object');
  return { ...head, history };
}

/** The ARGV tail {@link WRITE_STATE} reads, for a save that keeps `from` of the stored history. */
export function writeArguments(
  state: SessionState,
  from: StoredHistory,
  settings: { readonly sign: Signer; readonly signing: boolean },
  ttlMs: number,
): { readonly args: string[]; readonly stored: StoredHistory } {
  const save = encodeSave(state, from, settings.sign, settings.signing);
  return {
    args: [
      save.head,
      save.mac,
      String(ttlMs),
      String(save.keep),
      String(save.stored.count),
      save.stored.chain,
      ...save.appended,
    ],
    stored: save.stored,
  };
}
