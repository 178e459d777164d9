/**
 * Reading and checking a `POST /run_agent` request: its content type, its size, its JSON, its
 * nesting depth and its fields. Every client mistake becomes an {@link HttpProblem} (4xx) naming
 * the field, so that nothing the client sends reaches the run as a crash (a 500).
 */
import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import { AgentConfigError } from '../agent-format/agent-config.js';
import {
  parseChatHistory,
  roleOf,
  type ChatHistoryInput,
  type ChatHistoryItem,
} from '../agent-format/chat-history.js';
import { closestName } from '../did-you-mean.js';

/** Deepest nesting of the request's JSON (objects and arrays); deeper is a 400 naming the field. */
export const MAX_BODY_DEPTH = 64;

/** Thrown while reading a request that cannot be served; becomes its JSON answer. */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

/** The request's fields after checking. */
export interface AgentRequest {
  readonly prompt: string;
  readonly history?: ChatHistoryInput;
  readonly memory?: string | readonly string[] | Readonly<Record<string, unknown>>;
  readonly config?: Readonly<Record<string, unknown>>;
}

const historySchema = z.union(
  [
    z.string(),
    z.array(z.string()),
    // Items (and lists mixing items and lines) are checked by the run's own parser, which names
    // the item and field at fault (`chat_history[2].content: expected a string`); a schema here
    // could only say that the whole history is wrong. Loose: OpenAI's tool fields are kept.
    z.array(z.union([z.string(), z.looseObject({})])),
  ],
  { error: 'expected a string, a list of lines, or a list of { role, content }' },
);

const bodySchema = z.object(
  {
    prompt: z.string({
      error: (issue) => (issue.input === undefined ? 'is required' : 'expected a string'),
    }),
    chat_history: historySchema.optional(),
    chatHistory: historySchema.optional(),
    memory: z
      .union([z.string(), z.array(z.string()), z.record(z.string(), z.unknown())], {
        error: 'expected a string, a list of strings, or an object',
      })
      .optional(),
    config: z.record(z.string(), z.unknown(), { error: 'expected an object' }).optional(),
  },
  { error: 'expected a JSON object { prompt, chat_history?, memory?, config? }' },
);

/** The body's known fields: a key among them is no misspelling of another. */
const BODY_FIELDS: readonly string[] = Object.keys(bodySchema.shape);

/**
 * 415 unless the content type is JSON (`application/json`, `application/*+json`). A request
 * without one is read as JSON (a bare `curl --data-binary` or a script that never sets it).
 */
export function checkContentType(req: IncomingMessage): void {
  const header = req.headers['content-type'];
  if (header === undefined || header.trim() === '') return;
  const type = (header.split(';', 1)[0] ?? '').trim().toLowerCase();
  if (type === 'application/json' || /^application\/[\w.+-]+\+json$/.test(type)) return;
  throw new HttpProblem(
    415,
    'unsupported_media_type',
    `content-type ${JSON.stringify(header)} is not JSON; send application/json`,
  );
}

/** Parses and checks a body's text. */
export function parseAgentRequest(text: string): AgentRequest {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new HttpProblem(400, 'invalid_json', `the body is not JSON: ${(error as Error).message}`);
  }
  const tooDeep = deepestField(raw, MAX_BODY_DEPTH);
  if (tooDeep !== undefined)
    throw new HttpProblem(
      400,
      'invalid_request',
      `${tooDeep}: nests deeper than ${MAX_BODY_DEPTH} levels`,
      tooDeep,
    );
  const parsed = bodySchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = (issue?.path ?? []).map(String).join('.');
    throw new HttpProblem(
      400,
      'invalid_request',
      field === ''
        ? (issue?.message ?? 'invalid body')
        : `${field}: ${issue?.message ?? 'invalid'}${misspeltAs(raw, field)}`,
      field === '' ? undefined : field,
    );
  }
  const body = parsed.data;
  if (body.chat_history !== undefined && body.chatHistory !== undefined)
    throw new HttpProblem(
      400,
      'invalid_request',
      'chat_history: given as both chat_history and chatHistory; give one',
      'chat_history',
    );
  const field = body.chat_history !== undefined ? 'chat_history' : 'chatHistory';
  const given = body.chat_history ?? body.chatHistory;
  const history = given === undefined ? undefined : checkHistory(given, field);
  return {
    prompt: body.prompt,
    ...(history === undefined ? {} : { history }),
    ...(body.memory === undefined ? {} : { memory: body.memory }),
    ...(body.config === undefined ? {} : { config: body.config }),
  };
}

/** ` (the body has "promt"; did you mean prompt?)` when a missing field is misspelt in `raw`. */
function misspeltAs(raw: unknown, field: string): string {
  if (typeof raw !== 'object' || raw === null || Object.hasOwn(raw, field)) return '';
  const known = new Set(BODY_FIELDS);
  for (const key of Object.keys(raw))
    if (!known.has(key) && closestName({ name: key, candidates: [field] }) === field)
      return ` (the body has ${JSON.stringify(key)}; did you mean ${field}?)`;
  return '';
}

/**
 * The top-level field under which `value` nests deeper than `limit`, or undefined. Iterative: a
 * body 150 000 levels deep parses (JSON.parse is not recursive) but overflows the stack of every
 * recursive walk after it (JSON.stringify of `memory`, schema checks).
 */
function deepestField(value: unknown, limit: number): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const stack: [unknown, number, string][] = Object.entries(value).map(([k, v]) => [v, 2, k]);
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [node, depth, field] = top;
    if (typeof node !== 'object' || node === null) continue;
    if (depth > limit) return field;
    for (const child of Object.values(node)) stack.push([child, depth + 1, field]);
  }
  return undefined;
}

/** A `label:` at the start of a line: a role the history format may name. */
const LABEL = /^\s*([A-Za-z][\w-]*)\s*:/;
/** Roles of chat formats that the history format has no place for (not prose like "Note:"). */
const FOREIGN_ROLES = new Set(['system', 'developer', 'tool', 'function']);
const ROLES = 'user (or human, customer, caller) or assistant (or ai, agent, bot)';

/**
 * Refuses history the run would drop silently: a message with an unknown role, a list line that
 * names no role (or is empty), text before the first role line, a line labelled with another chat
 * format's role (`system: …`). Continuation lines of a message (no label) stay allowed.
 */
function checkHistory(
  history: string | readonly (string | Readonly<Record<string, unknown>>)[],
  field: string,
): ChatHistoryInput {
  const bad = (where: string, message: string): never => {
    throw new HttpProblem(400, 'invalid_request', `${where}: ${message}`, where);
  };
  if (typeof history === 'string') {
    checkLines(history.split(/\r?\n/), field, bad, false);
    return history;
  }
  const lines = history.filter((item) => typeof item === 'string');
  if (lines.length === history.length) {
    lines.forEach((item, i) => checkLines(item.split(/\r?\n/), `${field}[${i}]`, bad, true));
    return lines;
  }
  // Items: the run's own parser decides (system kept, tool only answering an earlier call), and
  // names the item at fault; a list mixing lines and items is refused there too.
  const items = history as unknown as readonly ChatHistoryItem[];
  try {
    parseChatHistory(items, field);
  } catch (error) {
    if (error instanceof AgentConfigError)
      throw new HttpProblem(400, 'invalid_request', error.message, error.path);
    throw error;
  }
  return items;
}

function checkLines(
  lines: readonly string[],
  where: string,
  bad: (where: string, message: string) => never,
  isItem: boolean,
): void {
  let seenRole = false;
  lines.forEach((line, n) => {
    const lineNo = lines.length === 1 ? '' : `line ${n + 1} `;
    const label = LABEL.exec(line)?.[1];
    if (label !== undefined && roleOf(label) !== undefined) {
      seenRole = true;
      return;
    }
    if (label !== undefined && FOREIGN_ROLES.has(label.toLowerCase()))
      // Said as runAgent says it: the role is known, the text form just has no place for it.
      bad(
        where,
        `${lineNo}names the role ${JSON.stringify(label)}, which the text form has no place for; send items { role, content } instead`,
      );
    if (seenRole) return;
    if (line.trim() === '') {
      if (isItem) bad(where, `${lineNo}is empty; a line is "<role>: <text>" with role ${ROLES}`);
      return;
    }
    bad(
      where,
      `${lineNo}names no role, so it would be dropped; start it with "user: " or "assistant: "`,
    );
  });
}

/** Reads the body as UTF-8 text, refusing it (413) as soon as it passes `limit` bytes. */
export function readBody(req: IncomingMessage, limit: number): Promise<string> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(tooLarge(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
    // A client gone before its body ended: nothing to answer (and 'end' never comes).
    req.on('close', () => {
      if (!req.complete) reject(new HttpProblem(400, 'client_closed', 'the client went away'));
    });
  });
}

function tooLarge(limit: number): HttpProblem {
  return new HttpProblem(413, 'body_too_large', `the body is larger than ${limit} bytes`);
}
