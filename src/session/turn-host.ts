/**
 * What the turn loop needs from the session that runs it. Keeps the loop (run-turn, run-round)
 * free of the session class, so each stage can be read and tested on its own.
 */
import type { ToolDefinition, ToolType } from '../definition/types.js';
import type { SecretSet } from '../handlers/endpoint/secret-set.js';
import type { Handler } from '../handlers/types.js';
import type { ChatMessage, ChatTool, Model } from '../models/types.js';
import type { SessionSystemValues } from '../transform/types.js';
import type { ArgumentLimits } from './argument-limits.js';
import type { LazySystemValues, LiveState } from './session-state.js';
import type { TurnJournal } from './coordination.js';
import type { SessionOptions, SessionState } from './types.js';
import type { ToolCallResult } from './execute-tool-call.js';
import type { BackgroundCalls } from './voice/background-calls.js';
import type { BargeInLock } from './voice/barge-in-lock.js';
import type { SpeechLedger } from './voice/speech-ledger.js';
import type { StateSnapshots } from './state-snapshots.js';
import type { WorkflowTools } from './workflow/runtime.js';

/** The session as the turn loop sees it. */
export interface TurnHost {
  readonly options: SessionOptions;
  readonly state: LiveState;
  /** Lazy end-of-turn snapshots; the only way to rewrite a history entry in place. */
  readonly snapshots: StateSnapshots;
  readonly limits: ArgumentLimits;
  readonly now: () => number;
  readonly generateId: () => string;
  handlerFor(type: ToolType): Handler;
  /**
   * The session's secrets (its services' credentials, tokens issued for them, its models' API
   * keys), made on first use: scrubbed from model errors, spans and endpoint outputs.
   */
  secrets(): SecretSet;
  /** Tools the active agent may call. */
  activeTools(): ReadonlyMap<string, ToolDefinition>;
  /** The model of the active agent (`agents[x].model`), else the session's `model`. */
  activeModel(): Model;
  /**
   * The tools in the model's format (static parameters hidden, descriptions rendered). `workflows`:
   * what workflows hide and add (`workflowTools` of `tools`), when the caller has it.
   */
  chatTools(
    tools: ReadonlyMap<string, ToolDefinition>,
    system: LazySystemValues,
    workflows?: WorkflowTools,
  ): readonly ChatTool[];
  /**
   * System messages for the next model call (prompt rendered over session variables).
   * `workflows`: whether the active tools hold tasks (`hasTasks`), when the caller knows.
   */
  systemMessages(system: LazySystemValues, workflows?: boolean): readonly ChatMessage[];
  /**
   * The messages of the next model call: `head` (system messages) then the history, without
   * copying the history (valid until the next call).
   */
  modelMessages(head: readonly ChatMessage[]): readonly ChatMessage[];
  systemValues(): SessionSystemValues;
  hasAgent(name: string): boolean;
  /** The running turn's tool-call journal, when the store keeps one (coordination.ts). */
  readonly journal: TurnJournal | undefined;
  /** Saves the state at the end of a turn (to `options.store`; under a lease, releasing it). */
  persist(state: SessionState): Promise<void>;
  /** Reason given by the effect that ended the session, if any. */
  endReason: string | undefined;
  /** Speech ids and acknowledgements (docs/voice.md). */
  readonly speech: SpeechLedger;
  /** Held while a non-interruptible call is pending. */
  readonly bargeIn: BargeInLock;
  /** Background calls in flight. */
  readonly background: BackgroundCalls;
  /** A background call finished: start a `tool-result` turn (or, once closed, keep the result). */
  backgroundFinished(result: ToolCallResult, closed: boolean): void;
}
