/** The conversation: the caller's line, the model's move (manual), the HTTP double, saving. */
import { useState } from 'preact/hooks';
import type { DoubleExchange, StudioError, StudioState, ToolView } from '../src/studio/protocol.js';
import { call } from './api.js';
import { ErrorBox } from './error-box.js';
import { SchemaForm } from './schema-form.js';
import { ItemDetail, Timeline, type Selection } from './timeline.js';

/** The host switches the language between turns (the REPL's `/lang`). */
function LanguagePicker({ state }: { readonly state: StudioState }) {
  const [error, setError] = useState<StudioError>();
  if (state.languages === undefined || state.languages.length < 2) return null;
  return (
    <div class="field">
      <label for="language-pick">Switch language (between turns)</label>
      <select
        id="language-pick"
        value={state.language}
        disabled={state.busy}
        onChange={async (e) => {
          const answer = await call('POST', '/api/language', { language: e.currentTarget.value });
          setError(answer.ok ? undefined : answer.error);
        }}
      >
        {state.languages.map((l) => (
          <option key={l} value={l}>
            {l}
          </option>
        ))}
      </select>
      <ErrorBox error={error} />
    </div>
  );
}

function CallerForm({ state }: { readonly state: StudioState }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<StudioError>();
  return (
    <form
      class="caller"
      onSubmit={async (e) => {
        e.preventDefault();
        const answer = await call('POST', '/api/say', { text });
        if (answer.ok) {
          setText('');
          setError(undefined);
        } else setError(answer.error);
      }}
    >
      <label for="caller-line">Caller says</label>
      <input
        id="caller-line"
        data-testid="caller-input"
        value={text}
        autoFocus
        onInput={(e) => setText(e.currentTarget.value)}
      />
      <button type="submit" disabled={state.busy} data-testid="caller-send">
        Send
      </button>
      {state.busy ? (
        <button
          type="button"
          data-testid="interrupt"
          title="the caller barges in"
          onClick={async () => {
            const answer = await call('POST', '/api/interrupt', {});
            setError(answer.ok ? undefined : answer.error);
          }}
        >
          Barge in
        </button>
      ) : null}
      {state.speechAck === 'host' ? (
        <button
          type="button"
          data-testid="mark-spoken"
          title="the host's player finished every utterance waiting for playback (--speech-ack host)"
          onClick={async () => {
            const answer = await call('POST', '/api/spoken', {});
            setError(answer.ok ? undefined : answer.error);
          }}
        >
          Mark spoken
        </button>
      ) : null}
      <ErrorBox error={error} />
    </form>
  );
}

function ModelPanel({ tools }: { readonly tools: readonly ToolView[] }) {
  const [tool, setTool] = useState(tools[0]?.name ?? '');
  const [reply, setReply] = useState('');
  const [error, setError] = useState<StudioError>();
  const [busy, setBusy] = useState(false);
  const send = async (body: unknown): Promise<void> => {
    setBusy(true);
    const answer = await call('POST', '/api/model', body);
    setBusy(false);
    if (answer.ok) {
      setError(undefined);
      setReply('');
    } else setError(answer.error);
  };
  const chosen = tools.find((t) => t.name === tool);
  return (
    <section class="model" data-testid="model-panel" aria-label="your move as the model">
      <h2>Your move as the model</h2>
      <form
        class="reply"
        onSubmit={(e) => {
          e.preventDefault();
          void send({ type: 'reply', text: reply });
        }}
      >
        <label for="model-reply">Reply</label>
        <input
          id="model-reply"
          data-testid="reply-input"
          value={reply}
          onInput={(e) => setReply(e.currentTarget.value)}
        />
        <button type="submit" disabled={busy} data-testid="reply-send">
          Reply
        </button>
      </form>
      <div class="field">
        <label for="model-tool">or call a tool</label>
        <select
          id="model-tool"
          data-testid="tool-select"
          value={tool}
          onChange={(e) => setTool(e.currentTarget.value)}
        >
          {tools.map((t) => (
            <option key={t.name} value={t.name}>
              {t.name}
            </option>
          ))}
        </select>
      </div>
      {chosen !== undefined ? (
        <SchemaForm
          key={chosen.name}
          tool={chosen.name}
          schema={chosen.parameters}
          busy={busy}
          onSubmit={(args) => void send({ type: 'call', name: chosen.name, arguments: args })}
        />
      ) : null}
      <ErrorBox error={error} />
    </section>
  );
}

function DoublePanel({ state }: { readonly state: StudioState }) {
  const [rows, setRows] = useState<DoubleExchange[]>(
    state.double.length > 0
      ? [...state.double]
      : [{ method: 'POST', url: 'https://', status: 200, body: '{}' }],
  );
  const [error, setError] = useState<StudioError>();
  const [done, setDone] = useState('');
  const apply = async (mode: 'real' | 'double'): Promise<void> => {
    const answer = await call('POST', '/api/http', { mode, exchanges: rows });
    if (answer.ok) {
      setError(undefined);
      setDone(
        mode === 'double' ? `${rows.length} answer(s) declared` : 'endpoint calls go out for real',
      );
    } else setError(answer.error);
  };
  const edit = (i: number, change: Partial<DoubleExchange>): void =>
    setRows(rows.map((r, j) => (j === i ? { ...r, ...change } : r)));
  return (
    <details class="double" open={state.http === 'double'}>
      <summary data-testid="double-toggle">
        HTTP:{' '}
        <strong data-testid="http-mode">
          {state.http === 'double' ? 'HTTP double' : 'real network'}
        </strong>
      </summary>
      {rows.map((r, i) => (
        <fieldset key={i} data-testid={`double-${i}`}>
          <legend>Answer {i + 1}</legend>
          <select
            aria-label="method"
            value={r.method}
            onChange={(e) => edit(i, { method: e.currentTarget.value })}
          >
            {['GET', 'POST', 'PUT', 'DELETE'].map((m) => (
              <option key={m}>{m}</option>
            ))}
          </select>
          <input
            aria-label="URL"
            data-testid="double-url"
            value={r.url}
            onInput={(e) => edit(i, { url: e.currentTarget.value })}
          />
          <input
            aria-label="status"
            type="number"
            data-testid="double-status"
            value={r.status}
            onInput={(e) => edit(i, { status: Number(e.currentTarget.value) })}
          />
          <textarea
            aria-label="response body"
            data-testid="double-body"
            rows={3}
            value={r.body}
            onInput={(e) => edit(i, { body: e.currentTarget.value })}
          />
          <button type="button" onClick={() => setRows(rows.filter((_, j) => j !== i))}>
            remove
          </button>
        </fieldset>
      ))}
      <button
        type="button"
        onClick={() =>
          setRows([...rows, { method: 'GET', url: 'https://', status: 200, body: '{}' }])
        }
      >
        add an answer
      </button>
      <button type="button" data-testid="double-apply" onClick={() => void apply('double')}>
        Use the HTTP double
      </button>
      <button type="button" onClick={() => void apply('real')}>
        Use the real network
      </button>
      <span class="ok">{done}</span>
      <ErrorBox error={error} />
    </details>
  );
}

/** The host's answers to action tools, in a fixture's `actions:` format. */
function ActionsPanel(props: { readonly state: StudioState; readonly tools: readonly ToolView[] }) {
  const actions = props.tools.filter((t) => t.type === 'action');
  const [texts, setTexts] = useState(
    new Map(
      actions.map((t) => {
        const declared = Object.hasOwn(props.state.actions, t.name)
          ? props.state.actions[t.name]
          : undefined;
        return [t.name, declared === undefined ? '' : JSON.stringify(declared)] as const;
      }),
    ),
  );
  const [error, setError] = useState<StudioError>();
  const [done, setDone] = useState('');
  if (actions.length === 0) return null;
  const apply = async (): Promise<void> => {
    const answers: Record<string, unknown> = {};
    for (const [name, text] of texts) {
      if (text.trim() === '') continue;
      try {
        Object.defineProperty(answers, name, { value: JSON.parse(text), enumerable: true });
      } catch (e) {
        setError({ code: 'bad_json', message: `${name}: not JSON: ${(e as Error).message}` });
        return;
      }
    }
    const answer = await call('POST', '/api/actions', { answers });
    if (answer.ok) {
      setError(undefined);
      setDone(`${Object.keys(answers).length} answer(s) declared`);
    } else setError(answer.error);
  };
  return (
    <details class="actions">
      <summary>Actions: the host's answers</summary>
      <p class="hint">
        As a fixture's <code>actions:</code>, e.g. <code>{'{"end_session": true}'}</code>,{' '}
        <code>{'{"result": {…}, "say": "…"}'}</code>, <code>{'{"error": "…"}'}</code>. Empty: the
        action succeeds with its definition's result.
      </p>
      {actions.map((t) => (
        <div class="field" key={t.name}>
          <label for={`action-${t.name}`}>{t.name}</label>
          <textarea
            id={`action-${t.name}`}
            rows={2}
            value={texts.get(t.name) ?? ''}
            onInput={(e) => setTexts(new Map(texts).set(t.name, e.currentTarget.value))}
          />
        </div>
      ))}
      <button type="button" onClick={() => void apply()}>
        Apply
      </button>
      <span class="ok">{done}</span>
      <ErrorBox error={error} />
    </details>
  );
}

function SavePanel({ onSaved }: { readonly onSaved: () => void }) {
  const [name, setName] = useState('');
  const [error, setError] = useState<StudioError>();
  const [saved, setSaved] = useState('');
  return (
    <form
      class="save"
      onSubmit={async (e) => {
        e.preventDefault();
        const answer = await call<{ file: string }>('POST', '/api/save', { name });
        if (answer.ok) {
          setError(undefined);
          setSaved(`saved ${answer.value.file}`);
          onSaved();
        } else {
          setSaved('');
          setError(answer.error);
        }
      }}
    >
      <label for="save-name">Save as fixture</label>
      <input
        id="save-name"
        data-testid="save-name"
        placeholder="name"
        value={name}
        onInput={(e) => setName(e.currentTarget.value)}
      />
      <button type="submit" data-testid="save-submit">
        Save
      </button>
      <button
        type="button"
        onClick={() =>
          void call('POST', '/api/reset').then((a) => setError(a.ok ? undefined : a.error))
        }
      >
        New conversation
      </button>
      <a href="/api/session" download="session.json">
        Download session (toJSON)
      </a>
      <span class="ok" data-testid="save-ok">
        {saved}
      </span>
      <ErrorBox error={error} />
    </form>
  );
}

export function Conversation(props: {
  readonly state: StudioState;
  readonly tools: readonly ToolView[];
  readonly onSaved: () => void;
}) {
  const [selected, setSelected] = useState<Selection>();
  const { state } = props;
  return (
    <div class="conversation">
      <div class="controls">
        <p class="status">
          language <strong data-testid="language">{state.language}</strong> · model {state.model}
          {state.ended ? <span data-testid="session-ended"> · the session has ended</span> : null}
        </p>
        <LanguagePicker state={state} />
        {state.warnings.map((w, i) => (
          <p class="warning" key={i} data-testid="session-warning">
            <code>{w.code}</code> {w.path !== '' ? `${w.path}: ` : ''}
            {w.message}
          </p>
        ))}
        <CallerForm state={state} />
        {state.awaitingModel ? <ModelPanel tools={props.tools} /> : null}
        {state.streaming !== '' ? (
          <p class="streaming" data-testid="streaming">
            {state.streaming}
          </p>
        ) : null}
        <DoublePanel state={state} />
        <ActionsPanel state={state} tools={props.tools} />
        <SavePanel onSaved={props.onSaved} />
      </div>
      <div class="view">
        <Timeline turns={state.turns} selected={selected} onSelect={setSelected} />
        <ItemDetail
          turns={state.turns}
          selected={selected}
          onClose={() => setSelected(undefined)}
        />
      </div>
    </div>
  );
}
