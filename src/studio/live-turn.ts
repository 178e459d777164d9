/**
 * One turn of the studio's conversation as it runs (studio-session.ts): what the caller said, its
 * timed events, where its model steps, exchanges and command runs start in the recordings, and
 * how it drew on the page's timeline (timeline.ts), with the studio's own error when it failed.
 */
import type { RecordedExchange } from '../harness/recording-dispatcher.js';
import type { TurnResult } from '../session/types.js';
import type { TimelineTurn } from './protocol.js';
import { buildTimelineTurn, type TimedEvent } from './timeline.js';

export interface LiveTurn {
  readonly user: string;
  readonly startedAt: number;
  readonly events: TimedEvent[];
  readonly stepsBefore: number;
  readonly httpBefore: number;
  readonly runsBefore: number;
  running: boolean;
  result?: TurnResult;
  error?: { code: string; message: string };
}

/** The turn as the timeline draws it; `exchanges` are the conversation's, from its first. */
export function liveTimeline(
  turn: LiveTurn,
  index: number,
  exchanges: readonly RecordedExchange[],
  speechAck: 'host' | 'auto',
): TimelineTurn {
  const drawn = buildTimelineTurn({
    index,
    user: turn.user,
    running: turn.running,
    events: turn.events,
    exchanges: exchanges.slice(turn.httpBefore),
    ...(turn.result !== undefined
      ? { traces: turn.result.traces, timings: turn.result.timings }
      : {}),
    speechAck,
  });
  if (turn.error === undefined) return drawn;
  const at = turn.events.at(-1)?.atMs ?? 0;
  return {
    ...drawn,
    items: [
      ...drawn.items,
      {
        id: 'turn-error',
        kind: 'error',
        label: turn.error.message,
        startMs: at,
        depth: 0,
        code: turn.error.code,
        detail: { ...turn.error },
      },
    ],
  };
}
