/**
 * Lines from stdin as a pull queue: the REPL and the manual model both ask for "the next line",
 * whoever needs it. Works the same for a terminal (with a prompt) and piped input (no prompt).
 */
import { createInterface, type Interface } from 'node:readline';
import type { TextOut } from '../io.js';

/** A queue of input lines. */
export class LineSource {
  readonly #rl: Interface;
  readonly #tty: boolean;
  readonly #queue: string[] = [];
  readonly #waiters: ((line: string | undefined) => void)[] = [];
  #closed = false;

  constructor(input: NodeJS.ReadableStream & { readonly isTTY?: boolean }, output: TextOut) {
    this.#tty = input.isTTY === true;
    this.#rl = createInterface({
      input,
      ...(this.#tty
        ? { output: output as NodeJS.WritableStream, terminal: true }
        : { terminal: false }),
    });
    this.#rl.on('line', (line) => {
      const waiter = this.#waiters.shift();
      if (waiter !== undefined) waiter(line);
      else this.#queue.push(line);
    });
    this.#rl.on('close', () => {
      this.#closed = true;
      for (const w of this.#waiters.splice(0)) w(undefined);
    });
  }

  /** The next line, or undefined at end of input. Shows `prompt` on a terminal. */
  next(prompt: string): Promise<string | undefined> {
    const queued = this.#queue.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    if (this.#closed) return Promise.resolve(undefined);
    if (this.#tty) {
      this.#rl.setPrompt(prompt);
      this.#rl.prompt();
    }
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  close(): void {
    this.#rl.close();
  }
}
