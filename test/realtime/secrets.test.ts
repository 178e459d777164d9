/**
 * The model's API key never reaches the host in a Realtime call: a server error echoing it (raw,
 * inside a URL, percent-encoded) is scrubbed with the session's own scrubber, in `onServerError`,
 * `model-error` events and the turn's rejection.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { ScriptedModel } from '../../src/models/scripted.js';
import { attachRealtime } from '../../src/realtime/attach-realtime.js';
import {
  connectRealtime,
  credentialsIn,
  type ClosableRealtimeConnection,
} from '../../src/realtime/connect-realtime.js';
import {
  startRealtimeLoopback,
  type RealtimeLoopback,
} from '../../src/realtime/loopback-server.js';
import type { RealtimeAttachment, RealtimeServerError } from '../../src/realtime/types.js';
import type { SessionEvent } from '../../src/session/types.js';
import { until } from './helpers.js';

const KEY = 'sk-rt-Sc4ub-5e6f7a8b9c';
const LEAKY = `invalid api key ${KEY} (sent to wss://api.example.test/v1/realtime?api-key=${encodeURIComponent(KEY)}&model=m)`;

let server: RealtimeLoopback | undefined;
let connection: ClosableRealtimeConnection | undefined;
let attachment: RealtimeAttachment | undefined;
afterEach(async () => {
  await attachment?.close();
  connection?.close();
  await server?.close();
  attachment = connection = server = undefined;
});

/** A loopback server whose brain fails its first response with the key, then answers. */
async function rig(options: { headers?: Record<string, string>; credentials?: (string | null)[] }) {
  const brain = new ScriptedModel([{ error: `upstream refused: ${LEAKY}` }, { text: 'Back.' }]);
  server = await startRealtimeLoopback({ model: brain });
  connection = await connectRealtime({
    url: server.url,
    ...(options.headers === undefined ? {} : { headers: options.headers }),
  });
  const serverErrors: RealtimeServerError[] = [];
  const events: SessionEvent[] = [];
  attachment = attachRealtime({
    connection,
    ...(options.credentials === undefined ? {} : { credentials: options.credentials }),
    onServerError: (e) => serverErrors.push(e),
    session: { tools: await loadTools([]), onEvent: (e) => events.push(e) },
  });
  await attachment.ready;
  return { serverErrors, events, server, attachment };
}

async function expectScrubbed(r: Awaited<ReturnType<typeof rig>>): Promise<void> {
  r.server.emit({
    type: 'error',
    error: { type: 'invalid_request_error', code: KEY, message: LEAKY },
  });
  await until(() => r.serverErrors.length > 0, 'server error');
  expect(r.serverErrors[0]).toEqual({
    code: '[redacted]',
    message:
      'invalid api key [redacted] (sent to wss://api.example.test/v1/realtime?api-key=[redacted]&model=m)',
  });

  const failed = await r.attachment.session.run('hi').catch((e: unknown) => e);
  expect((failed as Error).name).toBe('ModelError');
  expect((failed as Error).message).toContain('upstream refused: invalid api key [redacted]');
  const modelErrors = r.events.filter((e) => e.type === 'model-error');
  expect(modelErrors).toHaveLength(1);
  const shown = JSON.stringify([r.serverErrors, r.events, (failed as Error).message]);
  expect(shown).not.toContain(KEY);
  expect(shown).not.toContain(encodeURIComponent(KEY));
  expect((await r.attachment.session.run('again')).content).toBe('Back.');
}

describe('Realtime errors are scrubbed of the model’s API key', () => {
  it('the key given as credentials: scrubbed from onServerError, model-error events and rejections', async () => {
    await expectScrubbed(await rig({ credentials: [KEY] }));
  });

  // An OpenAI client's `apiKey` is `string | null`: the documented `[openai.apiKey]` compiles,
  // and a null (a client without a key of its own) is skipped, the others still scrubbed.
  it('a null credential is skipped; the key beside it is scrubbed', async () => {
    await expectScrubbed(await rig({ credentials: [null, KEY] }));
  });

  it('connectRealtime’s Authorization header is known without being repeated', async () => {
    await expectScrubbed(await rig({ headers: { Authorization: `Bearer ${KEY}` } }));
  });

  it('credentialsIn reads key-like headers and query parameters, not the others', () => {
    expect(
      credentialsIn({
        url: 'wss://x.test/v1/realtime?model=gpt-realtime&api-key=q-Key-123456',
        headers: {
          Authorization: 'Bearer tok-123456',
          'OpenAI-Beta': 'realtime=v1',
          'api-key': 'h-Key-123456',
        },
      }),
    ).toEqual(['Bearer tok-123456', 'tok-123456', 'h-Key-123456', 'q-Key-123456']);
  });
});
