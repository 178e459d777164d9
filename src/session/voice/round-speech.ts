/**
 * What the engine itself says while a round's calls run (docs/voice.md): pre-tool speech
 * (`options.speech.before`, mode `always` at dispatch or `if_slow` after `delay_ms`) and bridge
 * phrases (bridge.ts). One schedule per round with two rules: nothing is spoken for a call whose
 * result is in, and a phrase is skipped while the previous one of this schedule is still being
 * played (`speechAck: 'host'`), so the engine never talks over itself. Timers are global (fake
 * timers in tests) and unref'd.
 */
import type { ToolDefinition } from '../../definition/types.js';
import type { TurnTracing } from '../../observability/turn-tracing.js';
import {
  bridgePhrasesFor,
  DEFAULT_BRIDGE_THRESHOLD_SECS,
  startBridge,
  type BridgeCandidate,
} from '../bridge.js';
import type { BridgeOptions, TurnEvent } from '../types.js';
import { pickByLanguage } from './pick-language.js';
import type { SpeechLedger } from './speech-ledger.js';

/** What the schedule needs from the round. */
export interface RoundSpeechOptions {
  readonly language: string;
  readonly bridge: BridgeOptions | undefined;
  readonly ledger: SpeechLedger;
  readonly emit: (event: TurnEvent) => void;
  readonly tracing?: TurnTracing | undefined;
}

/**
 * Whether a call of `tool` may speak while it runs (before checking the language): a pre-tool
 * phrase, or bridge phrases of its own or the session's. A round makes its schedule only for
 * such a call; for any other one `callStarted` would do nothing.
 */
export function maySpeak(tool: ToolDefinition, bridge: BridgeOptions | undefined): boolean {
  const before = tool.options.speech.before;
  if (before !== undefined && before.mode !== 'never') return true;
  if (bridge?.phrases !== undefined && Object.hasOwn(bridge.phrases, tool.name)) return true;
  for (const tag in tool.options.bridgePhrases)
    if (Object.hasOwn(tool.options.bridgePhrases, tag)) return true;
  return false;
}

/** The speech schedule of one round. */
export class RoundSpeech {
  readonly #o: RoundSpeechOptions;
  readonly #candidates: BridgeCandidate[] = [];
  // Made on first use: most rounds speak nothing.
  #timers: Set<ReturnType<typeof setTimeout>> | undefined;
  #rotation: Map<string, number> | undefined;
  #bridge: { stop(): void } | undefined;
  #last: string | undefined;

  constructor(options: RoundSpeechOptions) {
    this.#o = options;
  }

  /**
   * A call was prepared and is about to be dispatched; `done()` turns true when its result is in.
   * Returns whether `done` was kept (a phrase may be spoken for the call), so a caller that gets
   * false need not track the call's end.
   */
  callStarted(tool: ToolDefinition, done: () => boolean): boolean {
    let kept = false;
    const before = tool.options.speech.before;
    if (before !== undefined && before.mode !== 'never') {
      const phrases = pickByLanguage(before.phrases, this.#o.language);
      if (phrases !== undefined && phrases.length > 0) {
        this.#rotation ??= new Map();
        const n = this.#rotation.get(tool.name) ?? 0;
        this.#rotation.set(tool.name, n + 1);
        const text = phrases[n % phrases.length] ?? '';
        kept = true;
        if (before.mode === 'always') this.#say(text, tool.name, 'pre-tool', done);
        else this.#later(before.delayMs, () => this.#say(text, tool.name, 'pre-tool', done));
      }
    }
    const phrases = bridgePhrasesFor(tool, this.#o.language, this.#o.bridge);
    if (phrases === undefined) return kept;
    this.#candidates.push({ tool: tool.name, phrases, done });
    this.#bridge ??= startBridge({
      thresholdSecs: this.#o.bridge?.thresholdSecs ?? DEFAULT_BRIDGE_THRESHOLD_SECS,
      candidates: () => this.#candidates,
      say: (text, name) => {
        this.#say(text, name, 'bridge', () => false);
      },
    });
    return true;
  }

  /** The round's calls are all finished: nothing more is spoken. */
  stop(): void {
    this.#bridge?.stop();
    if (this.#timers === undefined) return;
    for (const t of this.#timers) clearTimeout(t);
    this.#timers.clear();
  }

  #later(ms: number, run: () => void): void {
    const timer = setTimeout(() => {
      this.#timers?.delete(timer);
      run();
    }, ms);
    timer.unref?.();
    (this.#timers ??= new Set()).add(timer);
  }

  #say(text: string, tool: string, source: 'pre-tool' | 'bridge', done: () => boolean): void {
    if (text === '' || done()) return;
    if (this.#last !== undefined && this.#o.ledger.isPending(this.#last)) return;
    const speechId = this.#o.ledger.open();
    this.#last = speechId;
    this.#o.tracing?.phrase(source, tool);
    this.#o.emit({ type: 'say', text, source, tool, speechId });
  }
}
