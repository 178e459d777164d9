/**
 * A fixture turn's scripted speech points (docs/voice.md): `spoken` acknowledgements and the
 * `interrupt_after` barge-in, fired from the turn's events (run-fixture.ts).
 */
import type { Session, SessionEvent } from '../session/types.js';
import type { FixtureTurn } from './fixture-schema.js';

type SpeechPoint = NonNullable<FixtureTurn['spoken']>[number];

/**
 * The turn's scripted acknowledgements (`spoken`) and barge-in (`interrupt_after`): each fires once,
 * `after_ms` after the first utterance whose text (so far) contains its text; a point that matched
 * nothing is reported by `unmatched()`.
 */
export function speechPoints(
  session: Session,
  turn: FixtureTurn,
  timers: NodeJS.Timeout[],
): { onEvent(event: SessionEvent): void; unmatched(): string[] } {
  const norm = (p: SpeechPoint) =>
    typeof p === 'string' ? { text: p, after_ms: 0 } : { text: p.text, after_ms: p.after_ms ?? 0 };
  const acks = (turn.spoken ?? []).map(norm);
  let barge = turn.interrupt_after === undefined ? undefined : norm(turn.interrupt_after);
  const at = (ms: number, run: () => void): void => {
    if (ms === 0) queueMicrotask(run);
    else timers.push(setTimeout(run, ms));
  };
  // An utterance streams in deltas: a point matches the utterance's text so far.
  const heard = new Map<string, string>();
  const onEvent = (event: SessionEvent): void => {
    if (event.type !== 'say' && event.type !== 'text-delta') return;
    const id = event.speechId;
    const text = (heard.get(id) ?? '') + event.text;
    heard.set(id, text);
    for (let i = acks.length - 1; i >= 0; i--) {
      const a = acks[i];
      if (a === undefined || !text.includes(a.text)) continue;
      acks.splice(i, 1);
      at(a.after_ms, () => session.spoken(id));
    }
    if (barge !== undefined && text.includes(barge.text)) {
      const b = barge;
      barge = undefined;
      at(b.after_ms, () => session.interrupt());
    }
  };
  const unmatched = (): string[] => [
    ...acks.map((a) => a.text),
    ...(barge === undefined ? [] : [barge.text]),
  ];
  return { onEvent, unmatched };
}
