/**
 * The REPL's state and commands: a live session over real endpoints (and real programs for
 * command tools, `--commands`), a model that is either an
 * OpenAI-compatible one or the person at the keyboard, and a recorder so `/save` writes a fixture
 * of the session so far that `switchboard test` passes. Its parts live beside it: the banner,
 * playback acknowledgements (speech-acks.ts), the ordered HTTP lines (wire-lines.ts), the host's
 * actions (repl-actions.ts).
 * About 425 lines: the REPL's commands share the controller's state (session, recorder, speech
 * acknowledgements); its banner, actions, recording, command-run recorder and wire lines are already files of their own.
 */
import { Agent } from 'undici';
import type { DefinitionIssue } from '../../errors.js';
import { SecretSet } from '../../handlers/endpoint/secret-set.js';
import type { RecordedTurn } from '../../harness/fixture-writer.js';
import { ManualModel, type ManualStep } from '../../harness/manual-model.js';
import { createNarrator } from '../../harness/narrator.js';
import type { RecordingDispatcher } from '../../harness/recording-dispatcher.js';
import { RecordingModel } from '../../harness/recording-model.js';
import { changeSession, type SessionChanges } from '../../harness/session-changes.js';
import type { Model } from '../../models/types.js';
import { createSession } from '../../session/create-session.js';
import { createRecordingRunner, type RecordingRunner } from '../../harness/recording-runner.js';
import type { Session, SessionOptions, TurnResult } from '../../session/types.js';
import { describeWorkflows } from '../../session/workflow/describe.js';
import { checkLanguage } from './check-language.js';
import { replActionHandlers } from './repl-actions.js';
import { bannerLines, REPL_COMMANDS } from './repl-banner.js';
import type { ReplOptions } from './repl-options.js';
import { recordTurn, saveFixture } from '../../harness/session-recording.js';
import { historyLine, toolLine } from './repl-text.js';
import { SpeechAcks } from './speech-acks.js';
import { replDispatcher, WireLines } from './wire-lines.js';

export { checkLanguage } from './check-language.js';
export { REPL_COMMANDS } from './repl-banner.js';
export type { ReplOptions } from './repl-options.js';

const SESSION_ID = 'repl';

/** Drives one REPL. */
export class ReplController {
  readonly #o: ReplOptions;
  readonly #agent = new Agent();
  /** Every secret the REPL's sessions know or obtain: what it prints and saves is scrubbed with it. */
  readonly #secrets = new SecretSet();
  /** What createSession warned about (shown in the banner). */
  readonly #warnings: DefinitionIssue[] = [];
  readonly #http: RecordingDispatcher;
  /** Command runs, recorded for `/save`. */
  readonly #runs: RecordingRunner;
  readonly #wire: WireLines;
  readonly #model: RecordingModel;
  readonly #narrator;
  readonly #speech: SpeechAcks;
  #session: Session;
  #options: SessionOptions;
  #turns: RecordedTurn[] = [];
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
    this.#speech = new SpeechAcks({
      host: options.speechAck === 'host',
      lines: options.lines,
      print: say,
    });
    this.#narrator = createNarrator({
      write: say,
      color: options.color,
      speechIds: options.speechAck === 'host',
      speechWaitHint: (event) => this.#speech.waitHint(event),
    });
    // One set for the REPL and its sessions: tokens the engine obtains join it as they are issued.
    this.#secrets.addServices(options.services ?? {});
    this.#wire = new WireLines(say);
    this.#runs = createRecordingRunner({
      commands: options.commands ?? {},
      scrub: (text) => this.#secrets.scrubText(text),
    });
    this.#http = replDispatcher({
      agent: this.#agent,
      secrets: this.#secrets,
      services: options.services,
      wire: this.#wire,
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
      ...(this.#o.systemValues !== undefined ? { systemValues: this.#o.systemValues } : {}),
      language: this.#initialLanguage,
      ...(this.#o.languages !== undefined ? { languages: this.#o.languages } : {}),
      // The REPL stands in for the host app (repl-actions.ts).
      actions: replActionHandlers(this.#o.tools, this.#o.actions ?? new Map()),
      ...(this.#o.services !== undefined ? { services: this.#o.services } : {}),
      ...(this.#o.commands !== undefined
        ? { commands: this.#o.commands, commandRunner: this.#runs.runner }
        : {}),
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

  #print(line: string): void {
    this.#o.io.stdout.write(`${line}\n`);
  }

  /** The banner: tools, model, and where endpoint calls really go. */
  banner(): void {
    for (const line of bannerLines({
      tools: this.#o.tools,
      toolsFile: this.#o.toolsFile,
      model: this.#o.model,
      services: this.#o.services,
      declaredActions: new Set(this.#o.actions?.keys() ?? []),
      warnings: this.#warnings,
    }))
      this.#print(line);
  }

  /** Reads and handles lines until `/quit`, end of input, or the session ending. */
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
   * Ctrl-C while a turn runs: the caller barges in (an interruption). Returns whether there was
   * a turn to interrupt.
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
    const stepsBefore = this.#model.steps.length;
    const httpBefore = this.#http.exchanges.length;
    const runsBefore = this.#runs.runs.length;
    const stream = this.#session.send(user);
    let modelError: string | undefined;
    let ended: { reason?: string } | undefined;
    let result: TurnResult | undefined;
    this.#busy = true;
    this.#speech.startTurn();
    this.#wire.startTurn();
    try {
      for await (const event of stream) {
        if (event.type === 'model-error') modelError = event.message;
        if (event.type === 'session-end')
          ended = event.reason !== undefined ? { reason: event.reason } : {};
        // A call's HTTP lines are printed after the call and before its result.
        if (event.type === 'tool-result' || event.type === 'tool-error') this.#wire.flush();
        this.#narrator.event?.(this.#turns.length, event);
        if (event.type === 'http-request') this.#wire.event('request');
        if (event.type === 'http-response') this.#wire.event('response');
        await this.#speech.event(event, this.#session);
      }
      result = await stream.result;
    } catch (error) {
      if (modelError === undefined) {
        this.#print(`error: ${error instanceof Error ? error.message : String(error)}`);
        return;
      }
    } finally {
      this.#busy = false;
      this.#wire.endTurn();
    }
    const spoken = this.#speech.endTurn();
    this.#turns.push(
      recordTurn({
        user,
        steps: this.#model.steps.slice(stepsBefore),
        exchanges: this.#http.exchanges.slice(httpBefore),
        runs: this.#runs.runs.slice(runsBefore),
        result,
        modelError,
        state: this.#session.toJSON(),
        spoken,
        before: this.#pending,
      }),
    );
    this.#pending = undefined;
    if (ended !== undefined || this.#session.ended) {
      // A hang-up (an action ending the session): nothing more can be said in this session.
      this.#print(
        `(the session has ended${ended?.reason !== undefined ? `: ${ended.reason}` : ''}: /save <file> keeps it; any other line leaves the REPL)`,
      );
      await this.#afterEnd();
      this.#quit = true;
    }
  }

  /** After the session ended: `/save` still works; anything else (or end of input) leaves. */
  async #afterEnd(): Promise<void> {
    for (;;) {
      const line = await this.#o.lines.next('ended> ');
      if (line === undefined) return;
      const text = line.trim();
      if (text === '') continue;
      if (!text.startsWith('/save')) return;
      await this.#command(text, false);
    }
  }

  /** One model call in manual mode: read commands until `/call` or `/reply`. */
  async #manualStep(): Promise<ManualStep> {
    // Let the turn's queued events (tool results, language, say) be narrated before the prompt.
    await new Promise<void>((resolve) => setImmediate(resolve));
    // A prompt: on a terminal only (piped input shows none, like `model>` itself).
    if (this.#o.lines.interactive)
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
        for (const t of this.#o.tools.tools.values()) this.#print(toolLine(t));
        return undefined;
      case '/vars':
        this.#print(JSON.stringify(this.#session.toJSON().vars, null, 2));
        return undefined;
      case '/spoken':
        this.#speech.spoken(rest, this.#session);
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
      case '/set':
        await this.#set(rest, asModel);
        return undefined;
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
        if (asModel) this.#print('(finish the turn first)');
        else await this.#reset();
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

  async #set(rest: string, asModel: boolean): Promise<void> {
    const m = /^(\S+)\s+([\s\S]+)$/.exec(rest);
    if (m === null) {
      this.#print('usage: /set <name> <json>');
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(m[2] as string);
    } catch (error) {
      this.#print(`not JSON: ${(error as Error).message}`);
      return;
    }
    await this.#change({ vars: Object.fromEntries([[m[1] as string, value]]) }, asModel);
  }

  async #reset(): Promise<void> {
    await this.#session.close().catch(() => undefined);
    this.#turns = [];
    this.#pending = undefined;
    this.#model.steps.length = 0;
    this.#http.exchanges.length = 0;
    this.#runs.runs.length = 0;
    this.#initialVars = { ...this.#o.vars };
    this.#initialLanguage = this.#o.language;
    this.#startedAt = new Date();
    this.#options = this.#sessionOptions();
    this.#session = createSession(this.#options);
    this.#print('(new session)');
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
    const { lines } = await saveFixture({
      file,
      tools: this.#o.tools,
      toolsFile: this.#o.toolsFile,
      sessionId: SESSION_ID,
      startedAt: this.#startedAt,
      language: this.#initialLanguage,
      languages: this.#o.languages,
      vars: this.#initialVars,
      ...(this.#o.systemValues !== undefined ? { systemValues: this.#o.systemValues } : {}),
      services: this.#o.services,
      speechAck: this.#o.speechAck,
      actions: this.#o.actions,
      turns: this.#turns,
      exchanges: this.#http.exchanges,
      commandRuns: this.#runs.runs,
    });
    for (const line of lines) this.#print(line);
  }
}
