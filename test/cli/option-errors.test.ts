/**
 * Usage mistakes in any command's options: the option is named, with the nearest real option
 * for a misspelling, and a malformed JSON value is shown with a caret at the place it breaks.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { closestName } from '../../src/did-you-mean.js';
import { optionsInHelp } from '../../src/cli/option-errors.js';
import { runCli } from '../../src/cli/run-cli.js';
import { cliInProcess } from './build.js';
import { transformHelp } from '../../src/cli/commands/transform.js';

/** `switchboard …` in this process (build.ts): its exit code and output. */
async function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const { status, stdout, stderr } = await cliInProcess(argv);
  return { code: status, stdout, stderr };
}

/** The first line of stderr: the message, before the command's help. */
const first = (text: string): string => text.split('\n\n')[0] ?? '';

const WEATHER = ['transform', 'fixtures/tools/weather.yaml', 'get_weather'];

describe('option mistakes name the option and the fix', () => {
  it("an unknown option suggests the nearest one, not Node's parseArgs text", async () => {
    const r = await run([...WEATHER, '--arg', '{}']);
    expect(r.code).toBe(2);
    expect(first(r.stderr)).toBe(
      'switchboard transform: unknown option --arg; did you mean --args <json>? (an argument that starts with "-" goes after "--")',
    );
    expect(r.stderr).not.toContain('To specify a positional argument');
    expect(r.stderr).toContain('Usage: switchboard transform');
  });

  it('every command gets the same treatment (one helper in the shell)', async () => {
    const cases: [string[], string][] = [
      [['validate', '--jsno', 'x.json'], 'unknown option --jsno; did you mean --json?'],
      [['test', '--reporte', 'tap'], 'unknown option --reporte; did you mean --reporter <name>?'],
      [['simulate', '--timing', 'f.yaml'], 'unknown option --timing; did you mean --timings?'],
      [
        ['repl', 't.json', '--langauge', 'en'],
        'unknown option --langauge; did you mean --language <tag>?',
      ],
      [
        ['export', '--too', 'vapi', 't.json'],
        'unknown option --too; did you mean --to <platform>?',
      ],
      [['serve', 't.json', '--prot', '1'], 'unknown option --prot; did you mean --port <n>?'],
    ];
    for (const [argv, message] of cases) {
      const r = await run(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(first(r.stderr)).toContain(message);
    }
  });

  it("a flag named after another option's choice names that option with the choice", async () => {
    // `validate --json` exists; `test` gives JSON with --reporter json.
    const cases: [string[], string][] = [
      [['test', 'fixtures', '--json'], 'unknown option --json; did you mean --reporter json?'],
      [['test', '--junit'], 'unknown option --junit; did you mean --reporter junit?'],
      [['repl', 't.json', '--manual'], 'unknown option --manual; did you mean --model manual?'],
    ];
    for (const [argv, message] of cases) {
      const r = await run(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(first(r.stderr)).toContain(message);
    }
    // A placeholder is not a choice: `<file|json>` offers nothing for --file.
    const r = await run(['repl', 't.json', '--file']);
    expect(first(r.stderr)).not.toContain('did you mean');
  });

  it("an option another command takes with a value names that command, not this one's choice", async () => {
    // `repl` has `--speech-ack host|auto`, but `--host` is where `serve` listens.
    const r = await run(['repl', 't.json', '--host', '0.0.0.0']);
    expect(r.code).toBe(2);
    expect(first(r.stderr)).toContain(
      'unknown option --host; it is an option of switchboard serve (--host <addr>)',
    );
    expect(first(r.stderr)).not.toContain('--speech-ack');
    const port = await run(['test', 'fixtures', '--port', '3']);
    expect(first(port.stderr)).toContain(
      'unknown option --port; it is an option of switchboard serve',
    );
  });

  it('a misspelt command names the nearest one', async () => {
    const r = await run(['valdate', 'x.json']);
    expect(r.code).toBe(2);
    expect(first(r.stderr)).toBe('switchboard: unknown command "valdate"; did you mean validate?');
  });

  it('an unknown option before the command is named as an option, not a command', async () => {
    const r = await run(['--verison']);
    expect(r.code).toBe(2);
    expect(first(r.stderr)).toBe(
      "switchboard: unknown option --verison; did you mean --version? (a command's options go after it: switchboard <command> [options])",
    );
    const far = await run(['--json', 'validate', 'x.json']);
    expect(far.code).toBe(2);
    expect(first(far.stderr)).toBe(
      "switchboard: unknown option --json; the options are --help, --version (a command's options go after it: switchboard <command> [options])",
    );
  });

  it('a base URL that is not a URL is a usage error naming its source', async () => {
    let stderr = '';
    const code = await runCli(['repl', 'fixtures/tools/weather.yaml'], {
      stdout: { write: () => true },
      stderr: { write: (t: string) => (stderr += t) },
      stdin: Readable.from([]),
      env: { NO_COLOR: '1', OPENAI_BASE_URL: '127.0.0.1:11434' },
    });
    expect(code).toBe(2);
    expect(stderr.trim()).toBe(
      'switchboard repl: OPENAI_BASE_URL must be an http(s) URL such as http://127.0.0.1:11434/v1, got "127.0.0.1:11434"',
    );
    const serve = await run(['serve', 'fixtures/tools/weather.yaml', '--base-url', 'localhost']);
    expect(serve.code).toBe(2);
    expect(serve.stderr).toContain(
      'switchboard serve: --base-url must be an http(s) URL such as http://127.0.0.1:11434/v1, got "localhost"',
    );
  });

  it("a base URL in another tool's variable (OPENAI_API_BASE) is named, not ignored", async () => {
    const io = (env: Record<string, string>) => {
      const out = { stderr: '' };
      return {
        out,
        io: {
          stdout: { write: () => true },
          stderr: { write: (t: string) => ((out.stderr += t), true) },
          stdin: Readable.from([]),
          env: { NO_COLOR: '1', ...env },
        },
      };
    };
    // Neither a key nor OPENAI_BASE_URL: the usage error says which variable was meant.
    const bare = io({ OPENAI_API_BASE: 'http://127.0.0.1:18912/v1' });
    expect(
      await runCli(['repl', 'fixtures/tools/weather.yaml', '--model', 'openai'], bare.io),
    ).toBe(2);
    expect(bare.out.stderr.trim()).toBe(
      'switchboard repl: --model openai needs OPENAI_API_KEY or OPENAI_BASE_URL (OPENAI_API_BASE is set, but the base URL is read from OPENAI_BASE_URL: rename it)',
    );
    // With a key the command runs, against OpenAI: a warning says where the calls go.
    const keyed = io({ OPENAI_API_KEY: 'k', OPENAI_API_BASE: 'http://127.0.0.1:18912/v1' });
    expect(await runCli(['repl', 'fixtures/tools/weather.yaml'], keyed.io)).toBe(0);
    expect(keyed.out.stderr).toContain(
      "warning: OPENAI_API_BASE is set, but the base URL is read from OPENAI_BASE_URL (the openai package's name), so requests go to https://api.openai.com/v1: rename it to OPENAI_BASE_URL",
    );
  });

  it('transform reads --vars from a file too, as repl, serve and studio do', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-vars-'));
    const file = join(dir, 'vars.yaml');
    writeFileSync(file, 'vars.hospital: Queens Hospital\n');
    const r = await run([
      'transform',
      'fixtures/tools/clinic.json',
      'book_appointment',
      '--args',
      '{"patient_name":"Ada","city":"Bronx","date":"2026-12-01"}',
      '--vars',
      file,
    ]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ hospital: 'Queens Hospital' });
    const list = await run([...WEATHER, '--args', '{"city":"Rome"}', '--vars', '[1]']);
    expect(first(list.stderr)).toContain('--vars must be a JSON object, got a list');
    // A file holding a list is refused the same way as inline JSON.
    const listFile = join(dir, 'list.yaml');
    writeFileSync(listFile, '- 1\n- 2\n');
    const fromFile = await run([...WEATHER, '--args', '{"city":"Rome"}', '--vars', listFile]);
    expect(fromFile.code).toBe(2);
    expect(first(fromFile.stderr)).toContain('--vars must be an object of variables');
  });

  it('nothing near: lists the options', async () => {
    const r = await run(['validate', '--zzzzzz', 'x.json']);
    expect(first(r.stderr)).toBe(
      'switchboard validate: unknown option --zzzzzz; the options are --json, --strict, --help (an argument that starts with "-" goes after "--")',
    );
  });

  it('a missing value, a value given to a flag, and an option where a value belongs', async () => {
    expect(first((await run([...WEATHER, '--args'])).stderr)).toBe(
      'switchboard transform: --args needs a value: --args <json>',
    );
    expect(first((await run([...WEATHER, '--explain=yes'])).stderr)).toBe(
      'switchboard transform: --explain takes no value; write --explain on its own',
    );
    expect(first((await run([...WEATHER, '--args', '--explain'])).stderr)).toContain(
      '--args needs a value (--args <json>), but the next argument is an option',
    );
  });
});

describe('malformed JSON values say where', () => {
  it('input that stops short points past its end (was: "Unexpected end of JSON input")', async () => {
    const r = await run([...WEATHER, '--args', '{"city":']);
    expect(r.code).toBe(2);
    expect(first(r.stderr)).toBe(
      [
        'switchboard transform: --args is not valid JSON: Unexpected end of JSON input (at character 9)',
        '  {"city":',
        '          ^',
        `write it like --args '{"name": "value"}' (double quotes inside, single quotes around it for the shell)`,
      ].join('\n'),
    );
  });

  it('an unquoted name, a short bad token, a list where an object belongs', async () => {
    const unquoted = first((await run([...WEATHER, '--args', '{city: 1}'])).stderr);
    expect(unquoted).toContain(
      "--args is not valid JSON: Expected property name or '}' (at character 2)",
    );
    expect(unquoted).toContain('  {city: 1}\n   ^');
    const token = first((await run([...WEATHER, '--static', 'abc'])).stderr);
    expect(token).toContain("--static is not valid JSON: Unexpected token 'a' (at character 1)");
    expect(token).toContain('  abc\n  ^');
    const escape = first((await run([...WEATHER, '--args', '{"a":\t\u001b[31m}'])).stderr);
    expect(escape).toContain('  {"a":··[31m}\n        ^');
    const list = first((await run([...WEATHER, '--static', '[1]'])).stderr);
    expect(list).toContain('--static must be a JSON object, got a list; write it like --static');
  });
});

describe('helpers', () => {
  it('optionsInHelp reads every option with its usage', () => {
    const options = optionsInHelp(transformHelp);
    expect([...options.keys()]).toEqual([
      '--args',
      '--vars',
      '--static',
      '--language',
      '--system-values',
      '--explain',
      '-h',
      '--help',
    ]);
    expect(options.get('--args')).toBe('--args <json>');
    expect(options.get('-h')).toBe('-h, --help');
  });

  it('closestName: typos and truncations, not unrelated names', () => {
    const names = ['--args', '--vars', '--static', '--explain'];
    expect(closestName({ name: '--arg', candidates: names })).toBe('--args');
    expect(closestName({ name: '--expalin', candidates: names })).toBe('--explain');
    expect(closestName({ name: '--stat', candidates: names })).toBe('--static');
    expect(closestName({ name: '--zzzzzz', candidates: names })).toBeUndefined();
    expect(closestName({ name: '-x', candidates: ['-h', '-o'] })).toBeUndefined();
    expect(closestName({ name: 'hang_up', candidates: ['hangup', 'get_weather'] })).toBe('hangup');
  });

  it('serve and studio refuse --text-markers with --json-tool-calls before anything starts', async () => {
    for (const cmd of ['serve', 'studio']) {
      const r = await run([
        cmd,
        'fixtures/tools/weather.yaml',
        '--text-markers',
        '--json-tool-calls',
      ]);
      expect(r.code).toBe(2);
      expect(first(r.stderr)).toBe(
        `switchboard ${cmd}: --text-markers and --json-tool-calls are two ways for a model to call tools: give one`,
      );
    }
  });
});
