/**
 * Bridge phrases: short filler lines ("One moment while I look that up") spoken while slow tools
 * run, so a voice caller never hears dead air. One schedule per round of tool calls: at the
 * threshold, then 2×, 3× and 4× of it, the first still-running call (in call order) that has
 * phrases for the session language speaks its next phrase. Nothing is spoken once every call of
 * the round has finished: `stop()` clears the timer. Uses the global timers, so tests drive it
 * with fake timers.
 */
import type { ToolDefinition } from '../definition/types.js';
import type { BridgeOptions } from './types.js';

/** Default seconds before the first phrase. */
export const DEFAULT_BRIDGE_THRESHOLD_SECS = 2.75;
/** Phrases are spoken at most at 1×, 2×, 3× and 4× the threshold. */
const MAX_TICKS = 4;

/**
 * The phrases for a tool in a language: session options first (`bridge.phrases[tool]`), then the
 * definition's `options.bridgePhrases`. Within each, an exact tag (case-insensitive), then the
 * primary language (`es` for `es-US`), then `"*"`.
 */
export function bridgePhrasesFor(
  tool: ToolDefinition,
  language: string,
  options: BridgeOptions | undefined,
): readonly string[] | undefined {
  const fromSession =
    options?.phrases !== undefined && Object.hasOwn(options.phrases, tool.name)
      ? options.phrases[tool.name]
      : undefined;
  return (
    (fromSession === undefined ? undefined : pickLanguage(fromSession, language)) ??
    pickLanguage(tool.options.bridgePhrases, language)
  );
}

function pickLanguage(
  byLanguage: Readonly<Record<string, readonly string[]>>,
  language: string,
): readonly string[] | undefined {
  // Called for every tool call, and most tools have no phrases: nothing is allocated until a tag
  // is seen (no entries array, no case-folded copies).
  let wanted: string | undefined;
  let primary: string | undefined;
  let primaryMatch: readonly string[] | undefined;
  let anyMatch: readonly string[] | undefined;
  for (const tag in byLanguage) {
    if (!Object.hasOwn(byLanguage, tag)) continue;
    const phrases = byLanguage[tag];
    if (phrases === undefined || phrases.length === 0) continue;
    if (wanted === undefined) {
      wanted = language.toLowerCase();
      primary = wanted.split('-', 1)[0] ?? wanted;
    }
    const t = tag.toLowerCase();
    if (t === wanted) return phrases;
    if (t === primary) primaryMatch ??= phrases;
    else if (t === '*') anyMatch ??= phrases;
  }
  return primaryMatch ?? anyMatch;
}

/** A running call the scheduler may speak for. */
export interface BridgeCandidate {
  readonly tool: string;
  readonly phrases: readonly string[];
  /** True once the call finished. */
  readonly done: () => boolean;
}

/** Starts a round's schedule; `stop()` must be called when the round's calls have finished. */
export function startBridge(options: {
  readonly thresholdSecs: number;
  readonly candidates: () => readonly BridgeCandidate[];
  readonly say: (text: string, tool: string) => void;
}): { stop(): void } {
  let tick = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const spoken = new Map<string, number>();
  const schedule = (): void => {
    timer = setTimeout(fire, options.thresholdSecs * 1000);
    // A bridge timer alone must never keep the process alive.
    timer.unref?.();
  };
  const fire = (): void => {
    timer = undefined;
    tick++;
    const candidate = options.candidates().find((c) => !c.done());
    if (candidate === undefined) return;
    const n = spoken.get(candidate.tool) ?? 0;
    spoken.set(candidate.tool, n + 1);
    const text = candidate.phrases[n % candidate.phrases.length];
    if (text !== undefined) options.say(text, candidate.tool);
    if (tick < MAX_TICKS) schedule();
  };
  if (options.thresholdSecs > 0) schedule();
  return {
    stop(): void {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}
