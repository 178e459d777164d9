/**
 * How the harness reaches the model: directly (the text turn loop calls the fixture's scripted
 * model) or through the Realtime transport (`switchboard test --realtime`): a loopback Realtime
 * server whose brain is the fixture's scripted model, a WebSocket, and {@link attachRealtime}. The
 * same fixtures then check both transports.
 */
import { attachRealtime } from '../realtime/attach-realtime.js';
import { connectRealtime } from '../realtime/connect-realtime.js';
import { startRealtimeLoopback } from '../realtime/loopback-server.js';
import type { RealtimeAttachment } from '../realtime/types.js';
import { createSession } from '../session/create-session.js';
import type { Model } from '../models/types.js';
import type { Session, SessionOptions } from '../session/types.js';
import { changedState, changeSession, type SessionChanges } from './session-changes.js';

/** Which transport a fixture runs over. */
export type FixtureTransportName = 'text' | 'realtime';

/** Opens sessions for one fixture run. */
export interface FixtureTransport {
  /** Starts the session; `options.model` is the fixture's scripted model. */
  open(options: SessionOptions): Session;
  /** Applies a turn's `before:` changes. */
  change(session: Session, changes: SessionChanges, options: SessionOptions): Promise<Session>;
  close(): Promise<void>;
}

/** The transport for one fixture run, talking to `brain`. */
export async function openFixtureTransport(
  name: FixtureTransportName,
  brain: Model,
): Promise<FixtureTransport> {
  if (name === 'text') {
    return {
      open: (options) => createSession(options),
      change: changeSession,
      close: async () => undefined,
    };
  }
  const server = await startRealtimeLoopback({ model: brain });
  const connection = await connectRealtime({ url: server.url }).catch(async (error: unknown) => {
    await server.close();
    throw error;
  });
  let attachment: RealtimeAttachment | undefined;
  return {
    open: ({ model: _brain, ...session }) => {
      attachment = attachRealtime({ connection, session });
      return attachment.session;
    },
    change: async (session, changes) => {
      if (attachment === undefined) throw new Error('the realtime session was never opened');
      return attachment.restore(changedState(session.toJSON(), changes));
    },
    close: async () => {
      await attachment?.close();
      connection.close();
      await server.close();
    },
  };
}
