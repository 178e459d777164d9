/**
 * A turn's latency report as the session returns it, and the report of a turn that never ran.
 */
import { NO_USAGE, type ModelUsage } from '../models/types.js';
import type { ModelCallTimings, TurnTimings } from './types.js';

/**
 * A turn's report, its keys in the documented order. Each combination of the optional keys is
 * written as a literal of its own: conditional spreads cost a copy per key and, once optimized,
 * can give every report a hidden class of its own (docs/architecture.md); made every turn.
 */
export function turnTimings(
  totalMs: number,
  firstToken: number | undefined,
  firstToolCall: number | undefined,
  modelCalls: readonly ModelCallTimings[],
  tools: TurnTimings['tools'],
  phrasesSpoken: number,
  usage: ModelUsage,
): TurnTimings {
  if (firstToken === undefined)
    return firstToolCall === undefined
      ? { totalMs, modelCalls, tools, phrasesSpoken, usage }
      : {
          totalMs,
          modelTimeToFirstToolCallMs: firstToolCall,
          modelCalls,
          tools,
          phrasesSpoken,
          usage,
        };
  return firstToolCall === undefined
    ? { totalMs, modelTimeToFirstTokenMs: firstToken, modelCalls, tools, phrasesSpoken, usage }
    : {
        totalMs,
        modelTimeToFirstTokenMs: firstToken,
        modelTimeToFirstToolCallMs: firstToolCall,
        modelCalls,
        tools,
        phrasesSpoken,
        usage,
      };
}

/** The report of a turn that produced none (a turn that failed before it ran). */
export const NO_TIMINGS: TurnTimings = Object.freeze({
  totalMs: 0,
  modelCalls: [],
  tools: [],
  phrasesSpoken: 0,
  usage: NO_USAGE,
});
