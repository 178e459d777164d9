/**
 * A turn's waterfall, built from what the session reported: its events (each stamped with the ms
 * since the turn started), the HTTP exchanges the recording dispatcher saw, the tool traces and
 * the latency report. Pure, so a live turn, a fixture run and a saved session draw the same way.
 */
import type { ModelCallTimings, TurnTimings } from '../observability/types.js';
import { failureInfo } from '../session/failures.js';
import type { SessionEvent, ToolTrace } from '../session/types.js';
import { PlaybackMarks } from './playback.js';
import type { TimelineItem, TimelineTurn } from './protocol.js';

/** A session event and when it arrived, in ms from the turn's start. */
export interface TimedEvent {
  readonly atMs: number;
  readonly event: SessionEvent;
}

/** An HTTP exchange as recorded (bodies already scrubbed of secrets). */
export interface ExchangeDetail {
  readonly request: {
    readonly method: string;
    readonly url: string;
    readonly headers: Readonly<Record<string, string>>;
    readonly body?: string;
  };
  readonly response?: {
    readonly status: number;
    readonly headers?: Readonly<Record<string, string>>;
    readonly body: string;
  };
  readonly error?: string;
}

/** Options of {@link buildTimelineTurn}. */
export interface TimelineTurnOptions {
  readonly index: number;
  readonly user: string;
  readonly running: boolean;
  readonly events: readonly TimedEvent[];
  /** In the order sent; matched to the `http-request` events in order. */
  readonly exchanges: readonly ExchangeDetail[];
  readonly traces?: readonly ToolTrace[];
  readonly timings?: TurnTimings;
  /**
   * `host`: utterances are marked waiting/played, and calls the session made wait for them
   * (`speech-wait` events) flagged while held.
   */
  readonly speechAck?: 'host' | 'auto';
}

/** Draws one turn. */
export function buildTimelineTurn(o: TimelineTurnOptions): TimelineTurn {
  const items: TimelineItem[] = [];
  const tools = new Map<string, { item: TimelineItem; index: number }>();
  const http = new Map<string, number>();
  const utterances = new Map<string, number>();
  const traces = new Map((o.traces ?? []).map((t) => [t.callId, t]));
  const queued = new Map((o.timings?.tools ?? []).map((t) => [t.callId, t.queuedMs]));
  const modelCalls: readonly ModelCallTimings[] = o.timings?.modelCalls ?? [];
  const playback = new PlaybackMarks(o.speechAck === 'host');
  let exchangeIndex = 0;
  let openCalls = 0;
  let modelStart: number | undefined = 0;
  let modelIndex = 0;
  let end: number | undefined;
  const push = (item: TimelineItem): number => items.push(item) - 1;
  const replace = (index: number, item: TimelineItem): void => {
    items[index] = item;
  };
  // A model call starts the turn and again once every call of a round has its result.
  const closeModel = (at: number): void => {
    if (modelStart === undefined) return;
    const timing = modelCalls[modelIndex];
    push({
      id: `model-${modelIndex}`,
      kind: 'model',
      label: `model call ${modelIndex + 1}`,
      startMs: modelStart,
      endMs: timing !== undefined ? modelStart + timing.durationMs : at,
      depth: 0,
      detail: { ...(timing ?? {}) },
    });
    modelIndex += 1;
    modelStart = undefined;
  };
  push({
    id: 'caller',
    kind: 'caller',
    label: o.user,
    startMs: 0,
    depth: 0,
    detail: { user: o.user },
  });
  for (const { atMs, event } of o.events) {
    switch (event.type) {
      case 'turn-start':
      case 'vars':
        break;
      case 'text-delta': {
        const at = utterances.get(event.speechId);
        if (at === undefined) {
          const state = playback.uttered(event.speechId);
          utterances.set(
            event.speechId,
            push({
              id: `speech-${event.speechId}`,
              kind: 'reply',
              label: event.text,
              startMs: atMs,
              depth: 0,
              ...(state !== undefined ? { playback: state } : {}),
              detail: { speechId: event.speechId, text: event.text, source: 'model' },
            }),
          );
        } else {
          const item = items[at]!;
          const text = `${String(item.detail['text'])}${event.text}`;
          replace(at, { ...item, label: text, endMs: atMs, detail: { ...item.detail, text } });
        }
        break;
      }
      case 'tool-call': {
        closeModel(atMs);
        openCalls += 1;
        const trace = traces.get(event.callId);
        const item: TimelineItem = {
          id: `tool-${event.callId}`,
          kind: 'tool',
          label: event.tool,
          startMs: atMs,
          depth: 0,
          detail: {
            callId: event.callId,
            tool: event.tool,
            rawArguments: event.rawArguments,
            ...(event.args !== undefined ? { args: event.args } : {}),
            ...(queued.has(event.callId) ? { queuedMs: queued.get(event.callId) } : {}),
            ...(trace !== undefined ? { transform: trace.transform } : {}),
            ...(trace?.speechWait !== undefined ? { speechWait: trace.speechWait } : {}),
          },
        };
        tools.set(event.callId, { item, index: push(item) });
        break;
      }
      case 'speech-wait': {
        playback.waits(event.callId, event.speechIds);
        const open = tools.get(event.callId);
        // On the call's bar: what it waits for, from when (its trace's `speechWait` says how it ended).
        if (open !== undefined) {
          open.item = {
            ...open.item,
            detail: {
              ...open.item.detail,
              waitsForSpeech: {
                speechIds: event.speechIds,
                maxWaitMs: event.maxWaitMs,
                atMs,
              },
            },
          };
          replace(open.index, open.item);
        }
        break;
      }
      case 'tool-result':
      case 'tool-error': {
        const open = tools.get(event.callId);
        playback.finished(event.callId);
        if (open !== undefined) {
          const failed = event.type === 'tool-error';
          replace(open.index, {
            ...open.item,
            // The studio's own clock, like every other bar; the engine's measure is in the detail.
            endMs: atMs,
            ...(failed ? { code: event.code } : {}),
            detail: {
              ...open.item.detail,
              ...(failed
                ? {
                    error: { code: event.code, message: event.message, retryable: event.retryable },
                    blame: failureInfo({
                      source: 'tool',
                      code: event.code,
                      message: event.message,
                      tool: event.tool,
                      callId: event.callId,
                    }).blame,
                  }
                : { output: event.output }),
              durationMs: Math.round(event.durationSecs * 1000),
            },
          });
        }
        openCalls = Math.max(0, openCalls - 1);
        if (openCalls === 0) modelStart = atMs;
        break;
      }
      case 'http-request': {
        const exchange = o.exchanges[exchangeIndex++];
        const request = event.request;
        http.set(
          `${event.callId}#${request.attempt}`,
          push({
            id: `http-${event.callId}-${request.attempt}`,
            kind: 'http',
            label: `${request.method.toUpperCase()} ${request.url}${request.attempt > 1 ? ` (attempt ${request.attempt})` : ''}`,
            startMs: atMs,
            depth: 1,
            detail: {
              callId: event.callId,
              attempt: request.attempt,
              request: exchange?.request ?? request,
              ...(exchange?.response !== undefined ? { response: exchange.response } : {}),
              ...(exchange?.error !== undefined ? { error: exchange.error } : {}),
            },
          }),
        );
        break;
      }
      case 'http-response': {
        const at = http.get(`${event.callId}#${event.request.attempt}`);
        if (at === undefined) break;
        const item = items[at]!;
        const status = event.request.status;
        replace(at, {
          ...item,
          endMs: atMs,
          label: `${item.label} → ${status ?? 'failed'}`,
          ...(status !== undefined && status >= 400 ? { code: `http_${status}` } : {}),
        });
        break;
      }
      case 'say': {
        const state = playback.uttered(event.speechId);
        push({
          id: `speech-${event.speechId}`,
          kind: 'speech',
          label: `${event.source}: ${event.text}`,
          startMs: atMs,
          depth: event.source === 'tool' ? 0 : 1,
          ...(state !== undefined ? { playback: state } : {}),
          detail: { ...event },
        });
        break;
      }
      case 'spoken': {
        const state = playback.played(event.speechId);
        const item = items.find((i) => i.id === `speech-${event.speechId}`);
        if (item !== undefined) {
          const index = items.indexOf(item);
          replace(index, {
            ...item,
            endMs: atMs,
            ...(state !== undefined ? { playback: state } : {}),
            detail: { ...item.detail, acknowledgedMs: atMs },
          });
        }
        break;
      }
      case 'language':
        push(point('language', `language ${event.from} → ${event.to}`, atMs, event));
        break;
      case 'action':
        push(point('action', `action ${event.tool}`, atMs, event));
        break;
      case 'log':
        push(point('log', `log ${event.tool}`, atMs, event));
        break;
      case 'command':
        // The program a command tool ran, with its argv (secrets scrubbed).
        push(
          point(
            'command',
            `$ ${[event.command.command, ...event.command.argv].join(' ')}`,
            atMs,
            event,
          ),
        );
        break;
      case 'handoff':
        push(point('handoff', `handoff ${event.from} → ${event.to}`, atMs, event));
        break;
      case 'workflow':
        push(point('workflow', `workflow ${event.workflow}: ${event.status}`, atMs, event));
        break;
      case 'max-rounds':
        push({
          ...point('error', `max rounds (${event.rounds})`, atMs, event),
          code: 'max_rounds',
        });
        break;
      case 'interrupted':
        push(
          point(
            'interrupted',
            `interrupted${event.reason ? ` (${event.reason})` : ''}`,
            atMs,
            event,
          ),
        );
        break;
      case 'model-error':
        closeModel(atMs);
        push({
          ...point('error', `model error: ${event.message}`, atMs, event),
          code: event.code,
          detail: {
            ...event,
            blame: failureInfo({ source: 'model', code: event.code, message: event.message }).blame,
          },
        });
        break;
      case 'session-end':
        push(
          point(
            'session-end',
            `session ended${event.reason ? `: ${event.reason}` : ''}`,
            atMs,
            event,
          ),
        );
        break;
      case 'turn-end':
        closeModel(atMs);
        end = event.timings?.totalMs ?? atMs;
        break;
      default: {
        const never: never = event;
        void never;
      }
    }
  }
  if (!o.running) closeModel(end ?? 0);
  for (const [callId, { index }] of tools)
    if (playback.holds(callId)) replace(index, { ...items[index]!, heldBySpeech: true });
  const total = o.timings?.totalMs ?? end;
  return {
    index: o.index,
    user: o.user,
    running: o.running,
    ...(total !== undefined ? { totalMs: total } : {}),
    // In time order (a model call's bar is drawn once it ended); same start: as emitted.
    items: items.every((i) => i.startMs !== undefined)
      ? items
          .map((item, i) => ({ item, i }))
          .sort((a, b) => a.item.startMs! - b.item.startMs! || a.i - b.i)
          .map((x) => x.item)
      : items,
  };
}

function point(
  kind: TimelineItem['kind'],
  label: string,
  atMs: number,
  event: SessionEvent,
): TimelineItem {
  return {
    id: `${kind}-${atMs}-${label}`,
    kind,
    label,
    startMs: atMs,
    depth: 0,
    detail: { ...event },
  };
}

/** Milliseconds to a tenth: enough to order what happened within the same millisecond. */
export function tenths(ms: number): number {
  return Math.round(ms * 10) / 10;
}
