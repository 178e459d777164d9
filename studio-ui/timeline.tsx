/** The waterfall of each turn and the detail of the opened item. */
import { useEffect } from 'preact/hooks';
import type { TimelineItem, TimelineTurn } from '../src/studio/protocol.js';
import { Json } from './error-box.js';

export interface Selection {
  readonly turn: number;
  readonly id: string;
}

function scaleOf(turn: TimelineTurn): number {
  let max = turn.totalMs ?? 0;
  for (const i of turn.items) max = Math.max(max, i.endMs ?? i.startMs ?? 0);
  return Math.max(max, 1);
}

function duration(item: TimelineItem): string {
  if (item.startMs === undefined) return '';
  if (item.endMs === undefined) return `@${item.startMs} ms`;
  return `${Math.round((item.endMs - item.startMs) * 10) / 10} ms`;
}

export function Timeline(props: {
  readonly turns: readonly TimelineTurn[];
  readonly selected: Selection | undefined;
  readonly onSelect: (s: Selection) => void;
  readonly testid?: string;
}) {
  if (props.turns.length === 0) return <p class="hint">No turn yet.</p>;
  return (
    <div class="timeline" data-testid={props.testid ?? 'timeline'}>
      {props.turns.map((turn) => {
        const scale = scaleOf(turn);
        return (
          <section
            class="turn"
            key={turn.index}
            data-testid={`turn-${turn.index + 1}`}
            data-running={String(turn.running)}
          >
            <h3>
              Turn {turn.index + 1}
              {turn.running ? ' (running…)' : ''}
              {turn.totalMs !== undefined ? <span class="ms"> {turn.totalMs} ms</span> : null}
            </h3>
            <ol class="waterfall">
              {turn.items.map((item) => {
                const on = props.selected?.turn === turn.index && props.selected.id === item.id;
                const left = item.startMs !== undefined ? (item.startMs / scale) * 100 : 0;
                const width =
                  item.startMs !== undefined && item.endMs !== undefined
                    ? Math.max(((item.endMs - item.startMs) / scale) * 100, 0.8)
                    : 0.8;
                return (
                  <li key={item.id}>
                    <button
                      type="button"
                      class={`row kind-${item.kind} depth-${item.depth}${on ? ' selected' : ''}`}
                      aria-pressed={on}
                      data-testid={`item-${item.kind}`}
                      data-playback={item.playback}
                      data-waiting={item.heldBySpeech === true ? 'speech' : undefined}
                      onClick={() => props.onSelect({ turn: turn.index, id: item.id })}
                    >
                      <span class="kind">{item.kind}</span>
                      <span class="label" title={item.label}>
                        {item.label}
                      </span>
                      <span class="track">
                        <span class="bar" style={{ left: `${left}%`, width: `${width}%` }} />
                      </span>
                      <span class="ms">
                        {duration(item)}
                        {item.playback === 'waiting' ? ' · waiting for playback' : ''}
                        {item.heldBySpeech === true ? ' · waits for speech' : ''}
                      </span>
                      {item.code !== undefined ? <code class="code">{item.code}</code> : null}
                    </button>
                  </li>
                );
              })}
            </ol>
          </section>
        );
      })}
    </div>
  );
}

function pretty(text: unknown): string {
  if (typeof text !== 'string') return JSON.stringify(text, null, 2);
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function HttpDetail({ detail }: { readonly detail: Readonly<Record<string, unknown>> }) {
  const request = detail['request'] as
    { method: string; url: string; headers?: Record<string, string>; body?: string } | undefined;
  const response = detail['response'] as
    { status: number; headers?: Record<string, string>; body: string } | undefined;
  return (
    <div class="http" data-testid="http-detail">
      {request !== undefined ? (
        <section>
          <h4>
            Request: {request.method.toUpperCase()} {request.url} (attempt{' '}
            {String(detail['attempt'] ?? 1)})
          </h4>
          <Json value={request.headers ?? {}} />
          {request.body !== undefined ? (
            <pre class="json" data-testid="request-body">
              {pretty(request.body)}
            </pre>
          ) : null}
        </section>
      ) : null}
      {response !== undefined ? (
        <section>
          <h4>Response: {response.status}</h4>
          <Json value={response.headers ?? {}} />
          <pre class="json" data-testid="response-body">
            {pretty(response.body)}
          </pre>
        </section>
      ) : null}
      {detail['error'] !== undefined ? (
        <p class="error">
          <code>network</code> {String(detail['error'])}
        </p>
      ) : null}
    </div>
  );
}

function TransformSteps({
  steps,
}: {
  readonly steps: readonly Readonly<Record<string, unknown>>[];
}) {
  if (steps.length === 0) return <p class="hint">No transform rule.</p>;
  return (
    <table class="steps">
      <thead>
        <tr>
          <th>rule</th>
          <th>outcome</th>
          <th>value / reason</th>
        </tr>
      </thead>
      <tbody>
        {steps.map((s, i) => (
          <tr key={i} class={String(s['outcome'])}>
            <td>
              {String(s['action'])} <code>{String(s['key'])}</code>
            </td>
            <td>{String(s['outcome'])}</td>
            <td>
              {s['value'] !== undefined ? <code>{JSON.stringify(s['value'])}</code> : null}
              {s['reason'] !== undefined ? ` ${String(s['reason'])}` : ''}
              {s['detail'] !== undefined ? `: ${String(s['detail'])}` : ''}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export { TransformSteps };

export function ItemDetail(props: {
  readonly turns: readonly TimelineTurn[];
  readonly selected: Selection | undefined;
  readonly onClose: () => void;
}) {
  const { onClose } = props;
  // Escape closes the detail from anywhere.
  useEffect(() => {
    const keys = (e: KeyboardEvent): void => {
      if (e.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', keys);
    return () => window.removeEventListener('keydown', keys);
  }, [onClose]);
  const turn = props.turns.find((t) => t.index === props.selected?.turn);
  const item = turn?.items.find((i) => i.id === props.selected?.id);
  if (item === undefined) return <p class="hint">Open an item of the timeline for its detail.</p>;
  const d = item.detail;
  const error = d['error'] as { code?: string; message?: string } | undefined;
  return (
    <aside class="detail" data-testid="detail" aria-label="item detail">
      <header>
        <h3>
          {item.kind}: {item.label}
        </h3>
        <button type="button" onClick={props.onClose} aria-label="close detail">
          ×
        </button>
      </header>
      <p class="ms">{duration(item)}</p>
      {item.code !== undefined ? (
        <p class="error" data-testid="detail-code">
          <code>{item.code}</code> {error?.message ?? ''}
          {d['blame'] !== undefined ? ` (blame: ${String(d['blame'])})` : ''}
        </p>
      ) : null}
      {item.kind === 'http' ? <HttpDetail detail={d} /> : null}
      {item.kind === 'tool' && Array.isArray(d['transform']) ? (
        <section>
          <h4>Transforms</h4>
          <TransformSteps steps={d['transform'] as Record<string, unknown>[]} />
        </section>
      ) : null}
      {item.kind !== 'http' ? <Json value={d} /> : null}
    </aside>
  );
}
