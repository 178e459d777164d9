/**
 * A model played by a person (the REPL's manual mode): each model call asks `next` for the step
 * to answer with, e.g. from `/call <tool> <json>` or `/reply <text>` typed at the prompt.
 */
import type { Model, ModelRequest, ModelStreamPart } from '../models/types.js';

/** What the person answers for one model call. */
export type ManualStep =
  | { readonly type: 'reply'; readonly text: string }
  | { readonly type: 'call'; readonly name: string; readonly arguments: string };

/** Options of {@link ManualModel}. */
export interface ManualModelOptions {
  /** Asked once per model call; gets the request (history and tools) for display. */
  readonly next: (request: ModelRequest) => Promise<ManualStep>;
  /** Default `manual`. */
  readonly name?: string;
}

/** A model whose answers come from a person. */
export class ManualModel implements Model {
  readonly name: string;
  readonly #next: ManualModelOptions['next'];
  #calls = 0;

  constructor(options: ManualModelOptions) {
    this.#next = options.next;
    this.name = options.name ?? 'manual';
  }

  stream(request: ModelRequest): AsyncIterable<ModelStreamPart> {
    const next = this.#next;
    const id = `manual_${++this.#calls}`;
    return {
      async *[Symbol.asyncIterator]() {
        const step = await next(request);
        if (step.type === 'reply') {
          if (step.text !== '') yield { type: 'text-delta', text: step.text };
        } else {
          yield { type: 'tool-call', call: { id, name: step.name, arguments: step.arguments } };
        }
        yield { type: 'finish' };
      },
    };
  }
}
