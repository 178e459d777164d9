/** The studio's page: tabs over the conversation, the tools, the fixtures and saved sessions. */
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { IssueView, StudioError, StudioState, ToolView } from '../src/studio/protocol.js';
import { call } from './api.js';
import { Conversation } from './conversation.js';
import { ErrorBox } from './error-box.js';
import { Fixtures } from './fixtures.js';
import { OpenSession } from './open-session.js';
import { Tools } from './tools.js';

const TABS = [
  ['conversation', 'Conversation'],
  ['tools', 'Tools'],
  ['fixtures', 'Fixtures'],
  ['session', 'Open session'],
] as const;
type Tab = (typeof TABS)[number][0];

function App() {
  const [tab, setTab] = useState<Tab>('conversation');
  const [state, setState] = useState<StudioState>();
  const [tools, setTools] = useState<{
    toolsFile: string;
    tools: ToolView[];
    warnings: IssueView[];
  }>();
  const [error, setError] = useState<StudioError>();
  const [saved, setSaved] = useState(0);
  const [connected, setConnected] = useState(false);
  useEffect(() => {
    void call<{ toolsFile: string; tools: ToolView[]; warnings: IssueView[] }>(
      'GET',
      '/api/tools',
    ).then((a) => (a.ok ? setTools(a.value) : setError(a.error)));
    const events = new EventSource('/api/events');
    events.addEventListener('state', (e) => {
      setConnected(true);
      setState(JSON.parse((e as MessageEvent<string>).data) as StudioState);
    });
    events.onerror = () => setConnected(false);
    // Alt+1…4 switch tabs from anywhere.
    const keys = (e: KeyboardEvent): void => {
      const i = Number(e.key) - 1;
      if (e.altKey && TABS[i] !== undefined) {
        e.preventDefault();
        setTab(TABS[i][0]);
      }
    };
    window.addEventListener('keydown', keys);
    return () => {
      events.close();
      window.removeEventListener('keydown', keys);
    };
  }, []);
  return (
    <>
      <header>
        <h1>switchboard studio</h1>
        <nav role="tablist" aria-label="views">
          {TABS.map(([id, label], i) => (
            <button
              type="button"
              role="tab"
              key={id}
              aria-selected={tab === id}
              data-testid={`tab-${id}`}
              title={`Alt+${i + 1}`}
              onClick={() => setTab(id)}
            >
              {label}
            </button>
          ))}
        </nav>
        <span class={connected ? 'live' : 'offline'} data-testid="connection">
          {connected ? 'live' : 'not connected'}
        </span>
      </header>
      <ErrorBox error={error} />
      <main>
        {tab === 'conversation' && state !== undefined ? (
          <Conversation
            state={state}
            tools={tools?.tools ?? []}
            onSaved={() => setSaved(saved + 1)}
          />
        ) : null}
        {tab === 'tools' ? (
          <Tools tools={tools?.tools ?? []} toolsFile={tools?.toolsFile ?? ''} />
        ) : null}
        {tab === 'fixtures' ? <Fixtures refresh={saved} /> : null}
        {tab === 'session' ? <OpenSession /> : null}
      </main>
    </>
  );
}

render(<App />, document.getElementById('app')!);
