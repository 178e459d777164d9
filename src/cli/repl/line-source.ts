/**
 * Lines from stdin as a pull queue: the REPL and the manual model both ask for "the next line",
 * whoever needs it. Works the same for a terminal (with a prompt) and piped input (no prompt).
 *
 * On a terminal, Ctrl-C behaves as in other shells: it clears a half-typed line; on an empty
 * line it says how to leave, and a second Ctrl-C in a row leaves. While nobody waits for a line
 * (a turn is running) it calls `onInterrupt` instead, so the REPL can barge in.
 */
import { createInterface, type Interface } from 'node:readline';
import type { TextOut } from '../io.js';

/** Options of {@link LineSource}. */
export interface LineSourceOptions {
  /** Ctrl-C while no line is awaited (a turn is running). Default: nothing. */
  readonly onInterrupt?: () => void;
}

/** A queue of input lines. */
export class LineSource {
  readonly #rl: Interface;
  readonly #tty: boolean;
  readonly #output: TextOut;
  readonly #queue: string[] = [];
  readonly #waiters: ((line: string | undefined) => void)[] = [];
  readonly #onInterrupt: (() => void) | undefined;
  #closed = false;
  /** The previous key was Ctrl-C on an empty line: another one leaves. */
  #armed = false;

  constructor(
    input: NodeJS.ReadableStream & { readonly isTTY?: boolean },
    output: TextOut,
    options: LineSourceOptions = {},
  ) {
    this.#tty = input.isTTY === true;
    this.#output = output;
    this.#onInterrupt = options.onInterrupt;
    this.#rl = createInterface({
      input,
      ...(this.#tty
        ? { output: output as NodeJS.WritableStream, terminal: true }
        : { terminal: false }),
    });
    this.#rl.on('line', (line) => {
      this.#armed = false;
      const waiter = this.#waiters.shift();
      if (waiter !== undefined) waiter(line);
      else this.#queue.push(line);
    });
    this.#rl.on('SIGINT', () => this.#interrupt());
    this.#rl.on('close', () => {
      this.#closed = true;
      // Ctrl-D at a prompt: end the prompt's line so the shell prompt starts on its own.
      if (this.#tty && this.#waiters.length > 0) this.#output.write('\n');
      for (const w of this.#waiters.splice(0)) w(undefined);
    });
  }

  /** True when input is a terminal (prompts shown, typed lines echoed by the terminal). */
  get interactive(): boolean {
    return this.#tty;
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

  #interrupt(): void {
    if (this.#waiters.length === 0) {
      this.#onInterrupt?.();
      return;
    }
    if (this.#rl.line !== '') {
      this.#armed = false;
      this.#rl.write(null, { ctrl: true, name: 'e' });
      this.#output.write('^C\n');
      // Deleting to the start redraws the prompt, now on the new line, with nothing typed.
      this.#rl.write(null, { ctrl: true, name: 'u' });
      return;
    }
    if (this.#armed) {
      this.#output.write('^C\n');
      this.#waiters.splice(0).forEach((w) => w(undefined));
      this.#closed = true;
      this.#rl.close();
      return;
    }
    this.#armed = true;
    this.#output.write('^C\n(to leave: Ctrl-C again, Ctrl-D or /quit)\n');
    this.#rl.prompt();
  }
}
