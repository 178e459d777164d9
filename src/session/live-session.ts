/**
 * The live session object of createSession and restoreSession (siblings: create-session.ts,
 * restore-session.ts). It owns the mutable state, serialises turns (a `send` while a turn runs
 * waits for it), creates handlers lazily (an idle session holds no handler, dispatcher or timer;
 * session-handlers.ts makes them), and hands each turn to the turn loop; what the model sees of it
 * (model, tools, prompt) is made by session-view.ts. Endpoint calls go through the process's
 * shared connection pools unless the options name a dispatcher or other pools; what it does with a
 * store's lease (crashed turns closed, the leased save) is leased-save.ts.
 */
import type { ToolDefinition, ToolType } from '../definition/types.js';
import type { SecretSet } from '../handlers/endpoint/secret-set.js';
import type { Handler } from '../handlers/types.js';
import type { ChatMessage, ChatTool, Model } from '../models/types.js';
import type { SessionSystemValues } from '../transform/types.js';
import { resolveArgumentLimits, type ArgumentLimits } from './argument-limits.js';
import { runTurn, traceRefusedTurn } from './run-turn.js';
import { closeResources } from './close-with.js';
import type { WorkflowTools } from './workflow/runtime.js';
import {
  jsonCopy,
  snapshotState,
  systemValues,
  type LazySystemValues,
  type LiveState,
} from './session-state.js';
import { closeCrashedTurns, leasedSave } from './leased-save.js';
import { ModelMessages, StateSnapshots } from './state-snapshots.js';
import { createTurnChannel, type TurnChannel } from './turn-stream.js';
import {
  coordinationOf,
  StaleSessionError,
  type SessionLease,
  type TurnJournal,
} from './coordination.js';
import type { ToolCallResult } from './execute-tool-call.js';
import { BackgroundCalls, backgroundResultMessage } from './voice/background-calls.js';
import { BargeInLock } from './voice/barge-in-lock.js';
import { SpeechLedger } from './voice/speech-ledger.js';
import {
  defaultId,
  sessionEndpointHandler,
  sessionHandler,
  sessionSecrets,
  SessionHandlers,
} from './session-handlers.js';
import { activeModel, activeTools, chatTools, systemMessages } from './session-view.js';
import { hasOwnAgent } from './session-setup.js';
import { releaseTurnController, takeTurnController, type TurnController } from './turn-signals.js';
import type { TurnHost } from './turn-host.js';
import type {
  Session,
  SessionOptions,
  SessionState,
  TurnEvent,
  TurnResult,
  TurnStream,
} from './types.js';

/** The turn queue of a session with no turn queued or running: one settled promise for all. */
const IDLE: Promise<unknown> = Promise.resolve();

/** Thrown by `send`/`run` on a session that has ended (a tool ended it, or `close()`). */
export class SessionEndedError extends Error {
  override readonly name = 'SessionEndedError';
}

export class LiveSession implements Session, TurnHost {
  readonly options: SessionOptions;
  readonly state: LiveState;
  readonly limits: ArgumentLimits;
  readonly now: () => number;
  readonly generateId: () => string;
  endReason: string | undefined;
  journal: TurnJournal | undefined;
  /** Store revision this state was loaded or saved at; undefined: unknown (restored by hand). */
  #revision: number | undefined;
  #lease: SessionLease | undefined;
  readonly speech: SpeechLedger;
  readonly bargeIn = new BargeInLock();
  readonly background = new BackgroundCalls();
  readonly snapshots = new StateSnapshots();
  readonly #messages = new ModelMessages();
  #channel: { emit(event: TurnEvent): void } | undefined;
  #handlers: SessionHandlers | undefined;
  #secrets: SecretSet | undefined;
  #endpoint: (Handler & { close(): Promise<void> }) | undefined;
  #current: TurnController | undefined;
  #queue: Promise<unknown> = IDLE;
  /** Turns queued or running; at 0 the queue goes back to the shared idle promise. */
  #queuedTurns = 0;
  #closed = false;
  #resources: SessionOptions['closeWith'];

  constructor(options: SessionOptions, state: LiveState, revision: number | undefined) {
    this.options = options;
    this.#revision = revision;
    this.state = state;
    // A session loaded from a store at a revision holds exactly the stored history.
    if (revision !== undefined) this.snapshots.storedPrefix = state.history.length;
    this.limits = resolveArgumentLimits(options.limits);
    this.now = options._internal?.now ?? Date.now;
    this.generateId = options._internal?.generateId ?? defaultId;
    this.speech = new SpeechLedger(options.speechAck ?? 'auto');
    this.#resources = options.closeWith;
  }

  get id(): string {
    return this.state.id;
  }

  get vars(): Readonly<Record<string, unknown>> {
    return jsonCopy(this.state.vars);
  }

  get language(): string {
    return this.state.language;
  }

  get ended(): boolean {
    return this.state.ended || this.#closed;
  }

  send(userText: string): TurnStream {
    if (this.ended) throw new SessionEndedError(`session ${this.state.id} has ended`);
    return this.#enqueue(userText, undefined);
  }

  /** Queues a turn behind the running one (caller turns and background-result turns alike). */
  #enqueue(userText: string, background: ToolCallResult | undefined): TurnStream {
    const channel = createTurnChannel(this.options.onEvent, this.speech, this.options.hostError);
    // The queue is the turn itself: it settles with nothing and never rejects (its outcome goes to
    // the channel), so a queue holding it keeps no TurnResult alive until the next turn, and no
    // promise chain per turn is needed to observe it.
    this.#queuedTurns++;
    this.#queue = this.#queued(this.#queue, channel, takeTurnController(), userText, background);
    return channel.stream;
  }

  /**
   * Runs one turn after `previous` settles; delivers its result or error to `channel`. Without a
   * store's coordination the turn is not awaited here: this frame would be held for the whole
   * turn, a second or more in a burst while its call waits for a connection, and so be copied
   * into the old generation (docs/performance-notes.md); the turn's end is chained instead.
   */
  async #queued(
    previous: Promise<unknown>,
    channel: TurnChannel,
    controller: TurnController,
    userText: string,
    background: ToolCallResult | undefined,
  ): Promise<void> {
    // Always a tick first, even when idle: a turn never starts inside send().
    await previous;
    let running: Promise<TurnResult>;
    try {
      if (this.ended) throw new SessionEndedError(`session ${this.state.id} has ended`);
      const coordination = coordinationOf(this.options.store);
      if (coordination !== undefined)
        return await this.#leased(coordination, channel, controller, userText, background);
      this.#current = controller;
      this.#channel = channel;
      running = runTurn(this, userText, controller, channel.emit, channel.events, background);
    } catch (err) {
      this.#turnOver(controller, channel);
      this.#dequeued();
      channel.reject(err);
      return;
    }
    return running.then(
      (result) => {
        this.#turnOver(controller, channel);
        this.#dequeued();
        releaseTurnController(controller);
        channel.resolve(result);
      },
      (err: unknown) => {
        this.#turnOver(controller, channel);
        this.#dequeued();
        channel.reject(err);
      },
    );
  }

  /** A turn under the store's lease (sessions-redis.md): acquired first, released after. */
  async #leased(
    coordination: NonNullable<ReturnType<typeof coordinationOf>>,
    channel: TurnChannel,
    controller: TurnController,
    userText: string,
    background: ToolCallResult | undefined,
  ): Promise<void> {
    let result: TurnResult;
    try {
      const asked = this.now();
      let lease: SessionLease;
      try {
        lease = await coordination.acquire(this.id);
      } catch (err) {
        traceRefusedTurn(this, asked, err);
        throw err;
      }
      this.#current = controller;
      this.#channel = channel;
      try {
        await this.#adopt(lease, userText);
        result = await runTurn(
          this,
          userText,
          controller,
          channel.emit,
          channel.events,
          background,
        );
      } finally {
        this.#turnOver(controller, channel);
        // Not awaited: the release goes out on the store's connection ahead of anything this process
        // sends later (the next turn's acquire cannot overtake it), and waiting for its reply put a
        // whole round trip on every turn. Another process that asks meanwhile retries shortly.
        void lease.release().catch(() => undefined);
      }
    } catch (err) {
      this.#dequeued();
      channel.reject(err);
      return;
    }
    this.#dequeued();
    releaseTurnController(controller);
    channel.resolve(result);
  }

  /** The session no longer runs this turn: its controller, channel, lease and journal let go. */
  #turnOver(controller: TurnController, channel: TurnChannel): void {
    if (this.#current === controller) this.#current = undefined;
    if (this.#channel === channel) this.#channel = undefined;
    this.#lease = undefined;
    this.journal = undefined;
  }

  /**
   * A turn is over. With none queued behind it the queue goes back to the shared idle promise, so
   * an idle session holds no promise of its own (one per turn, kept until the next, outlived the
   * young generation and was copied into the old one).
   */
  #dequeued(): void {
    if (--this.#queuedTurns === 0) this.#queue = IDLE;
  }

  /**
   * Under a fresh lease: refuses a stale copy, closes turns a crashed holder left unsaved (their
   * journaled calls answered, never repeated) and saves that, then opens this turn's journal.
   */
  async #adopt(lease: SessionLease, userText: string): Promise<void> {
    const expected = this.#revision ?? lease.revision;
    if (lease.revision !== expected) throw new StaleSessionError(this.id, expected, lease.revision);
    this.#revision = expected;
    this.#lease = lease;
    if (closeCrashedTurns(this.state, lease.openTurns))
      await this.#save(snapshotState(this.state), false);
    this.journal = lease.journal(this.state.turns + 1, userText);
  }

  /** The turn's save: its last use of the lease, which it releases in the same step. */
  persist(state: SessionState): Promise<void> {
    return this.#save(state, true);
  }

  async #save(state: SessionState, last: boolean): Promise<void> {
    const lease = this.#lease;
    if (lease !== undefined) {
      const expected = this.#revision ?? lease.revision;
      this.#revision = await leasedSave(lease, state, expected, this.snapshots, last);
    } else if (this.options.store !== undefined) {
      await this.options.store.set(state);
    }
  }

  run(userText: string): Promise<TurnResult> {
    return this.send(userText).result;
  }

  interrupt(): boolean {
    if (this.bargeIn.locked) return false;
    this.#current?.abort();
    // After the turn's waits ended by its signal: what was still playing will never be heard.
    this.speech.cutOff();
    return true;
  }

  spoken(speechId: string): boolean {
    if (!this.speech.spoken(speechId)) return false;
    this.#channel?.emit({ type: 'spoken', speechId });
    return true;
  }

  spokenAll(): number {
    // Each acknowledgement is a `spoken` event, as `spoken(id)` makes one: a host or a timeline
    // reading events sees every utterance played, however it was acknowledged.
    const ids = this.speech.spokenAll();
    for (const speechId of ids) this.#channel?.emit({ type: 'spoken', speechId });
    return ids.length;
  }

  async idle(): Promise<void> {
    for (;;) {
      const queue = this.#queue;
      await queue;
      await this.background.settled();
      if (queue === this.#queue && this.background.size === 0) return;
    }
  }

  backgroundFinished(result: ToolCallResult, closed: boolean): void {
    // Object.assign, not a key after a spread (a hidden class per result once optimized).
    const finished = {
      ...result,
      trace: Object.assign({}, result.trace, { background: 'finished' as const }),
    };
    if (closed || this.ended) {
      // No turn after close: keep the result in history so the call is never repeated.
      this.state.history.push({ role: 'system', content: backgroundResultMessage(finished) });
      return;
    }
    const turn = this.#enqueue('', finished);
    this.options.onTurn?.(turn);
  }

  toJSON(): SessionState {
    return snapshotState(this.state);
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#current?.abort();
    await this.#queue;
    await this.background.close();
    const endpoint = this.#endpoint;
    this.#endpoint = undefined;
    this.#handlers = undefined;
    await endpoint?.close();
    // `closeWith` once: a second close() finds the list taken.
    const resources = this.#resources;
    this.#resources = undefined;
    await closeResources(resources);
  }

  secrets(): SecretSet {
    return (this.#secrets ??= sessionSecrets(this.options));
  }

  handlerFor(type: ToolType): Handler {
    const handlers = (this.#handlers ??= new SessionHandlers());
    return (handlers[type] ??=
      type === 'endpoint'
        ? (this.#endpoint = sessionEndpointHandler(this))
        : sessionHandler(type, this));
  }

  hasAgent(name: string): boolean {
    return hasOwnAgent(this.options, name);
  }

  activeModel(): Model {
    return activeModel(this);
  }

  activeTools(): ReadonlyMap<string, ToolDefinition> {
    return activeTools(this);
  }

  chatTools(
    tools: ReadonlyMap<string, ToolDefinition>,
    system: LazySystemValues,
    wf?: WorkflowTools,
  ): readonly ChatTool[] {
    return chatTools(this, tools, system, wf);
  }

  systemMessages(system: LazySystemValues, workflows?: boolean): readonly ChatMessage[] {
    return systemMessages(this, system, workflows);
  }

  modelMessages(head: readonly ChatMessage[]): readonly ChatMessage[] {
    return this.#messages.view(head, this.state.history, this.snapshots.revision);
  }

  systemValues(): SessionSystemValues {
    return systemValues(this.state, this.now(), this.options.systemValues);
  }
}

/**
 * The turn loop's view of a session made by {@link createSession} or {@link restoreSession}.
 * Internal (not exported from the package): transports such as Realtime read the rendered prompt
 * and tools and the history through it.
 */
export function turnHostOf(session: Session): TurnHost | undefined {
  return session instanceof LiveSession ? session : undefined;
}
