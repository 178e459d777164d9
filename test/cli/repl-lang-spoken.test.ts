/**
 * The REPL's `/lang` and `/spoken` in the cases the other REPL tests leave out: an allow-list typed
 * in another case, `/spoken` without an id, acknowledgements typed between turns (not saved as the
 * last turn's `spoken` points) and Enter at the `playback>` prompt.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliInProcess, pipedRepl } from './build.js';

const dir = mkdtempSync(join(tmpdir(), 'sb-repl-lang-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A transfer announced before it runs: under --speech-ack host it waits for playback (50 ms at most). */
const TOOLS = join(dir, 'tools.json');
writeFileSync(
  TOOLS,
  JSON.stringify([
    {
      type: 'action',
      tool: {
        type: 'function',
        function: { name: 'transfer', parameters: { type: 'object', properties: {} } },
      },
      options: {
        speech: {
          before: { mode: 'always', phrases: { en: 'Let me connect you.' } },
          max_wait_ms: 50,
        },
      },
    },
  ]),
);

describe('repl /lang', () => {
  it('--languages in any case: the tags are compared canonical, so /lang es-US is allowed', async () => {
    const r = await pipedRepl(
      'fixtures/tools/language.json',
      ['--languages', 'en-us,es-us'],
      ['/lang es-US', '/lang fr-FR', '/quit'],
    );
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain('(language: es-US)');
    expect(r.out).toContain('fr-FR is not an allowed language (allowed: en-us, es-us)');
  });
});

describe('repl /spoken under --speech-ack host', () => {
  it('/spoken without an id marks every utterance played, as /spoken all', async () => {
    const r = await pipedRepl(
      TOOLS,
      ['--speech-ack', 'host'],
      ['hello', '/reply Hello there.', '/spoken', '/quit'],
    );
    expect(r.code).toBe(0);
    expect(r.out).toContain('1 utterance(s) marked spoken');
    expect(r.out).not.toContain('no utterance waits for playback');
  });

  it('an acknowledgement typed after the turn ended is not saved as a spoken point of that turn', async () => {
    const saved = join(dir, 'between-turns.yaml');
    const r = await pipedRepl(
      TOOLS,
      ['--speech-ack', 'host'],
      ['hello', '/reply Hello there.', '/spoken all', `/save ${saved}`, '/quit'],
    );
    expect(r.code).toBe(0);
    expect(r.out).toContain('1 utterance(s) marked spoken');
    expect(readFileSync(saved, 'utf8')).not.toMatch(/spoken:/);
    expect((await cliInProcess(['test', saved])).status).toBe(0);
  });

  it('Enter at the playback prompt lets the call wait on its own: no reminder, the next line is the model move', async () => {
    const r = await pipedRepl(
      TOOLS,
      ['--speech-ack', 'host'],
      ['Put me through', '/call transfer {}', '', '/reply Connected.', '/quit'],
    );
    expect(r.code).toBe(0);
    expect(r.out).not.toContain('(transfer still waits');
    expect(r.out).toContain('action  transfer');
    expect(r.out).toContain('model   Connected.');
  });
});
