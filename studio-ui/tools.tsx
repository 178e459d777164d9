/** The tool browser: what the model sees, what it does not, warnings in place, and explain. */
import { useState } from 'preact/hooks';
import type { ExplainView, StudioError, ToolView } from '../src/studio/protocol.js';
import { call } from './api.js';
import { ErrorBox, Json } from './error-box.js';
import { TransformSteps } from './timeline.js';

function Explain({ tool }: { readonly tool: ToolView }) {
  const [args, setArgs] = useState('{}');
  const [vars, setVars] = useState('{}');
  const [language, setLanguage] = useState('en-US');
  const [result, setResult] = useState<ExplainView>();
  const [error, setError] = useState<StudioError>();
  return (
    <form
      class="explain"
      data-testid="explain"
      onSubmit={async (e) => {
        e.preventDefault();
        const answer = await call<ExplainView>('POST', '/api/explain', {
          tool: tool.name,
          args,
          vars,
          language,
        });
        if (answer.ok) {
          setResult(answer.value);
          setError(undefined);
        } else {
          setResult(undefined);
          setError(answer.error);
        }
      }}
    >
      <h3>Explain the transforms</h3>
      <label for="explain-args">the model's arguments (JSON)</label>
      <textarea
        id="explain-args"
        data-testid="explain-args"
        rows={3}
        value={args}
        onInput={(e) => setArgs(e.currentTarget.value)}
      />
      <label for="explain-vars">session variables (JSON)</label>
      <textarea
        id="explain-vars"
        rows={2}
        value={vars}
        onInput={(e) => setVars(e.currentTarget.value)}
      />
      <label for="explain-language">language</label>
      <input
        id="explain-language"
        value={language}
        onInput={(e) => setLanguage(e.currentTarget.value)}
      />
      <button type="submit" data-testid="explain-submit">
        Explain
      </button>
      <ErrorBox error={error} />
      {result !== undefined ? (
        <div data-testid="explain-result">
          {result.ok ? null : (
            <p class="error">
              <code>{result.code}</code> {result.message}
            </p>
          )}
          {result.withStatic !== undefined ? (
            <>
              <h4>After static parameters</h4>
              <Json value={result.withStatic} />
            </>
          ) : null}
          <h4>Rules</h4>
          <TransformSteps steps={result.steps} />
          {result.args !== undefined ? (
            <>
              <h4>Final arguments</h4>
              <Json value={result.args} />
            </>
          ) : null}
        </div>
      ) : null}
    </form>
  );
}

function ToolDetail({ tool }: { readonly tool: ToolView }) {
  return (
    <article class="tool" data-testid="tool-detail">
      <h2>
        {tool.name} <span class="badge">{tool.type}</span>{' '}
        <span class="badge">side effects: {tool.sideEffects}</span>
      </h2>
      {tool.description !== undefined ? <p>{tool.description}</p> : null}
      {tool.warnings.map((w, i) => (
        <p class="warning" key={i} data-testid="tool-warning">
          <code>{w.code}</code> {w.path}: {w.message}
        </p>
      ))}
      <h3>What the model sees</h3>
      <Json value={tool.parameters} />
      <h3>Hidden static parameters</h3>
      {tool.staticParameters.length === 0 ? (
        <p class="hint">none</p>
      ) : (
        <Json value={tool.staticParameters} />
      )}
      <h3>Transforms (defaults)</h3>
      {Object.keys(tool.transforms).length === 0 ? (
        <p class="hint">none</p>
      ) : (
        <Json value={tool.transforms} />
      )}
      <h3>Handler</h3>
      <Json value={tool.handler} />
      <h3>Speech</h3>
      <Json value={tool.speech} />
      <Explain key={tool.name} tool={tool} />
    </article>
  );
}

export function Tools(props: { readonly tools: readonly ToolView[]; readonly toolsFile: string }) {
  const [name, setName] = useState(props.tools[0]?.name);
  const tool = props.tools.find((t) => t.name === name);
  return (
    <div class="tools">
      <nav aria-label="tools">
        <p class="hint">{props.toolsFile || 'no tools file'}</p>
        <ul>
          {props.tools.map((t) => (
            <li key={t.name}>
              <button
                type="button"
                aria-pressed={t.name === name}
                data-testid={`tool-${t.name}`}
                onClick={() => setName(t.name)}
              >
                {t.name} <small>{t.type}</small>
                {t.warnings.length > 0 ? (
                  <span class="warn-count"> ⚠ {t.warnings.length}</span>
                ) : null}
              </button>
            </li>
          ))}
        </ul>
      </nav>
      {tool !== undefined ? <ToolDetail tool={tool} /> : <p class="hint">No tool loaded.</p>}
    </div>
  );
}
