/**
 * The MCP server's stdio transport: newline-delimited JSON-RPC on a readable and a writable, as
 * the SDK's `StdioServerTransport`, except that a line it cannot take is answered as JSON-RPC 2.0
 * asks (the SDK's reports it to `onerror` and the client waits for an answer that never comes):
 * not JSON → -32700, JSON that is not a JSON-RPC message → -32600, a line over the size cap →
 * -32600. The connection goes on after each.
 */
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  JSONRPCMessageSchema,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';

/** Default {@link McpStdioTransportOptions.maxLineBytes}: the SDK's buffer cap, 10 MiB. */
export const MAX_MCP_STDIO_LINE_BYTES = 10 * 1024 * 1024;

/** Options of {@link mcpStdioTransport}. */
export interface McpStdioTransportOptions {
  /** Where requests come from. Default `process.stdin`. */
  readonly stdin?: Readable;
  /** Where answers go: nothing else is written to it. Default `process.stdout`. */
  readonly stdout?: Writable;
  /** Longest line taken; a longer one is skipped and answered -32600. Default 10 MiB. */
  readonly maxLineBytes?: number;
}

/** A stdio transport for `McpToolServer.connect` that answers a malformed line (see the module). */
export function mcpStdioTransport(options: McpStdioTransportOptions = {}): Transport {
  return new StdioTransport(
    options.stdin ?? process.stdin,
    options.stdout ?? process.stdout,
    options.maxLineBytes ?? MAX_MCP_STDIO_LINE_BYTES,
  );
}

/** What one line holds: a message, or the error answer it gets. */
type Line =
  | { readonly kind: 'message'; readonly message: JSONRPCMessage }
  | { readonly kind: 'refused'; readonly answer: JSONRPCMessage; readonly error: Error };

class StdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #stdin: Readable;
  readonly #stdout: Writable;
  readonly #maxLineBytes: number;
  /** The start of the line being read, and its size in bytes. */
  #parts: Buffer[] = [];
  #held = 0;
  /** Set while the rest of an over-long line is being skipped. */
  #skipping = false;
  #started = false;

  constructor(stdin: Readable, stdout: Writable, maxLineBytes: number) {
    this.#stdin = stdin;
    this.#stdout = stdout;
    this.#maxLineBytes = maxLineBytes;
  }

  async start(): Promise<void> {
    if (this.#started) throw new Error('the stdio transport is already started');
    this.#started = true;
    this.#stdin.on('data', this.#onData);
    this.#stdin.on('error', this.#onError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.#stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.#stdout.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    this.#stdin.off('data', this.#onData);
    this.#stdin.off('error', this.#onError);
    if (this.#stdin.listenerCount('data') === 0) this.#stdin.pause();
    this.#parts = [];
    this.#held = 0;
    this.onclose?.();
  }

  readonly #onError = (error: Error): void => this.onerror?.(error);

  readonly #onData = (chunk: Buffer | string): void => {
    let rest = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (let end = rest.indexOf(0x0a); end !== -1; end = rest.indexOf(0x0a)) {
      this.#endLine(rest.subarray(0, end));
      rest = rest.subarray(end + 1);
    }
    if (rest.length > 0) this.#hold(rest);
  };

  /** A line's start, kept until its end arrives (parts, not a buffer re-copied per chunk). */
  #hold(part: Buffer): void {
    if (this.#skipping) return;
    this.#held += part.length;
    if (this.#held <= this.#maxLineBytes) {
      this.#parts.push(part);
      return;
    }
    // Dropped as it grows past the cap, not held in memory; its end gets the answer.
    this.#parts = [];
    this.#held = 0;
    this.#skipping = true;
  }

  #endLine(tail: Buffer): void {
    const tooBig = this.#skipping || this.#held + tail.length > this.#maxLineBytes;
    const parts = this.#parts;
    this.#parts = [];
    this.#held = 0;
    this.#skipping = false;
    if (tooBig) this.#refuse(tooLong(this.#maxLineBytes));
    else this.#take((parts.length === 0 ? tail : Buffer.concat([...parts, tail])).toString('utf8'));
  }

  #take(text: string): void {
    // A blank line (a client's stray newline) holds no request, so it gets no answer.
    if (text.trim() === '') return;
    const line = parseLine(text);
    if (line.kind === 'message') this.onmessage?.(line.message);
    else this.#refuse(line);
  }

  #refuse(line: Extract<Line, { kind: 'refused' }>): void {
    this.onerror?.(line.error);
    void this.send(line.answer);
  }
}

/** One line as a JSON-RPC message, or the answer that refuses it. */
function parseLine(text: string): Line {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return refused(ErrorCode.ParseError, `Parse error: the line is not JSON (${reason})`, null);
  }
  const parsed = JSONRPCMessageSchema.safeParse(value);
  if (parsed.success) return { kind: 'message', message: parsed.data };
  return refused(
    ErrorCode.InvalidRequest,
    `Invalid Request: the line is JSON but not a JSON-RPC 2.0 message (${summary(value)})`,
    requestIdOf(value),
  );
}

/**
 * The id to answer with: a request's own id when it has a usable one (its caller is waiting on
 * it), else null, as JSON-RPC 2.0 says when the id cannot be told.
 */
function requestIdOf(value: unknown): RequestId | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  if (!Object.hasOwn(value, 'method') || !Object.hasOwn(value, 'id')) return null;
  const id: unknown = (value as { id: unknown }).id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id)) ? id : null;
}

/** What was wrong with a JSON value, in a few words. */
function summary(value: unknown): string {
  if (Array.isArray(value)) return 'an array: batches are not part of MCP';
  if (typeof value !== 'object' || value === null)
    return `${value === null ? 'null' : typeof value}, not an object`;
  const v = value as Record<string, unknown>;
  if (!Object.hasOwn(v, 'jsonrpc') || v['jsonrpc'] !== '2.0') return '"jsonrpc" must be "2.0"';
  if (Object.hasOwn(v, 'method') && typeof v['method'] !== 'string')
    return '"method" must be a string';
  return 'not a request, notification or response';
}

function tooLong(max: number): Extract<Line, { kind: 'refused' }> {
  return refused(ErrorCode.InvalidRequest, `Invalid Request: the line is over ${max} bytes`, null);
}

function refused(
  code: ErrorCode,
  message: string,
  id: RequestId | null,
): Extract<Line, { kind: 'refused' }> {
  // The SDK's message type has no null id; JSON-RPC 2.0 answers an unknown one with null.
  const answer = { jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage;
  return { kind: 'refused', answer, error: new Error(message) };
}
