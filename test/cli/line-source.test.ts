import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { LineSource } from '../../src/cli/repl/line-source.js';

/** A fake terminal: readline treats it as a TTY and reads key presses from it. */
function terminal(): {
  input: PassThrough & { isTTY: boolean; setRawMode: (b: boolean) => void };
  output: PassThrough & { isTTY: boolean; columns: number };
  written: () => string;
} {
  const input = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => undefined });
  const output = Object.assign(new PassThrough(), { isTTY: true, columns: 80 });
  let text = '';
  output.on('data', (d: Buffer) => (text += d.toString('utf8')));
  return { input, output, written: () => text };
}

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('LineSource on a terminal', () => {
  it('Ctrl-C clears a half-typed line and the next line is read normally', async () => {
    const t = terminal();
    const lines = new LineSource(t.input, t.output);
    const first = lines.next('you> ');
    t.input.write('half typed');
    t.input.write('\u0003');
    await tick();
    t.input.write('hello\r');
    expect(await first).toBe('hello');
    expect(t.written()).toContain('^C');
    lines.close();
  });

  it('Ctrl-C on an empty line says how to leave; a second one in a row ends input', async () => {
    const t = terminal();
    const lines = new LineSource(t.input, t.output);
    const first = lines.next('you> ');
    t.input.write('\u0003');
    await tick();
    expect(t.written()).toContain('(to leave: Ctrl-C again, Ctrl-D or /quit)');
    t.input.write('\u0003');
    expect(await first).toBeUndefined();
    expect(await lines.next('you> ')).toBeUndefined();
  });

  it('Ctrl-C while no line is awaited calls onInterrupt (barge-in) and keeps input open', async () => {
    const t = terminal();
    let interrupts = 0;
    const lines = new LineSource(t.input, t.output, { onInterrupt: () => interrupts++ });
    t.input.write('\u0003');
    await tick();
    expect(interrupts).toBe(1);
    const next = lines.next('you> ');
    t.input.write('still here\r');
    expect(await next).toBe('still here');
    lines.close();
  });

  it('Ctrl-D at a prompt ends input and ends the prompt line', async () => {
    const t = terminal();
    const lines = new LineSource(t.input, t.output);
    const first = lines.next('you> ');
    await tick();
    t.input.write('\u0004');
    expect(await first).toBeUndefined();
    expect(t.written().endsWith('\n')).toBe(true);
  });
});
