/**
 * The REPL's state and commands: a live session over real endpoints, a model that is either an
 * OpenAI-compatible one or the person at the keyboard, and a recorder so `/save` writes a fixture
 * of the session so far that `switchboard test` passes.
 */
import type { DefinitionIssue } from '../../errors.js';
import { NO_TIMINGS } from '../../observability/turn-tracing.js';
import { describeWorkflows } from '../../workflow/describe.js';
import { writeFile } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { Agent } from 'undici';
import { SecretSet } from '../../handlers/endpoint/secret-set.js';
import type { ToolSet } from '../../definition/types.js';
import { buildFixture, fixtureToYaml, type RecordedTurn } from '../../harness/fixture-writer.js';
import { ManualModel, type ManualStep } from '../../harness/manual-model.js';
import { createNarrator } from '../../harness/narrator.js';
import { observeTurn } from '../../harness/observe.js';
import {
  createRecordingDispatcher,
  type RecordingDispatcher,
} from '../../harness/recording-dispatcher.js';
import { RecordingModel } from '../../harness/recording-model.js';
import { changeSession, type SessionChanges } from '../../harness/session-changes.js';
import { NO_USAGE, type Model } from '../../models/types.js';
import { createSession } from '../../session/create-session.js';
import type {
  ServiceConfig,
  Session,
  SessionEvent,
  SessionOptions,
  TurnResult,
} from '../../session/types.js';
import type { CliIO } from '../io.js';
import type { LineSource } from './line-source.js';

/** Options of {@link ReplController}. */
export interface ReplOptions {
  readonly io: CliIO;
  readonly lines: LineSource;
  readonly tools: ToolSet;
  /** Absolute path of the tools file (for `/save`). */
  readonly toolsFile: string;
  /** `manual`: the person plays the model; else the given model answers. */
  readonly model: Model | 'manual';
  readonly vars: Record<string, unknown>;
  readonly language: string;
  readonly languages?: readonly string[];
  /** Services (with their secrets) for endpoint auth; never written by `/save`. */
  readonly services?: Readonly<Record<string, ServiceConfig>>;
  readonly color: boolean;
  /**
   * Who acknowledges playback (docs/voice.md). `host`: the person does, with `/spoken`, and the
   * narration shows each utterance's speech id. Default `auto`.
   */
  readonly speechAck?: 'host' | 'auto';
}

export const REPL_COMMANDS = `Commands:
  <text>               say this as the caller
  /call <tool> <json>  (manual model) call a tool with these raw JSON arguments
  /reply <text>        (manual model) answer the caller
  /tools               list the tools
  /vars                show session variables
  /spoken [id|all]     mark an utterance (or all) as played (with --speech-ack host)
  /set <name> <json>   set a session variable
  /lang <tag>          change the session language
  /history             show the conversation so far
  /step                show each workflow's current step, goal, inputs and variables
  /reset               start a new session
  /save <file>         write the session so far as a fixture (YAML)
  /help                this list
  /quit                leave
`;

const SESSION_ID = 'repl';

function withoutQuery(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return url;
  }
}

/** Drives one REPL. */
export class ReplController {
  readonly #o: ReplOptions;
  readonly #agent = new Agent();
  /** Every secret the REPL's sessions know or obtain: what it prints and saves is scrubbed with it. */
  readonly #secrets = new SecretSet();
  /** What createSession warned about (shown in the banner). */
  readonly #warnings: DefinitionIssue[] = [];
  readonly #http: RecordingDispatcher;
  readonly #model: RecordingModel;
  readonly #narrator;
  #session: Session;
  #options: SessionOptions;
  #turns: RecordedTurn[] = [];
  /** This turn's utterances (speech id → text so far), for `/spoken` and `/save`. */
  readonly #utterances = new Map<string, string>();
  readonly #acked = new Set<string>();
  #spokenThisTurn: string[] = [];
  #initialVars: Record<string, unknown>;
  #initialLanguage: string;
  #pending: { vars?: Record<string, unknown>; language?: string } | undefined;
  #startedAt = new Date();
  #quit = false;
  /** A turn is running (Ctrl-C then means barge-in). */
  #busy = false;

  constructor(options: ReplOptions) {
    this.#o = options;
    const say = (line: string): void => this.#print(line);
    this.#narrator = createNarrator({
      write: say,
      color: options.color,
      speechIds: options.speechAck === 'host',
    });
    // One set for the REPL and its sessions: tokens the engine obtains join it as they are issued.
    this.#secrets.addServices(options.services ?? {});
    const secrets = this.#secrets;
    const tokenUrls = new Set(
      Object.values(options.services ?? {}).flatMap((c) =>
        c.auth?.type === 'oauth2' ? [withoutQuery(c.auth.auth_url)] : [],
      ),
    );
    this.#http = createRecordingDispatcher({
      dispatcher: this.#agent,
      // The REPL prints and saves what it records: no secret may be in it.
      scrub: (text) => secrets.scrubText(text),
      skip: (url) => tokenUrls.has(withoutQuery(url)),
      onRequest: (x) =>
        say(
          `http    → ${x.request.method} ${x.request.url}${x.request.body !== undefined ? ` ${cut(x.request.body)}` : ''}`,
        ),
      onResponse: (x) =>
        say(
          x.response !== undefined
            ? `        ← ${x.response.status} ${cut(x.response.body)}`
            : `        ← failed: ${x.error ?? 'unknown error'}`,
        ),
    });
    const inner: Model =
      options.model === 'manual'
        ? new ManualModel({ next: () => this.#manualStep() })
        : options.model;
    this.#model = new RecordingModel(inner);
    this.#initialVars = { ...options.vars };
    this.#initialLanguage = options.language;
    this.#options = this.#sessionOptions();
    this.#session = createSession(this.#options);
  }

  #sessionOptions(): SessionOptions {
    const startAt = this.#startedAt.getTime();
    const realStart = Date.now();
    return {
      tools: this.#o.tools,
      model: this.#model,
      dispatcher: this.#http.dispatcher,
      id: SESSION_ID,
      vars: this.#initialVars,
      language: this.#initialLanguage,
      ...(this.#o.languages !== undefined ? { languages: this.#o.languages } : {}),
      actions: this.#simulatedActions(),
      ...(this.#o.services !== undefined ? { services: this.#o.services } : {}),
      secrets: this.#secrets,
      // The banner says which services are not configured, per tool; the rest it prints as given.
      onWarning: (w) => {
        if (w.code !== 'service_not_configured' && this.#warnings.length < 100)
          this.#warnings.push(w);
      },
      ...(this.#o.speechAck !== undefined ? { speechAck: this.#o.speechAck } : {}),
      _internal: { now: () => startAt + (Date.now() - realStart) },
    };
  }

  /**
   * The REPL stands in for the host app: every action tool gets a handler that does nothing, so
   * the call succeeds with the definition's `result` or `{"status":"ok"}` (SPEC §3 precedence).
   */
  #simulatedActions(): Map<string, () => undefined> {
    const out = new Map<string, () => undefined>();
    for (const tool of this.#o.tools.tools.values())
      if (tool.type === 'action') out.set(tool.name, () => undefined);
    return out;
  }

  #print(line: string): void {
    this.#o.io.stdout.write(`${line}\n`);
  }

  /**
   * A call that waits for playback is pending and utterances of this turn are unacknowledged: read
   * `/spoken` lines (the person plays the host's audio player) until all are played or Enter.
   * The turn cannot call the model meanwhile (its round is not over), so no other reader competes.
   */
  async #awaitPlayback(tools: readonly string[]): Promise<void> {
    const unplayed = (): string[] =>
      [...this.#utterances.keys()].filter((u) => !this.#acked.has(u));
    if (unplayed().length === 0) return;
    this.#print(
      `(${tools.join(', ')} waits until ${unplayed().join(', ')} is played: /spoken <id>|all, or Enter to let it wait)`,
    );
    while (unplayed().length > 0) {
      const line = await this.#o.lines.next('playback> ');
      if (line === undefined || line.trim() === '') return;
      const [command = '', ...rest] = line.trim().split(/\s+/);
      if (command === '/spoken') this.#spoken(rest.join(' '));
      else this.#print('(a call waits for playback: /spoken <id>|all, or Enter to go on)');
    }
  }

  /**
   * `/spoken [id|all]`: the person reports playback, as a voice host would. An acknowledgement
   * made while a turn runs is saved by `/save` as a `spoken` point of that turn.
   */
  #spoken(id: string): void {
    if (this.#o.speechAck !== 'host') {
      this.#print(
        '(speech counts as played when emitted: start with --speech-ack host to acknowledge it yourself)',
      );
      return;
    }
    const acked =
      id === '' || id === 'all'
        ? [...this.#utterances.keys()].filter((u) => !this.#acked.has(u))
        : this.#utterances.has(id) && !this.#acked.has(id)
          ? [id]
          : [];
    if (id === '' || id === 'all')
      this.#print(`  ${this.#session.spokenAll()} utterance(s) marked spoken`);
    else if (this.#session.spoken(id)) this.#print(`  ${id} marked spoken`);
    else {
      this.#print(`  ${id}: no utterance waits for playback under this id`);
      return;
    }
    for (const u of acked) {
      this.#acked.add(u);
      const text = this.#utterances.get(u);
      if (this.#busy && text !== undefined && text.trim() !== '')
        this.#spokenThisTurn.push(text.trim());
    }
  }

  /** The banner: tools, model, and where endpoint calls really go. */
  banner(): void {
    const tools = [...this.#o.tools.tools.values()];
    this.#print(`switchboard repl — ${tools.length} tool(s) from ${this.#o.toolsFile}`);
    this.#print(
      `model: ${this.#o.model === 'manual' ? 'manual (you play the model: /call, /reply)' : this.#o.model.name}`,
    );
    const endpoints = tools.filter((t) => t.endpoint !== undefined);
    if (endpoints.length > 0) {
      this.#print('Endpoint calls go out for real, to:');
      for (const t of endpoints)
        this.#print(`  ${t.name}: ${t.endpoint?.method.toUpperCase()} ${t.endpoint?.url}`);
    }
    // A service with auth and no origins cannot get here: createSession refused it.
    for (const t of endpoints) {
      if (t.service === undefined) continue;
      if (!Object.hasOwn(this.#o.services ?? {}, t.service)) {
        this.#print(
          `warning: ${t.name} uses service "${t.service}", which is not configured (--services); its calls will fail`,
        );
      }
    }
    for (const w of this.#warnings) this.#print(`warning: ${w.path}: ${w.message}`);
    const actions = tools.filter((t) => t.type === 'action').map((t) => t.name);
    if (actions.length > 0) {
      this.#print(
        `Action tools are simulated (they succeed with their "result" or {"status":"ok"}): ${actions.join(', ')}`,
      );
    }
    this.#print('Type /help for commands.');
  }

  /** Reads and handles lines until `/quit` or end of input. */
  async run(): Promise<void> {
    this.banner();
    while (!this.#quit) {
      const line = await this.#o.lines.next('you> ');
      if (line === undefined) break;
      const text = line.trim();
      if (text === '') continue;
      if (text.startsWith('/')) await this.#command(text, false);
      else {
        // A terminal shows what was typed; a piped transcript needs the caller's words too.
        if (!this.#o.lines.interactive) this.#print(`caller  ${text}`);
        await this.#turn(text);
      }
    }
  }

  /**
   * Ctrl-C while a turn runs: the caller barges in (SPEC §4 interruption). Returns whether
   * there was a turn to interrupt.
   */
  interrupt(): boolean {
    if (!this.#busy) return false;
    this.#print('(interrupted: the caller barges in)');
    this.#session.interrupt();
    return true;
  }

  async close(): Promise<void> {
    await this.#session.close().catch(() => undefined);
    await this.#agent.close().catch(() => undefined);
  }

  async #turn(user: string): Promise<void> {
    if (this.#session.ended) {
      this.#print('(the session has ended: /reset to start again)');
      return;
    }
    const stepsBefore = this.#model.steps.length;
    const httpBefore = this.#http.exchanges.length;
    const stream = this.#session.send(user);
    let modelError: string | undefined;
    let result: TurnResult | undefined;
    this.#busy = true;
    this.#utterances.clear();
    this.#acked.clear();
    this.#spokenThisTurn = [];
    const gated = gatedCalls(this.#o.tools, this.#o.speechAck === 'host');
    try {
      for await (const event of stream) {
        if (event.type === 'model-error') modelError = event.message;
        if (event.type === 'say' || event.type === 'text-delta')
          this.#utterances.set(
            event.speechId,
            (this.#utterances.get(event.speechId) ?? '') + event.text,
          );
        this.#narrator.event?.(this.#turns.length, event);
        if (gated.track(event)) await this.#awaitPlayback(gated.tools());
      }
      result = await stream.result;
    } catch (error) {
      if (modelError === undefined) {
        this.#print(`error: ${error instanceof Error ? error.message : String(error)}`);
        return;
      }
    } finally {
      this.#busy = false;
    }
    const requests = this.#http.exchanges
      .slice(httpBefore)
      .map((x) => ({ ...x.request, status: x.response?.status }));
    const state = this.#session.toJSON();
    const observed = observeTurn({
      user,
      result: result ?? {
        content: '',
        response_time_secs: 0,
        traces: [],
        propagated: [],
        timings: NO_TIMINGS,
        events: [],
        usage: NO_USAGE,
        state,
        interrupted: false,
      },
      requests,
      ...(modelError !== undefined ? { modelError } : {}),
    });
    this.#turns.push({
      user,
      steps: this.#model.steps.slice(stepsBefore),
      observed,
      ...(this.#pending !== undefined ? { before: this.#pending } : {}),
      ...(this.#spokenThisTurn.length > 0 ? { spoken: this.#spokenThisTurn } : {}),
    });
    this.#pending = undefined;
  }

  /** One model call in manual mode: read commands until `/call` or `/reply`. */
  async #manualStep(): Promise<ManualStep> {
    // Let the turn's queued events (tool results, language, say) be narrated before the prompt.
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.#print('(your move as the model: /call <tool> <json> or /reply <text>)');
    for (;;) {
      const line = await this.#o.lines.next('model> ');
      if (line === undefined) {
        this.#quit = true;
        return { type: 'reply', text: '' };
      }
      const text = line.trim();
      if (text === '') continue;
      if (!text.startsWith('/')) {
        this.#print('(the model is answering: use /reply <text> or /call <tool> <json>)');
        continue;
      }
      const step = await this.#command(text, true);
      if (step !== undefined) return step;
      if (this.#quit) return { type: 'reply', text: '' };
    }
  }

  async #command(text: string, asModel: boolean): Promise<ManualStep | undefined> {
    const space = text.indexOf(' ');
    const name = space === -1 ? text : text.slice(0, space);
    const rest = space === -1 ? '' : text.slice(space + 1).trim();
    switch (name) {
      case '/help':
        this.#o.io.stdout.write(REPL_COMMANDS);
        return undefined;
      case '/quit':
      case '/exit':
        this.#quit = true;
        return undefined;
      case '/tools':
        for (const t of this.#o.tools.tools.values()) {
          const props = Object.keys(
            (t.tool.function.parameters['properties'] as Record<string, unknown> | undefined) ?? {},
          );
          this.#print(
            `  ${t.name} [${t.type}] (${props.join(', ')})${t.tool.function.description !== undefined ? ` — ${t.tool.function.description}` : ''}`,
          );
        }
        return undefined;
      case '/vars':
        this.#print(JSON.stringify(this.#session.toJSON().vars, null, 2));
        return undefined;
      case '/spoken':
        this.#spoken(rest);
        return undefined;
      case '/step':
        for (const line of describeWorkflows(this.#o.tools.tools, this.#session.toJSON()))
          this.#print(`  ${line}`);
        return undefined;
      case '/history':
        for (const m of this.#session.toJSON().history) this.#print(`  ${historyLine(m)}`);
        return undefined;
      case '/call':
      case '/reply':
        if (!asModel) {
          this.#print(
            this.#o.model === 'manual'
              ? `(${name} answers for the model during a turn: first say something as the caller)`
              : `(${name} needs --model manual)`,
          );
          return undefined;
        }
        return name === '/reply' ? { type: 'reply', text: rest } : this.#parseCall(rest);
      case '/set': {
        const m = /^(\S+)\s+([\s\S]+)$/.exec(rest);
        if (m === null) {
          this.#print('usage: /set <name> <json>');
          return undefined;
        }
        let value: unknown;
        try {
          value = JSON.parse(m[2] as string);
        } catch (error) {
          this.#print(`not JSON: ${(error as Error).message}`);
          return undefined;
        }
        await this.#change({ vars: Object.fromEntries([[m[1] as string, value]]) }, asModel);
        return undefined;
      }
      case '/lang': {
        if (rest === '') {
          this.#print(
            `language: ${this.#session.toJSON().language}${this.#o.languages !== undefined ? ` (allowed: ${this.#o.languages.join(', ')})` : ''}`,
          );
          return undefined;
        }
        const checked = checkLanguage(rest, this.#o.languages);
        if (!checked.ok) this.#print(checked.message);
        else await this.#change({ language: checked.tag }, asModel);
        return undefined;
      }
      case '/reset':
        if (asModel) {
          this.#print('(finish the turn first)');
          return undefined;
        }
        await this.#session.close().catch(() => undefined);
        this.#turns = [];
        this.#pending = undefined;
        this.#model.steps.length = 0;
        this.#http.exchanges.length = 0;
        this.#initialVars = { ...this.#o.vars };
        this.#initialLanguage = this.#o.language;
        this.#startedAt = new Date();
        this.#options = this.#sessionOptions();
        this.#session = createSession(this.#options);
        this.#print('(new session)');
        return undefined;
      case '/save':
        if (rest === '') this.#print('usage: /save <file.yaml>');
        else await this.#save(rest);
        return undefined;
      default:
        this.#print(`unknown command ${name} (try /help)`);
        return undefined;
    }
  }

  #parseCall(rest: string): ManualStep | undefined {
    const m = /^(\S+)(?:\s+([\s\S]*))?$/.exec(rest);
    if (m === null) {
      this.#print('usage: /call <tool> <json>');
      return undefined;
    }
    // Sent verbatim: malformed JSON is how you see the engine's tool error.
    return { type: 'call', name: m[1] as string, arguments: (m[2] ?? '{}').trim() || '{}' };
  }

  async #change(changes: SessionChanges, midTurn: boolean): Promise<void> {
    if (midTurn) {
      this.#print('(finish the turn first)');
      return;
    }
    if (this.#turns.length === 0) {
      if (changes.vars !== undefined) this.#initialVars = { ...this.#initialVars, ...changes.vars };
      if (changes.language !== undefined) this.#initialLanguage = changes.language;
    } else {
      this.#pending = {
        ...this.#pending,
        ...(changes.vars !== undefined
          ? { vars: { ...this.#pending?.vars, ...changes.vars } }
          : {}),
        ...(changes.language !== undefined ? { language: changes.language } : {}),
      };
    }
    this.#session = await changeSession(this.#session, changes, this.#options);
    this.#print(changes.language !== undefined ? `(language: ${changes.language})` : '(set)');
  }

  async #save(file: string): Promise<void> {
    const path = resolve(file);
    const tools = relative(dirname(path), this.#o.toolsFile) || this.#o.toolsFile;
    const fixture = buildFixture({
      name: `repl session ${this.#startedAt.toISOString()}`,
      tools,
      session: {
        id: SESSION_ID,
        now: this.#startedAt.toISOString(),
        language: this.#initialLanguage,
        ...(this.#o.languages !== undefined ? { languages: this.#o.languages } : {}),
        vars: this.#initialVars,
        ...(this.#o.services !== undefined ? { services: this.#o.services } : {}),
        ...(this.#o.speechAck !== undefined ? { speechAck: this.#o.speechAck } : {}),
      },
      turns: this.#turns,
      exchanges: this.#http.exchanges,
      simulatedActions: [...this.#simulatedActions().keys()],
    });
    try {
      await writeFile(path, fixtureToYaml(fixture), 'utf8');
      this.#print(`(saved ${this.#turns.length} turn(s) to ${file})`);
      const cut = this.#turns.flatMap((t, i) => (t.observed.interrupted ? [i + 1] : []));
      if (cut.length > 0)
        this.#print(
          `(note: turn(s) ${cut.join(', ')} were interrupted; a fixture replays them without the barge-in, so check their expectations)`,
        );
    } catch (error) {
      this.#print(`could not save: ${(error as Error).message}`);
    }
  }
}

/** A language the session may switch to: a well-formed BCP-47 tag, canonicalised, allowed. */
export function checkLanguage(
  tag: string,
  languages: readonly string[] | undefined,
): { readonly ok: true; readonly tag: string } | { readonly ok: false; readonly message: string } {
  let canonical: string;
  try {
    canonical = Intl.getCanonicalLocales(tag)[0] ?? tag;
  } catch {
    return { ok: false, message: `not a BCP-47 language tag: ${JSON.stringify(tag)}` };
  }
  if (languages !== undefined) {
    const allowed = languages.map((l) => {
      try {
        return Intl.getCanonicalLocales(l)[0] ?? l;
      } catch {
        return l;
      }
    });
    if (!allowed.includes(canonical))
      return {
        ok: false,
        message: `${canonical} is not an allowed language (allowed: ${languages.join(', ')})`,
      };
  }
  return { ok: true, tag: canonical };
}

function cut(text: string, max = 200): string {
  const one = text.replace(/\s+/g, ' ');
  return one.length > max ? `${one.slice(0, max)}…` : one;
}

function historyLine(m: {
  role: string;
  content?: string | null;
  tool_calls?: readonly { function: { name: string; arguments: string } }[];
}): string {
  const calls = m.tool_calls?.map((c) => `${c.function.name}(${c.function.arguments})`).join(', ');
  const content = m.content ?? '';
  return `${m.role}:${content !== '' ? ` ${content}` : ''}${calls !== undefined ? ` → ${calls}` : ''}`;
}

/**
 * Calls of speak-then-act tools (`options.speech.after_speech`) dispatched and not yet finished in
 * this turn. `track` says whether, after this event, such a call may be waiting for playback.
 */
function gatedCalls(
  tools: ToolSet,
  host: boolean,
): { track(event: SessionEvent): boolean; tools(): string[] } {
  const pending = new Map<string, string>();
  return {
    track(event) {
      if (!host) return false;
      if (event.type === 'tool-call') {
        if (tools.tools.get(event.tool)?.options.speech.afterSpeech === true)
          pending.set(event.callId, event.tool);
      } else if (event.type === 'tool-result' || event.type === 'tool-error') {
        pending.delete(event.callId);
      }
      return pending.size > 0 && (event.type === 'tool-call' || event.type === 'say');
    },
    tools: () => [...new Set(pending.values())],
  };
}
