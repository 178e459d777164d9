/**
 * `switchboard repl` with a piped stdin and the manual model, in-process through `runCli` (the
 * real stdin pipe is tested once in cli.test.ts, through the built binary).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliInProcess } from './build.js';

describe('repl (piped stdin, manual model)', () => {
  it('plays a session, saves it as a fixture, and the fixture passes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-repl-'));
    const saved = join(dir, 'saved.yaml');
    const input = [
      '/tools',
      '/set caller_type "staff"',
      'Hola, ¿hablas español?',
      '/call set_language {"language":"es-US"}',
      '/reply ¡Claro!',
      'log this',
      '/call log_call_reason {"reason":"test",}',
      '/call log_call_reason {"reason":"test"}',
      '/reply Listo.',
      '/vars',
      `/save ${saved}`,
      '/quit',
    ].join('\n');
    const r = await cliInProcess(
      ['repl', 'fixtures/tools/language.json', '--languages', 'en-US,es-US', '--model', 'manual'],
      { input },
    );
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('set_language [context]');
    expect(r.stdout).toContain('say     “Claro, continuemos en español.”');
    expect(r.stdout).toContain(`(saved 2 turn(s) to ${saved})`);
    const text = readFileSync(saved, 'utf8');
    expect(text).toContain(
      `tools: ${relative(dir, join(process.cwd(), 'fixtures/tools/language.json'))}`,
    );
    const t = await cliInProcess(['test', saved]);
    expect(t.stdout).toContain('1 passed');
    expect(t.status).toBe(0);
  });
  it('--speech-ack host: shows speech ids, waits for /spoken before a speak-then-act action, saves the acks', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-repl-speech-'));
    const tools = join(dir, 'tools.json');
    writeFileSync(
      tools,
      JSON.stringify([
        {
          type: 'action',
          tool: {
            type: 'function',
            function: { name: 'transfer', parameters: { type: 'object', properties: {} } },
          },
          options: {
            speech: { before: { mode: 'always', phrases: { en: 'Let me connect you.' } } },
          },
        },
      ]),
    );
    const saved = join(dir, 'saved.yaml');
    const input = [
      'Put me through',
      '/call transfer {}',
      'hello?',
      '/spoken sp_9',
      '/spoken sp_1',
      '/reply Connected.',
      `/save ${saved}`,
      '/quit',
    ].join('\n');
    const r = await cliInProcess(['repl', tools, '--model', 'manual', '--speech-ack', 'host'], {
      input,
    });
    expect(r.status).toBe(0);
    const out = r.stdout;
    expect(out).toContain('say     “Let me connect you.” (pre-tool) · sp_1');
    // One line says what waits, for which speech, and what to type: not a second one saying it again.
    const untilTyped = out.slice(0, out.indexOf('(transfer still waits'));
    expect(untilTyped.split('\n').filter((l) => /waits?\b.*sp_1|sp_1 is played/.test(l))).toEqual([
      'wait    transfer until sp_1 is played (at most 10000 ms) — type /spoken sp_1 (or /spoken all) when played, or Enter to let it wait',
    ]);
    expect(out).toContain(
      '(transfer still waits: type /spoken sp_1 (or /spoken all) when played, or Enter to let it wait)',
    );
    expect(out).toContain('sp_9: no utterance waits for playback under this id');
    // The transfer runs after the announcement was played, not before.
    expect(out.indexOf('heard   sp_1 played to the end')).toBeGreaterThan(-1);
    expect(out.indexOf('heard   sp_1')).toBeLessThan(out.indexOf('action  transfer'));
    expect(out).toContain('model   Connected. · sp_2');
    const text = readFileSync(saved, 'utf8');
    expect(text).toContain('speech_ack: host');
    expect(text).toMatch(/spoken:\n\s+- Let me connect you\./);
    expect((await cliInProcess(['test', saved])).status).toBe(0);
    const bad = await cliInProcess(['repl', tools, '--speech-ack', 'maybe'], { input: '' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--speech-ack: expected host or auto, got "maybe"');
    const auto = await cliInProcess(['repl', tools, '--model', 'manual'], {
      input: '/spoken all\n/quit\n',
    });
    expect(auto.stdout).toContain('(speech counts as played when emitted');
  });
  it('narrates the caller and each step before asking the model again; /lang checks the allow-list', async () => {
    const input = [
      '/lang fr-FR',
      '/lang not a tag!',
      '/lang ES-us',
      '/lang',
      'back to English please',
      '/call set_language {"language":"en-US"}',
      '/reply Sure.',
      '/quit',
    ].join('\n');
    const r = await cliInProcess(
      ['repl', 'fixtures/tools/language.json', '--languages', 'en-US,es-US', '--model', 'manual'],
      { input },
    );
    expect(r.status).toBe(0);
    const out = r.stdout;
    expect(out).toContain('fr-FR is not an allowed language (allowed: en-US, es-US)');
    expect(out).toContain('not a BCP-47 language tag: "not a tag!"');
    expect(out).toContain('(language: es-US)');
    expect(out).toContain('language: es-US (allowed: en-US, es-US)');
    expect(out).toContain('caller  back to English please');
    // The tool's effects are narrated before the model's next answer, not after it; piped
    // input shows no prompts.
    const lang = out.indexOf('lang    es-US → en-US');
    expect(lang).toBeGreaterThan(-1);
    expect(lang).toBeLessThan(out.indexOf('model   Sure.'));
    expect(out).not.toContain('(your move as the model');
  });
  it('refuses a --language outside --languages or malformed (exit 2)', async () => {
    const r = await cliInProcess(
      ['repl', 'fixtures/tools/language.json', '--languages', 'en-US,es-US', '--language', 'fr'],
      { input: '' },
    );
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--language: fr is not an allowed language');
    const m = await cliInProcess(
      ['repl', 'fixtures/tools/language.json', '--languages', 'en-US,??'],
      {
        input: '',
      },
    );
    expect(m.status).toBe(2);
    expect(m.stderr).toContain('--languages: not a BCP-47 language tag: "??"');
    const d = await cliInProcess(['repl', 'fixtures/tools/language.json', '--languages', 'es-US'], {
      input: '/lang\n',
    });
    expect(d.status).toBe(0);
    expect(d.stdout).toContain('language: es-US (allowed: es-US)');
  });
  it('endpoint calls are announced as real; unknown tools file exits 2', async () => {
    const r = await cliInProcess(['repl', 'fixtures/tools/clinic.json'], { input: '/quit\n' });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Endpoint calls go out for real, to:');
    expect(r.stdout).toContain('book_appointment: POST https://api.clinic.test/v1/appointments');
    expect((await cliInProcess(['repl', 'nope.json'], { input: '' })).status).toBe(2);
  });
});
