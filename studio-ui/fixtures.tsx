/** Run the fixtures folder: pass/fail per fixture, a diff of expected against actual, a timeline. */
import { useEffect, useState } from 'preact/hooks';
import type { FixtureRunView, StudioError } from '../src/studio/protocol.js';
import { call } from './api.js';
import { ErrorBox, Json } from './error-box.js';
import { ItemDetail, Timeline, type Selection } from './timeline.js';

function Diff({ result }: { readonly result: FixtureRunView }) {
  if (result.failures.length === 0 && result.issues.length === 0)
    return <p class="ok">All expectations met.</p>;
  return (
    <div class="diff" data-testid="diff">
      {result.issues.map((i, k) => (
        <p class={i.severity === 'error' ? 'error' : 'warning'} key={`i${k}`}>
          <code>{i.code}</code> {i.file ? `${i.file}: ` : ''}
          {i.path}: {i.message}
        </p>
      ))}
      {result.failures.map((f, k) => (
        <section key={k} class="failure">
          <h4>
            <code>{f.kind}</code>
            {f.turn !== undefined ? ` turn ${f.turn + 1}` : ''}: {f.message}
          </h4>
          {f.mismatches.length > 0 ? (
            <table class="mismatches">
              <thead>
                <tr>
                  <th>where</th>
                  <th>expected</th>
                  <th>actual</th>
                </tr>
              </thead>
              <tbody>
                {f.mismatches.map((m, j) => (
                  <tr key={j}>
                    <td>
                      <code>{m.path}</code>
                      <br />
                      <small>{m.reason}</small>
                    </td>
                    <td class="expected" data-testid="expected">
                      <Json value={m.expected} />
                    </td>
                    <td class="actual" data-testid="actual">
                      <Json value={m.actual} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
        </section>
      ))}
    </div>
  );
}

export function Fixtures(props: { readonly refresh: number }) {
  const [results, setResults] = useState<readonly FixtureRunView[]>([]);
  const [files, setFiles] = useState<readonly string[] | undefined>();
  const [dir, setDir] = useState('');
  const [open, setOpen] = useState<string>();
  const [selected, setSelected] = useState<Selection>();
  const [error, setError] = useState<StudioError>();
  const [running, setRunning] = useState(false);
  const list = async (): Promise<void> => {
    const answer = await call<{ dir: string; files: string[] }>('GET', '/api/fixtures');
    if (answer.ok) {
      setFiles(answer.value.files);
      setDir(answer.value.dir);
    } else setError(answer.error);
  };
  // Listed again after a save, so a new fixture shows at once.
  useEffect(() => void list(), [props.refresh]);
  const run = async (file?: string): Promise<void> => {
    setRunning(true);
    const answer = await call<{ results: FixtureRunView[] }>(
      'POST',
      '/api/fixtures/run',
      file === undefined ? {} : { file },
    );
    setRunning(false);
    await list();
    if (!answer.ok) return setError(answer.error);
    setError(undefined);
    const fresh = answer.value.results;
    setResults(file === undefined ? fresh : [...results.filter((r) => r.file !== file), ...fresh]);
    setOpen(fresh[0]?.file);
    setSelected(undefined);
  };
  const shown = results.find((r) => r.file === open);
  return (
    <div class="fixtures">
      <div class="controls">
        <p class="hint">{dir}</p>
        <button type="button" data-testid="run-all" disabled={running} onClick={() => void run()}>
          {running ? 'Running…' : 'Run all fixtures'}
        </button>
        <ErrorBox error={error} />
        <ul class="fixture-list">
          {(files ?? []).map((f) => {
            const r = results.find((x) => x.file === f);
            return (
              <li key={f}>
                <button
                  type="button"
                  aria-pressed={open === f}
                  data-testid="fixture"
                  data-status={r?.status ?? 'not-run'}
                  onClick={() => (r === undefined ? void run(f) : setOpen(f))}
                >
                  <span class={`badge ${r?.status ?? ''}`}>{r?.status ?? 'not run'}</span>{' '}
                  {f.split('/').at(-1)}
                </button>
              </li>
            );
          })}
        </ul>
      </div>
      <div class="view">
        {shown !== undefined ? (
          <>
            <h2 data-testid="fixture-title">
              <span class={`badge ${shown.status}`}>{shown.status}</span> {shown.name}{' '}
              <small>{shown.durationMs} ms</small>
            </h2>
            <Diff result={shown} />
            <Timeline
              turns={shown.turns}
              selected={selected}
              onSelect={setSelected}
              testid="fixture-timeline"
            />
            <ItemDetail
              turns={shown.turns}
              selected={selected}
              onClose={() => setSelected(undefined)}
            />
          </>
        ) : (
          <p class="hint">Run the fixtures, then open one.</p>
        )}
      </div>
    </div>
  );
}
