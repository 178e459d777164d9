/**
 * The records of the Redis tool-call journal (docs/sessions-redis.md, "The journal is checked"):
 * how one is written and how a journal read back under a fresh lease is checked.
 *
 * A record is one list item: its JSON, which names the revision of the stored state it was written
 * against (`r`); with a secret, the JSON is preceded by its HMAC (64 hex digits) over the session
 * id and the JSON, so a record cannot be forged, altered or copied from another session. Each
 * record is then checked against a schema (types and the snapshot's size caps) and against the
 * records before it (a call belongs to a started turn, a result to a call without one). A record
 * failing any check is refused, by index and reason; nothing it says reaches the session.
 */
import { timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { JournalEntry, JournalRefusal, OpenTurn } from '../session/coordination.js';
import type { Signer } from './redis-snapshot.js';
import { SNAPSHOT_LIMITS } from '../session/snapshot.js';

/** Journal records, as written (one JSON text per list item). */
export type JournalRecord =
  | { readonly t: 'turn'; readonly r: number; readonly turn: number; readonly userText: string }
  | { readonly t: 'call'; readonly r: number; readonly turn: number; readonly entry: JournalEntry }
  | {
      readonly t: 'done';
      readonly r: number;
      readonly turn: number;
      readonly callId: string;
      readonly content: string;
    };

/** How records are signed: the store's signer, and whether it has a secret. */
export interface JournalSigning {
  readonly sign: Signer;
  readonly signing: boolean;
}

/** What a journal read back holds once checked. */
export interface CheckedJournal {
  /** The unsaved turns the accepted records describe, oldest first. */
  readonly openTurns: OpenTurn[];
  /** The refused records, in list order. */
  readonly refused: JournalRefusal[];
  /** Every item not refused, as stored and in order. */
  readonly kept: string[];
  /** The refused items as stored (the same order as {@link refused}). */
  readonly refusedItems: string[];
}

const MAC_HEX = 64;
const HEX_MAC = /^[0-9a-f]{64}/;

// The same caps as the snapshot's (snapshot.ts), so a recovered turn always restores.
const modelName = z.string().max(SNAPSHOT_LIMITS.maxNameLength);
const common = {
  r: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  turn: z.number().int().min(1).max(SNAPSHOT_LIMITS.maxTurns),
};
const recordSchema = z.discriminatedUnion('t', [
  z.strictObject({ t: z.literal('turn'), ...common, userText: z.string() }),
  z.strictObject({
    t: z.literal('call'),
    ...common,
    entry: z.strictObject({ callId: modelName, tool: modelName, arguments: z.string() }),
  }),
  z.strictObject({ t: z.literal('done'), ...common, callId: modelName, content: z.string() }),
]);

/** The text a record's MAC covers (never the text of a snapshot's seal, which starts with a digit). */
function macText(body: string): string {
  return `journal\n${body}`;
}

/** One list item for `record` of session `id`. */
export function encodeRecord(id: string, record: JournalRecord, signing: JournalSigning): string {
  // Spelled out field by field: whatever else an entry object carries is never journaled.
  const body = JSON.stringify(
    record.t === 'call'
      ? {
          t: 'call',
          r: record.r,
          turn: record.turn,
          entry: {
            callId: record.entry.callId,
            tool: record.entry.tool,
            arguments: record.entry.arguments,
          },
        }
      : record,
  );
  return signing.signing ? signing.sign(id, macText(body)) + body : body;
}

/**
 * Checks the journal `items` of session `id`, whose stored state is at `revision`. Records written
 * against another revision (authentic, but older than the stored state) are kept and ignored.
 */
export function checkJournal(
  id: string,
  items: readonly unknown[],
  revision: number,
  signing: JournalSigning,
): CheckedJournal {
  const turns = new Map<number, { turn: number; userText: string; entries: JournalEntry[] }>();
  const out: CheckedJournal = { openTurns: [], refused: [], kept: [], refusedItems: [] };
  items.forEach((item, index) => {
    const reason = checkItem(id, item, revision, signing, turns);
    if (reason === undefined) out.kept.push(item as string);
    else {
      out.refused.push({ index, reason });
      out.refusedItems.push(typeof item === 'string' ? item : String(item));
    }
  });
  out.openTurns.push(...[...turns.values()].sort((a, b) => a.turn - b.turn));
  return out;
}

/** Why `item` is refused, or undefined when it is accepted (and applied to `turns`). */
function checkItem(
  id: string,
  item: unknown,
  revision: number,
  signing: JournalSigning,
  turns: Map<number, { turn: number; userText: string; entries: JournalEntry[] }>,
): string | undefined {
  if (typeof item !== 'string') return 'it is not text';
  const body = unseal(id, item, signing);
  if (typeof body !== 'string') return body.reason;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return 'it is not JSON';
  }
  const parsed = recordSchema.safeParse(value);
  if (!parsed.success) return describeIssues(parsed.error);
  const record = parsed.data;
  if (record.r !== revision) return undefined;
  switch (record.t) {
    case 'turn':
      if (turns.has(record.turn))
        // The same start again carries nothing new: versions before the on-call week wrote it
        // once per call journaled in parallel, and such a journal may meet this one at an upgrade.
        return turns.get(record.turn)?.userText === record.userText
          ? undefined
          : `turn ${record.turn} was already started`;
      turns.set(record.turn, { turn: record.turn, userText: record.userText, entries: [] });
      return undefined;
    case 'call': {
      const open = turns.get(record.turn);
      if (open === undefined) return `it is a call of turn ${record.turn}, which was never started`;
      open.entries.push({ ...record.entry });
      return undefined;
    }
    case 'done': {
      const entries = turns.get(record.turn)?.entries ?? [];
      const i = entries.findIndex((e) => e.callId === record.callId && e.content === undefined);
      const entry = entries[i];
      if (entry === undefined)
        return `it is a result for call ${JSON.stringify(record.callId)}, which has no journaled call awaiting one`;
      entries[i] = { ...entry, content: record.content };
      return undefined;
    }
  }
}

/** The record's JSON, or why it cannot be trusted. */
function unseal(id: string, item: string, signing: JournalSigning): string | { reason: string } {
  const signed = HEX_MAC.test(item);
  // A store without a secret trusts Redis: a signature it cannot check is skipped.
  if (!signing.signing) return signed ? item.slice(MAC_HEX) : item;
  if (!signed) return { reason: 'it is not signed' };
  const body = item.slice(MAC_HEX);
  const want = Buffer.from(signing.sign(id, macText(body)), 'hex');
  const got = Buffer.from(item.slice(0, MAC_HEX), 'hex');
  if (got.length !== want.length || !timingSafeEqual(got, want))
    return {
      reason: 'its signature does not match (forged, altered, or written by another deployment)',
    };
  return body;
}

/** The schema's first few complaints, cut short: a hostile record may carry huge key names. */
function describeIssues(error: z.ZodError): string {
  const shown = error.issues.slice(0, 3).map((issue) => {
    const path = issue.path.map(String).join('.');
    return path === '' ? issue.message : `${path}: ${issue.message}`;
  });
  const text = shown.join('; ');
  const more = error.issues.length > 3 ? '; …' : '';
  return `it does not match the record schema (${text.length > 300 ? `${text.slice(0, 300)}…` : text}${more})`;
}
