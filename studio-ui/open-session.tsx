/** Open a saved session (`session.toJSON()`) on the timeline. */
import { useState } from 'preact/hooks';
import type { StudioError, TimelineTurn } from '../src/studio/protocol.js';
import { call } from './api.js';
import { ErrorBox } from './error-box.js';
import { ItemDetail, Timeline, type Selection } from './timeline.js';

export function OpenSession() {
  const [text, setText] = useState('');
  const [turns, setTurns] = useState<readonly TimelineTurn[]>([]);
  const [selected, setSelected] = useState<Selection>();
  const [error, setError] = useState<StudioError>();
  const open = async (json: string): Promise<void> => {
    let session: unknown;
    try {
      session = JSON.parse(json);
    } catch (e) {
      setError({ code: 'bad_json', message: `not JSON: ${(e as Error).message}` });
      return;
    }
    const answer = await call<{ turns: TimelineTurn[] }>('POST', '/api/open-session', { session });
    if (answer.ok) {
      setTurns(answer.value.turns);
      setError(undefined);
    } else setError(answer.error);
  };
  return (
    <div class="open-session">
      <form
        class="controls"
        onSubmit={(e) => {
          e.preventDefault();
          void open(text);
        }}
      >
        <label for="session-file">A saved session (the JSON of session.toJSON())</label>
        <input
          id="session-file"
          type="file"
          accept=".json,application/json"
          onChange={async (e) => {
            const file = e.currentTarget.files?.[0];
            if (file !== undefined) {
              const content = await file.text();
              setText(content);
              void open(content);
            }
          }}
        />
        <label for="session-json">or paste it</label>
        <textarea
          id="session-json"
          data-testid="session-json"
          rows={8}
          value={text}
          onInput={(e) => setText(e.currentTarget.value)}
        />
        <button type="submit" data-testid="session-open">
          Open
        </button>
        <ErrorBox error={error} />
      </form>
      <div class="view">
        <Timeline
          turns={turns}
          selected={selected}
          onSelect={setSelected}
          testid="session-timeline"
        />
        <ItemDetail turns={turns} selected={selected} onClose={() => setSelected(undefined)} />
      </div>
    </div>
  );
}
