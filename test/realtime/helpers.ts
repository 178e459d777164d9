/**
 * Realtime test set-up: a loopback Realtime server with a scripted brain, the `openai` package's
 * own `OpenAIRealtimeWS` client connected to it, and a session attached through it.
 */
import { readFileSync } from 'node:fs';
import OpenAI from 'openai';
import { OpenAIRealtimeWS } from 'openai/realtime/ws';
import { loadTools } from '../../src/definition/load.js';
import { attachRealtime } from '../../src/realtime/attach-realtime.js';
import {
  startRealtimeLoopback,
  type RealtimeLoopback,
} from '../../src/realtime/loopback-server.js';
import type { RealtimeAttachment, RealtimeServerError } from '../../src/realtime/types.js';
import { ScriptedModel, type ScriptedStep } from '../../src/models/scripted.js';
import type { SessionEvent, SessionOptions } from '../../src/session/types.js';

const CERT = readFileSync(new URL('./data/loopback-cert.pem', import.meta.url), 'utf8');
const KEY = readFileSync(new URL('./data/loopback-key.pem', import.meta.url), 'utf8');

export interface RealtimeRig {
  readonly server: RealtimeLoopback;
  readonly brain: ScriptedModel;
  readonly client: OpenAIRealtimeWS;
  readonly attachment: RealtimeAttachment;
  readonly events: SessionEvent[];
  /** Server event types and `ACTION:<tool>` marks, in the order the client saw them. */
  readonly log: string[];
  readonly serverErrors: RealtimeServerError[];
  /** Client events of a type the server received. */
  sent(type: string): Record<string, unknown>[];
  close(): Promise<void>;
}

export async function realtimeRig(options: {
  tools: unknown;
  steps: readonly ScriptedStep[];
  session?: Partial<Omit<SessionOptions, 'model' | 'tools'>>;
  transcriptWaitMs?: number;
}): Promise<RealtimeRig> {
  const brain = new ScriptedModel(options.steps, { name: 'brain' });
  const server = await startRealtimeLoopback({ model: brain, tls: { key: KEY, cert: CERT } });
  // The `openai` package's own client: it dials wss:, so the loopback server serves TLS.
  const client = new OpenAIRealtimeWS(
    { model: 'gpt-realtime', options: { ca: CERT } },
    new OpenAI({ apiKey: 'sk-loopback', baseURL: server.baseURL }),
  );
  const events: SessionEvent[] = [];
  const log: string[] = [];
  const serverErrors: RealtimeServerError[] = [];
  client.on('event', (e) => log.push(e.type));
  const tools = await loadTools(options.tools);
  const attachment = attachRealtime({
    connection: client,
    ...(options.transcriptWaitMs !== undefined
      ? { transcriptWaitMs: options.transcriptWaitMs }
      : {}),
    onServerError: (e) => serverErrors.push(e),
    session: {
      tools,
      ...options.session,
      onEvent: (e) => {
        events.push(e);
        if (e.type === 'action') log.push(`ACTION:${e.tool}`);
      },
    },
  });
  await attachment.ready;
  return {
    server,
    brain,
    client,
    attachment,
    events,
    log,
    serverErrors,
    sent: (type) => server.received.filter((e) => e.type === type),
    close: async () => {
      await attachment.close();
      client.close();
      await server.close();
    },
  };
}

/** Waits until `check` holds (polling every 5 ms, up to 3 s). */
export async function until(check: () => boolean, what = 'condition'): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > 3000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
