/**
 * The studio's live conversation: a session over the tool set whose model is the page (manual)
 * or an OpenAI-compatible model, whose HTTP goes out for real or to the page's HTTP double, and
 * which records each turn for the timeline and for "save as fixture" (as the REPL's `/save`).
 *
 * The HTTP (real or the page's double, recorded) is page-http.ts; a running turn and how it draws
 * is live-turn.ts; the checks of a language tag and a fixture name are page-input.ts. The class
 * keeps what every move reads and resets: the session and the recorded turns.
 */
import { basename } from 'node:path';
import type { ToolSet } from '../definition/types.js';
import { SecretSet } from '../handlers/endpoint/secret-set.js';
import type { RecordedTurn } from '../harness/fixture-writer.js';
import { ManualModel, type ManualStep } from '../harness/manual-model.js';
import { RecordingModel } from '../harness/recording-model.js';
import { createRecordingRunner, type RecordingRunner } from '../harness/recording-runner.js';
import type { CommandConfig } from '../handlers/command/command-config.js';
import { recordTurn, saveFixture } from '../harness/session-recording.js';
import { changeSession } from '../harness/session-changes.js';
import type { Model } from '../models/types.js';
import { createSession } from '../session/create-session.js';
import type { ServiceConfig, Session, SessionOptions } from '../session/types.js';
import type { DoubleExchange, IssueView, StudioState } from './protocol.js';
import { PageActions } from './page-actions.js';
import { liveTimeline, type LiveTurn } from './live-turn.js';
import { StudioHttp } from './page-http.js';
import { checkedLanguage, fixtureFile } from './page-input.js';
import { StudioSpeechAcks } from './speech-acks.js';
import { checkSaveTarget } from './save-target.js';
import { StudioProblem } from './studio-problem.js';
import { issueView } from './tool-view.js';
import { tenths } from './timeline.js';

const SESSION_ID = 'studio';

/** Options of {@link StudioSession}. */
export interface StudioSessionOptions {
  readonly tools: ToolSet;
  /** Absolute path of the tools file (a saved fixture names it relative to itself). */
  readonly toolsFile: string;
  /** `manual`: the page plays the model. */
  readonly model: Model | 'manual';
  readonly services?: Readonly<Record<string, ServiceConfig>>;
  /** Programs command tools run, by name (as `--commands` in the REPL). */
  readonly commands?: Readonly<Record<string, CommandConfig>>;
  /** Initial session variables (`--vars`); a new conversation starts with them again. */
  readonly vars?: Readonly<Record<string, unknown>>;
  /** The host's system values (`--system-values`): caller's and called number, time zone. */
  readonly systemValues?: {
    readonly source?: string;
    readonly target?: string;
    readonly timezone?: string;
  };
  /** `host`: the page acknowledges playback (speech-acks.ts), as the REPL's `--speech-ack host`. */
  readonly speechAck?: 'host' | 'auto';
  readonly language?: string;
  readonly languages?: readonly string[];
  /** Where "save as fixture" writes. */
  readonly fixturesDir: string;
  /** Called on every change the page should see. */
  readonly onChange: () => void;
  /** Monotonic ms clock for the timeline. Default `performance.now`. */
  readonly clock?: () => number;
}

/** One conversation held from the page. */
export class StudioSession {
  readonly #o: StudioSessionOptions;
  readonly #clock: () => number;
  readonly #secrets = new SecretSet();
  readonly #http: StudioHttp;
  /** Command runs, recorded for "save as fixture". */
  readonly #runs: RecordingRunner;
  readonly #acks: StudioSpeechAcks;
  readonly #model: RecordingModel;
  #session: Session;
  #turns: LiveTurn[] = [];
  #recorded: RecordedTurn[] = [];
  #startedAt = new Date();
  #pending: ((step: ManualStep) => void) | undefined;
  #actions: PageActions;
  #streaming = '';
  readonly #warnings: IssueView[] = [];
  /** The session's starting language (changed from the page before the first turn). */
  #language: string;
  /** A language switch from the page since the last turn, for the saved fixture. */
  #before: { language?: string } | undefined;

  constructor(options: StudioSessionOptions) {
    this.#o = options;
    this.#clock = options.clock ?? (() => performance.now());
    this.#language = options.language ?? 'en-US';
    this.#actions = new PageActions(options.tools);
    this.#secrets.addServices(options.services ?? {});
    this.#http = new StudioHttp({
      services: options.services,
      scrub: (text) => this.#secrets.scrubText(text),
    });
    this.#runs = createRecordingRunner({
      commands: options.commands ?? {},
      scrub: (text) => this.#secrets.scrubText(text),
    });
    const inner: Model =
      options.model === 'manual'
        ? new ManualModel({
            next: () =>
              new Promise<ManualStep>((resolve) => {
                this.#pending = resolve;
                options.onChange();
              }),
          })
        : options.model;
    this.#model = new RecordingModel(inner);
    this.#acks = new StudioSpeechAcks(options.speechAck === 'host');
    this.#session = createSession(this.#sessionOptions());
  }

  #sessionOptions(): SessionOptions {
    return {
      tools: this.#o.tools,
      model: this.#model,
      dispatcher: this.#http.dispatcher,
      id: SESSION_ID,
      ...(this.#o.vars !== undefined ? { vars: this.#o.vars } : {}),
      language: this.#language,
      ...(this.#o.languages !== undefined ? { languages: this.#o.languages } : {}),
      ...(this.#o.services !== undefined ? { services: this.#o.services } : {}),
      ...(this.#o.commands !== undefined
        ? { commands: this.#o.commands, commandRunner: this.#runs.runner }
        : {}),
      // The page stands in for the host app: an action answers as declared there, else it
      // succeeds with its definition's result (as the REPL without --actions).
      actions: this.#actions.handlers(),
      secrets: this.#secrets,
      ...(this.#o.speechAck !== undefined ? { speechAck: this.#o.speechAck } : {}),
      ...(this.#o.systemValues !== undefined ? { systemValues: this.#o.systemValues } : {}),
      // Shown in the page (a service not configured says why its tools will fail).
      onWarning: (w) => {
        if (this.#warnings.length < 100 && !this.#warnings.some((x) => x.message === w.message))
          this.#warnings.push(issueView(w));
      },
    };
  }

  /** Declares the host's answers to action tools (see {@link PageActions}); between turns. */
  setActions(answers: ReadonlyMap<string, unknown>): void {
    if (this.#turns.at(-1)?.running === true)
      throw new StudioProblem(409, 'turn_running', 'change the action answers between turns');
    this.#actions.set(answers);
    this.#o.onChange();
  }

  /** Everything the page shows of the conversation. */
  state(): StudioState {
    const json = this.#session.toJSON();
    return {
      toolsFile: basename(this.#o.toolsFile),
      model: this.#o.model === 'manual' ? 'manual' : 'openai',
      language: json.language,
      ...(this.#o.languages !== undefined ? { languages: this.#o.languages } : {}),
      vars: json.vars,
      turns: this.#turns.map((t, i) =>
        liveTimeline(t, i, this.#http.exchanges, this.#o.speechAck ?? 'auto'),
      ),
      awaitingModel: this.#pending !== undefined,
      busy: this.#turns.at(-1)?.running === true,
      ended: this.#session.ended,
      http: this.#http.mode,
      double: this.#http.declared,
      actions: Object.fromEntries(this.#actions.declared),
      streaming: this.#streaming,
      speechAck: this.#o.speechAck ?? 'auto',
      warnings: this.#warnings,
    };
  }

  /** The session's plain-JSON state (`toJSON`), for "download session". */
  toJSON(): unknown {
    return this.#session.toJSON();
  }

  /** The caller says something: a turn starts and runs while the page watches. */
  send(user: string): void {
    if (user.trim() === '') throw new StudioProblem(400, 'empty_line', 'say something first');
    if (this.#turns.at(-1)?.running === true)
      throw new StudioProblem(409, 'turn_running', 'a turn is still running: finish it first');
    if (this.#session.ended)
      throw new StudioProblem(409, 'session_ended', 'the session has ended: start a new one');
    const turn: LiveTurn = {
      user,
      startedAt: this.#clock(),
      events: [],
      stepsBefore: this.#model.steps.length,
      httpBefore: this.#http.exchanges.length,
      runsBefore: this.#runs.runs.length,
      running: true,
    };
    this.#turns.push(turn);
    this.#streaming = '';
    void this.#run(turn);
    this.#o.onChange();
  }

  async #run(turn: LiveTurn): Promise<void> {
    const stream = this.#session.send(turn.user);
    let modelError: string | undefined;
    this.#acks.startTurn();
    try {
      for await (const event of stream) {
        turn.events.push({ atMs: tenths(this.#clock() - turn.startedAt), event });
        this.#acks.event(event);
        if (event.type === 'model-error') modelError = event.message;
        if (event.type === 'text-delta') this.#streaming += event.text;
        this.#o.onChange();
      }
      turn.result = await stream.result;
    } catch (error) {
      // A model error is already on the timeline (its event); anything else is shown as the
      // turn's own error so nothing fails silently.
      if (modelError === undefined)
        turn.error = {
          code: 'session_error',
          message: error instanceof Error ? error.message : String(error),
        };
    }
    turn.running = false;
    this.#pending = undefined;
    this.#streaming = '';
    this.#recorded.push(
      recordTurn({
        user: turn.user,
        steps: this.#model.steps.slice(turn.stepsBefore),
        exchanges: this.#http.exchanges.slice(turn.httpBefore),
        runs: this.#runs.runs.slice(turn.runsBefore),
        result: turn.result,
        modelError,
        state: this.#session.toJSON(),
        spoken: this.#acks.endTurn(),
        before: this.#before,
      }),
    );
    this.#before = undefined;
    this.#o.onChange();
  }

  /**
   * The host switches the language between turns (the REPL's `/lang`): before the first turn it
   * is the session's starting language; later, a saved fixture sets it before the next turn.
   */
  async setLanguage(tag: string): Promise<void> {
    if (this.#turns.at(-1)?.running === true)
      throw new StudioProblem(409, 'turn_running', 'change the language between turns');
    const canonical = checkedLanguage(tag, this.#o.languages);
    if (this.#turns.length === 0) this.#language = canonical;
    else this.#before = { ...this.#before, language: canonical };
    this.#session = await changeSession(
      this.#session,
      { language: canonical },
      this.#sessionOptions(),
    );
    this.#o.onChange();
  }

  /** The page's move as the model (manual mode). */
  modelStep(step: ManualStep): void {
    const pending = this.#pending;
    if (pending === undefined)
      throw new StudioProblem(
        409,
        'not_awaiting_model',
        this.#o.model === 'manual'
          ? 'the model is not being asked: say something as the caller first'
          : 'the model is not played from the page (started with --model openai)',
      );
    this.#pending = undefined;
    pending(step);
    this.#o.onChange();
  }

  /** The page played an utterance (`--speech-ack host`); without an id, every one waiting. */
  spoken(speechId: string | undefined): void {
    this.#acks.spoken(this.#session, speechId);
    this.#o.onChange();
  }

  /** The caller barges in: the running turn stops (its calls cancelled as interruption says). */
  interrupt(): void {
    if (this.#turns.at(-1)?.running !== true)
      throw new StudioProblem(409, 'no_turn_running', 'there is no running turn to interrupt');
    if (!this.#session.interrupt())
      throw new StudioProblem(
        409,
        'not_interruptible',
        'a call that may not be interrupted (options.speech.interruptible: false) is pending',
      );
    // The page may still owe the model's move: the interrupted model call gets an empty answer.
    const pending = this.#pending;
    this.#pending = undefined;
    pending?.({ type: 'reply', text: '' });
    this.#o.onChange();
  }

  /** Endpoint calls go to the page's declared answers (`double`), or out for real (`real`). */
  async setHttp(mode: 'real' | 'double', exchanges: readonly DoubleExchange[]): Promise<void> {
    if (this.#turns.at(-1)?.running === true)
      throw new StudioProblem(409, 'turn_running', 'change the HTTP double between turns');
    await this.#http.set(mode, exchanges);
    this.#o.onChange();
  }

  /** Writes the conversation so far as a fixture in the fixtures folder; returns its path. */
  async save(name: string): Promise<string> {
    const file = fixtureFile(name, this.#o.fixturesDir);
    if (this.#recorded.length === 0)
      throw new StudioProblem(409, 'nothing_to_save', 'no turn has ended yet');
    await checkSaveTarget(this.#o.fixturesDir, file);
    const saved = await saveFixture({
      file,
      recordedBy: 'studio',
      name: basename(file).replace(/\.(ya?ml|json)$/, ''),
      tools: this.#o.tools,
      toolsFile: this.#o.toolsFile,
      sessionId: SESSION_ID,
      startedAt: this.#startedAt,
      language: this.#language,
      languages: this.#o.languages,
      vars: this.#o.vars ?? {},
      ...(this.#o.systemValues !== undefined ? { systemValues: this.#o.systemValues } : {}),
      services: this.#o.services,
      commandRuns: this.#runs.runs,
      speechAck: this.#o.speechAck,
      actions: this.#actions.declared.size > 0 ? this.#actions.declared : undefined,
      turns: this.#recorded,
      exchanges: this.#http.exchanges,
    });
    if (!saved.ok) throw new StudioProblem(500, 'save_failed', saved.lines.join(' '));
    return file;
  }

  /** A fresh conversation (the double stays as declared). */
  async reset(): Promise<void> {
    if (this.#turns.at(-1)?.running === true)
      throw new StudioProblem(409, 'turn_running', 'finish the turn first');
    await this.#session.close().catch(() => undefined);
    this.#turns = [];
    this.#recorded = [];
    this.#model.steps.length = 0;
    this.#http.exchanges.length = 0;
    this.#runs.runs.length = 0;
    this.#startedAt = new Date();
    this.#language = this.#o.language ?? 'en-US';
    this.#before = undefined;
    this.#session = createSession(this.#sessionOptions());
    this.#o.onChange();
  }

  async close(): Promise<void> {
    this.#pending?.({ type: 'reply', text: '' });
    await this.#session.close().catch(() => undefined);
    await this.#http.close();
  }
}
