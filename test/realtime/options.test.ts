// attachRealtime and connectRealtime check their own options when called; the nested `session`
// options are createSession's, checked there.
import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import {
  attachRealtime,
  connectRealtime,
  type AttachRealtimeOptions,
  type ConnectRealtimeOptions,
} from '../../src/entries/realtime.js';
import { DefinitionError, type DefinitionIssue } from '../../src/errors.js';

type Loose = Record<string, unknown>;
const tools = await loadTools([]);
const connection = { send: () => undefined, on: () => undefined };

function issuesOf(call: () => unknown): string[] {
  try {
    call();
  } catch (error) {
    expect(error).toBeInstanceOf(DefinitionError);
    return (error as DefinitionError).issues.map((i) => `${i.path}: ${i.message}`);
  }
  throw new Error('expected the call to be refused');
}
const attach = (options: Loose) => () =>
  attachRealtime(options as unknown as AttachRealtimeOptions);

describe('attachRealtime checks its options when called', () => {
  it.each<[string, Loose, string[]]>([
    [
      'no connection (was a TypeError reading `credentials`)',
      { session: { tools } },
      ['connection: is required'],
    ],
    [
      'a connection that is a URL',
      { connection: 'wss://api.openai.com/v1/realtime', session: { tools } },
      ['connection: expected a Realtime connection (connectRealtime(...)), got a string'],
    ],
    [
      'the session options at the top level (was "tools: is required" from createSession)',
      { connection, tools },
      ['session: is required'],
    ],
    [
      'a string transcript wait, a credential that is not text, an onServerError that is none',
      {
        connection,
        session: { tools },
        transcriptWaitMs: '500',
        credentials: [undefined],
        onServerError: true,
      },
      [
        'transcriptWaitMs: expected an integer from 0 to 2147483647, got a string',
        'credentials[0]: expected a string or null, got nothing (undefined)',
        'onServerError: expected a function, got a boolean',
      ],
    ],
  ])('%s', (_name, options, issues) => {
    expect(issuesOf(attach(options))).toEqual(issues);
  });

  it("the session's own options are still createSession's", () => {
    expect(issuesOf(attach({ connection, session: { tools, maxCalls: '2' } }))).toEqual([
      'maxCalls: expected an integer of at least 1, got a string',
    ]);
  });

  it("an unknown key warns to the session's onWarning; correct options attach", async () => {
    const warnings: string[] = [];
    const attached = attachRealtime({
      connection,
      session: {
        tools,
        onWarning: (w: DefinitionIssue) => warnings.push(`${w.path}: ${w.message}`),
      },
      transcriptWait: 10,
    } as unknown as AttachRealtimeOptions);
    expect(warnings).toEqual([
      'transcriptWait: is not a known option (did you mean `transcriptWaitMs`?); it is ignored',
    ]);
    await attached.session.close();
  });
});

describe('connectRealtime checks its options before connecting', () => {
  it('a number url, text that is not a ws: URL, and headers that are not text', async () => {
    const connect = (options: Loose) =>
      connectRealtime(options as unknown as ConnectRealtimeOptions);
    await expect(connect({ url: 5, headers: { Authorization: 1 } })).rejects.toThrow(
      'invalid connectRealtime options:\n  url: expected a non-empty string, got a number\n  headers.Authorization: expected a string, got a number',
    );
    await expect(connect({ url: 'api.openai.com/v1/realtime?api-key=sk-123' })).rejects.toThrow(
      'invalid connectRealtime options:\n  url: expected a ws: or wss: URL, got text that is not a URL',
    );
    await expect(connect({ url: 'ftp://127.0.0.1/x' })).rejects.toThrow(
      'invalid connectRealtime options:\n  url: expected a ws: or wss: URL, got a ftp: URL',
    );
    // The URL (its query may hold the key) is never in the message.
    await expect(connect({ url: 'not a url sk-123' })).rejects.not.toThrow(/sk-123/);
    await expect(connect({ headers: 'Bearer x' })).rejects.toThrow(
      'invalid connectRealtime options:\n  url: is required\n  headers: expected an object, got a string',
    );
  });
});
