/**
 * The narrated transcript of a fixture run (`switchboard simulate`): the caller's words, what the
 * model asked for (arguments before and after transforms), the HTTP request on the wire and its
 * answer, spoken lines, language changes, the reply, and whether each turn met its expectations.
 * A {@link FixtureObserver} writing lines; colour is a flag.
 */
import type { TurnTimings } from '../observability/types.js';
import type { SessionEvent } from '../session/types.js';
import type { FixtureFailure } from './fixture-result.js';
import type { HttpExchange } from './fixture-schema.js';
import type { LoadedFixture } from './load-fixture.js';
import type { ObservedTurn } from './observe.js';
import type { RecordedRequest } from './recorded-request.js';
import { failureLines, showValue } from './reporters/format-failure.js';
import { responseBody } from './http-double.js';
import type { FixtureObserver } from './run-fixture.js';

/** Options of {@link createNarrator}. */
export interface NarratorOptions {
  /** Receives each line (without newline). */
  readonly write: (line: string) => void;
  /** ANSI colours. Default false. */
  readonly color?: boolean;
  /** Print each turn's latency report. Default false. */
  readonly timings?: boolean;
  /**
   * Show each utterance's speech id (to acknowledge with `/spoken`). Default: when the fixture's
   * session has `speech_ack: host`.
   */
  readonly speechIds?: boolean;
  /**
   * What the reader can do about a call waiting for playback (the REPL's `playback>` prompt),
   * appended to its `wait` line; undefined adds nothing. Default: nothing (a fixture run has no
   * reader).
   */
  readonly speechWaitHint?: (event: SpeechWaitEvent) => string | undefined;
}

/** A call waiting until utterances are played. */
export type SpeechWaitEvent = Extract<SessionEvent, { type: 'speech-wait' }>;

const STYLES = {
  caller: [36, 39],
  model: [35, 39],
  tool: [33, 39],
  http: [34, 39],
  say: [32, 39],
  error: [31, 39],
  dim: [2, 22],
  bold: [1, 22],
} as const;
type Style = keyof typeof STYLES;

/** Creates the narrating observer. */
export function createNarrator(options: NarratorOptions): FixtureObserver {
  const paint = (style: Style, text: string): string =>
    options.color === true ? `\u001b[${STYLES[style][0]}m${text}\u001b[${STYLES[style][1]}m` : text;
  const out = (label: string, style: Style, text: string): void => {
    const lines = text.split('\n');
    options.write(`${paint(style, label.padEnd(8))}${lines[0] ?? ''}`);
    for (const rest of lines.slice(1)) options.write(`${' '.repeat(8)}${rest}`);
  };
  let pending = '';
  let pendingId: string | undefined;
  let showIds = options.speechIds === true;
  const idOf = (speechId: string | undefined): string =>
    showIds && speechId !== undefined ? paint('dim', ` · ${speechId}`) : '';
  /** Text deltas arrived this turn (then turn-end's content is not printed again). */
  let streamed = false;
  const flush = (): void => {
    if (pending.trim() !== '') out('model', 'model', pending + idOf(pendingId));
    pending = '';
    pendingId = undefined;
  };
  const raw = new Map<string, string>();
  const wire: { request: RecordedRequest; response: HttpExchange['response'] | undefined }[] = [];
  const printWire = (only?: { method: string; url: string }): void => {
    const index =
      only === undefined
        ? 0
        : wire.findIndex(
            (w) => w.request.method === only.method.toUpperCase() && w.request.url === only.url,
          );
    const entries = only === undefined ? wire.splice(0) : index === -1 ? [] : wire.splice(index, 1);
    for (const { request, response } of entries) {
      out(
        'http',
        'http',
        `→ ${request.method} ${request.url}${request.body !== undefined ? `\n  ${cut(request.body)}` : ''}`,
      );
      if (response === undefined) out('', 'error', '← (undeclared: refused)');
      else if (response.error !== undefined) out('', 'error', '← connection reset');
      else {
        const { body } = responseBody(response);
        const delay = response.delay_ms !== undefined ? ` after ${response.delay_ms} ms` : '';
        out('', 'http', `← ${response.status}${delay}${body !== '' ? ` ${cut(body)}` : ''}`);
      }
    }
  };

  return {
    fixtureStart(loaded: LoadedFixture) {
      showIds = options.speechIds ?? loaded.fixture.session.speech_ack === 'host';
      options.write(paint('bold', `▶ ${loaded.fixture.name}`) + paint('dim', `  (${loaded.file})`));
      const s = loaded.fixture.session;
      const tools = [...loaded.tools.tools.keys()].join(', ');
      options.write(paint('dim', `  tools: ${tools}`));
      options.write(
        paint(
          'dim',
          `  language: ${s.language ?? 'en-US'}${s.languages !== undefined ? ` (allowed: ${s.languages.join(', ')})` : ''}`,
        ),
      );
    },
    turnStart(turn: number, user: string) {
      options.write('');
      options.write(paint('dim', `── turn ${turn + 1} ──`));
      out('caller', 'caller', user);
    },
    event(_turn: number, event: SessionEvent) {
      if (event.type === 'text-delta') {
        // A new utterance starts a new line.
        if (pendingId !== undefined && pendingId !== event.speechId) flush();
        pendingId = event.speechId;
        pending += event.text;
        streamed = true;
        return;
      }
      if (event.type === 'turn-end') {
        // The content repeats what was streamed (and already printed, e.g. before a barge-in).
        if (!streamed && event.content !== '') pending = event.content;
        streamed = false;
        flush();
        return;
      }
      flush();
      if (event.type === 'http-request') {
        printWire(event.request);
        return;
      }
      if (event.type === 'tool-result' || event.type === 'tool-error') printWire();
      narrateEvent(event, out, raw, idOf, options.speechWaitHint);
    },
    request(request: RecordedRequest, response: HttpExchange['response'] | undefined) {
      // Printed when the session's own http-request event arrives, so lines follow event order.
      wire.push({ request, response });
    },
    turnEnd(_turn: number, observed: ObservedTurn, failures: readonly FixtureFailure[]) {
      flush();
      printWire();
      if (options.timings === true) out('timing', 'dim', timingLine(observed.timings));
      if (failures.length === 0) options.write(paint('dim', '  ✓ expectations met'));
      for (const f of failures) {
        failureLines(f).forEach((line, i) =>
          options.write(paint('error', i === 0 ? `  ✗ ${line}` : `    ${line}`)),
        );
      }
    },
  };
}

/** One line of a turn's latency report. */
export function timingLine(t: TurnTimings): string {
  const parts = [`total ${ms(t.totalMs)}`];
  if (t.modelTimeToFirstTokenMs !== undefined)
    parts.push(`model first token ${ms(t.modelTimeToFirstTokenMs)}`);
  if (t.modelTimeToFirstToolCallMs !== undefined)
    parts.push(`first tool call ${ms(t.modelTimeToFirstToolCallMs)}`);
  parts.push(
    `${t.modelCalls.length} model call(s) ${ms(sum(t.modelCalls.map((m) => m.durationMs)))}`,
  );
  for (const tool of t.tools)
    parts.push(
      `${tool.tool} ${ms(tool.durationMs)}${tool.queuedMs > 0 ? ` (queued ${ms(tool.queuedMs)})` : ''}`,
    );
  if (t.phrasesSpoken > 0) parts.push(`${t.phrasesSpoken} phrase(s) spoken`);
  return parts.join(' · ');
}

function ms(value: number): string {
  return `${Math.round(value)} ms`;
}

function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

function cut(text: string, max = 300): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function narrateEvent(
  event: SessionEvent,
  out: (label: string, style: Style, text: string) => void,
  raw: Map<string, string>,
  idOf: (speechId: string | undefined) => string,
  speechWaitHint: NarratorOptions['speechWaitHint'],
): void {
  switch (event.type) {
    case 'tool-call': {
      raw.set(event.callId, event.rawArguments);
      out('model', 'model', `calls ${event.tool} ${cut(event.rawArguments)}`);
      if (
        event.args !== undefined &&
        JSON.stringify(event.args) !== safeReformat(event.rawArguments)
      ) {
        out('', 'tool', `after transforms: ${showValue(event.args)}`);
      }
      return;
    }
    case 'tool-result':
      out('tool', 'tool', `${event.tool} → ${showValue(event.output)}`);
      return;
    case 'tool-error':
      out('tool', 'error', `${event.tool} ✗ ${event.code}: ${event.message}`);
      return;
    case 'say':
      out(
        'say',
        'say',
        `“${event.text}”${event.source === 'bridge' ? ' (bridge phrase)' : event.source === 'tool' ? '' : ` (${event.source})`}${idOf(event.speechId)}`,
      );
      return;
    case 'spoken':
      out('heard', 'dim', `${event.speechId} played to the end`);
      return;
    case 'speech-wait': {
      const hint = speechWaitHint?.(event);
      out(
        'wait',
        'dim',
        `${event.tool} until ${event.speechIds.join(', ')} ${event.speechIds.length === 1 ? 'is' : 'are'} played (at most ${event.maxWaitMs} ms)${hint === undefined ? '' : ` — ${hint}`}`,
      );
      return;
    }
    case 'language':
      out('lang', 'say', `${event.from} → ${event.to}`);
      return;
    case 'action':
      out('action', 'tool', `${event.tool} ${showValue(event.args)}`);
      return;
    case 'log':
      out('log', 'dim', `${event.tool} ${showValue(event.args)}`);
      return;
    case 'handoff':
      out(
        'handoff',
        'tool',
        `${event.from} → ${event.to}${event.reason !== undefined ? ` (${event.reason})` : ''}`,
      );
      return;
    case 'vars':
      out('vars', 'dim', showValue(event.vars));
      return;
    case 'workflow':
      out(
        'step',
        'dim',
        `${event.workflow}: ${event.status === 'completed' ? 'completed' : `step ${event.step ?? '?'}`}`,
      );
      return;
    case 'max-rounds':
      out('session', 'error', `stopped after ${event.rounds} tool rounds`);
      return;
    case 'interrupted':
      out('caller', 'caller', '(barges in — interrupted)');
      return;
    case 'model-error':
      out('model', 'error', `✗ ${event.code}: ${event.message}`);
      return;
    case 'session-end':
      out('session', 'dim', `ended${event.reason !== undefined ? `: ${event.reason}` : ''}`);
      return;
    case 'command':
      out(
        'tool',
        'dim',
        `$ ${event.command.command} ${event.command.argv.map(shellWord).join(' ')}`,
      );
      return;
    case 'turn-start':
    case 'http-request':
    // The narrator prints the exchange (with its declared response) at the request.
    case 'http-response':
    case 'text-delta':
    case 'turn-end':
      return;
    default: {
      const _exhaustive: never = event;
      return _exhaustive;
    }
  }
}

/** An argv word as a reader would type it (quoted when it holds anything but plain characters). */
function shellWord(word: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

function safeReformat(rawArguments: string): string | undefined {
  try {
    return JSON.stringify(JSON.parse(rawArguments));
  } catch {
    return undefined;
  }
}
