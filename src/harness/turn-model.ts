/**
 * The model a fixture session talks to: one {@link ScriptedModel} per turn behind a stable
 * {@link Model}, so the harness can tell which turn left steps unused or called the model more
 * often than its script says.
 */
import { ScriptedModel, type ScriptedStep } from '../models/scripted.js';
import type { Model, ModelRequest, ModelStreamPart } from '../models/types.js';
import type { ModelStep } from './fixture-schema.js';

/** Turns a fixture step into a scripted-model step; tool call ids are unique per fixture. */
export function toScriptedStep(step: ModelStep, turn: number, index: number): ScriptedStep {
  return {
    ...(step.text !== undefined ? { text: step.text } : {}),
    ...(step.delay_ms !== undefined ? { delayMs: step.delay_ms } : {}),
    ...(step.error !== undefined ? { error: step.error } : {}),
    ...(step.tool_calls !== undefined
      ? {
          tool_calls: step.tool_calls.map((c, i) => ({
            name: c.name,
            args: c.arguments ?? c.args ?? {},
            id: c.id ?? `call_${turn + 1}_${index + 1}_${i + 1}`,
          })),
        }
      : {}),
  };
}

/** A model whose script is replaced at the start of every turn. */
export class TurnModel implements Model {
  readonly name = 'fixture';
  #current: ScriptedModel = new ScriptedModel([], { name: 'fixture' });

  /** Starts a turn with its steps. */
  begin(turn: number, steps: readonly ModelStep[]): void {
    this.#current = new ScriptedModel(
      steps.map((s, i) => toScriptedStep(s, turn, i)),
      { name: `turn ${turn + 1}` },
    );
  }

  /** Scripted steps of the current turn never used. */
  get remaining(): number {
    return this.#current.remaining;
  }

  /** How many times the current turn called the model beyond its script. */
  get overCalls(): number {
    return this.#current.overCalls;
  }

  /** How many times the current turn called the model. */
  get calls(): number {
    return this.#current.callCount;
  }

  stream(request: ModelRequest): AsyncIterable<ModelStreamPart> {
    return this.#current.stream(request);
  }
}
