import { spawnSync } from 'node:child_process';
import { Readable } from 'node:stream';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { assertWellFormedXml } from '../harness/xml-check.js';
import { buildOnce, cli, cliInProcess } from './build.js';

beforeAll(() => buildOnce(), 120_000);

/**
 * What only a process shows, through the built binary: the bin run by its shebang, the exit
 * status the shell sees for each outcome, and stdin read from a real pipe. Everything else runs
 * in-process through `runCli` (the same code main.js calls), which is far cheaper than a spawn.
 */
describe('switchboard (built binary)', () => {
  it('--version from the bin and by its shebang; exit status 1 and 2 reach the shell', () => {
    const v = cli(['--version']);
    expect(v.status).toBe(0);
    expect(v.stdout.trim()).toBe(
      (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version,
    );
    expect(readFileSync('dist/cli/main.js', 'utf8').startsWith('#!/usr/bin/env node')).toBe(true);
    // Run by its shebang, as `npx switchboard` and an installed bin run it (the build makes it
    // executable: tsc alone does not).
    const direct = spawnSync('./dist/cli/main.js', ['--version'], { encoding: 'utf8' });
    expect(direct.error).toBeUndefined();
    expect(direct.stdout.trim()).toBe(v.stdout.trim());
    const failing = cli(['test', 'fixtures/failing/wrong-argument.yaml']);
    expect(failing.status).toBe(1);
    expect(failing.stdout).toContain('0 passed, 1 failed');
    const bad = cli(['frobnicate']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('unknown command "frobnicate"');
  });

  it('repl reads a session from a real stdin pipe, saves it, and the saved fixture passes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-repl-pipe-'));
    const saved = join(dir, 'saved.yaml');
    // No /quit: the end of the pipe ends the session.
    const input = ['hello', '/reply Hi there.', `/save ${saved}`].join('\n');
    const r = cli(['repl', 'fixtures/tools/language.json', '--model', 'manual'], { input });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`(saved 1 turn(s) to ${saved})`);
    const t = cli(['test', saved]);
    expect(t.stdout).toContain('1 passed');
    expect(t.status).toBe(0);
  });
});

describe('switchboard (in-process)', () => {
  it('--help, per-command help, an unknown command', async () => {
    const v = await cliInProcess(['--version']);
    expect(v.status).toBe(0);
    expect(v.stdout.trim()).toBe(
      (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version,
    );
    const main = await cliInProcess(['--help']);
    expect(main.status).toBe(0);
    expect(main.stdout).toContain('Usage: switchboard <command>');
    for (const c of ['test', 'validate', 'transform', 'simulate', 'repl']) {
      const h = await cliInProcess([c, '--help']);
      expect(h.status).toBe(0);
      expect(h.stdout).toContain(`Usage: switchboard ${c}`);
    }
    const bad = await cliInProcess(['frobnicate']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('unknown command "frobnicate"');
    // An unexpected failure inside a command is reported, not thrown, and exits 2.
    let thrown = '';
    const code = await runCli(['validate', 'fixtures/tools/clinic.json'], {
      stdout: {
        write: () => {
          throw new Error('disk full');
        },
      },
      stderr: { write: (t: string) => (thrown += t) },
      stdin: Readable.from([]),
      env: { NO_COLOR: '1' },
    });
    expect(code).toBe(2);
    expect(thrown).toContain('switchboard validate: unexpected error: Error: disk full');
    // No command at all is a usage mistake: the help, and exit 2 (a script's typo must not pass).
    const none = await cliInProcess([]);
    expect(none.status).toBe(2);
    expect(none.stdout).toContain('Usage: switchboard <command>');
  });

  describe('test', () => {
    it('passes the conversation fixtures by default (exit 0)', async () => {
      const r = await cliInProcess(['test']);
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      expect(r.stdout).toMatch(/fixtures: \d+ passed, 0 failed/);
    });
    it('fails the failing fixtures (exit 1) with readable reasons', async () => {
      const r = await cliInProcess(['test', 'fixtures/failing']);
      expect(r.status).toBe(1);
      expect(r.stdout).toContain('turns[0].expect.tool_calls[0].args.city: different value');
      expect(r.stdout).toContain('expected: "Bronx"');
      expect(r.stdout).toContain('actual:   "The Bronx"');
    });
    it('exits 2 on a malformed fixture and on a missing path', async () => {
      const r = await cliInProcess(['test', 'test/harness/data/malformed.yaml']);
      expect(r.status).toBe(2);
      expect(r.stdout).toContain(
        'test/harness/data/malformed.yaml: turns[0].model[0].tool_calls[0].name: is required',
      );
      const m = await cliInProcess(['test', 'no/such/dir']);
      expect(m.status).toBe(2);
      expect(m.stdout).toContain('no/such/dir: no such file or directory');
      expect(
        (await cliInProcess(['test', 'fixtures/conversations', '--reporter', 'xml'])).status,
      ).toBe(2);
    });
    it('exits 2 when the paths hold no fixture (a folder of tools files)', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'no-fixtures-'));
      writeFileSync(join(dir, 'tools.json'), readFileSync('fixtures/tools/clinic.json'));
      const r = await cliInProcess(['test', dir]);
      rmSync(dir, { recursive: true, force: true });
      expect(r.status).toBe(2);
      expect(r.stderr).toBe(`switchboard test: no fixtures found in ${dir}\n`);
    });
    it('JUnit output is well-formed XML with one testcase per fixture', async () => {
      const r = await cliInProcess([
        'test',
        'fixtures/failing',
        'fixtures/conversations/demo.yaml',
        '--reporter',
        'junit',
      ]);
      expect(r.status).toBe(1);
      assertWellFormedXml(r.stdout);
      const failing = readdirSync('fixtures/failing').length;
      expect(r.stdout.match(/<testcase /g)?.length).toBe(failing + 1);
      expect(r.stdout.match(/<failure /g)?.length).toBe(failing);
    });
    it('TAP and JSON reporters', async () => {
      const tap = await cliInProcess([
        'test',
        'fixtures/conversations/demo.yaml',
        '--reporter',
        'tap',
      ]);
      expect(tap.stdout.split('\n').slice(0, 3)).toEqual([
        'TAP version 13',
        '1..1',
        'ok 1 - a pleasant clinic booking, then Spanish',
      ]);
      const json = await cliInProcess([
        'test',
        'fixtures/failing/unused-step.yaml',
        '--reporter',
        'json',
      ]);
      expect(json.status).toBe(1);
      const doc = JSON.parse(json.stdout) as {
        failed: number;
        results: { failures: { kind: string }[] }[];
      };
      expect(doc.failed).toBe(1);
      expect(doc.results[0]?.failures[0]?.kind).toBe('unused_steps');
    });
  });

  it('test with no path, where the default folder does not exist, says to name fixtures', async () => {
    const here = process.cwd();
    process.chdir(mkdtempSync(join(tmpdir(), 'sb-empty-')));
    try {
      const r = await cliInProcess(['test']);
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        'switchboard test: no fixture named, and no fixtures/conversations folder (the default) here; name fixture files or folders: switchboard test my-bot.yaml\n',
      );
    } finally {
      process.chdir(here);
    }
  });

  it('simulate narrates the demo and exits 0; a failing fixture exits 1', async () => {
    const r = await cliInProcess(['simulate', 'fixtures/conversations/demo.yaml']);
    expect(r.status).toBe(0);
    expect(r.stdout).not.toContain('\u001b[');
    for (const text of [
      "caller  Hi! I'd like to book",
      'model   calls book_appointment {"patient_name":"Ana Ruiz","city":"Bronx"',
      'after transforms: {"patient_name":"Ana Ruiz","city":"The Bronx"',
      'http    → POST https://api.clinic.test/v1/appointments',
      '← 201 {"id":"A-1042","status":"confirmed"}',
      'lang    en-US → es-US',
      'say     “This call may be recorded for quality purposes.”',
      '✓ passed',
    ])
      expect(r.stdout).toContain(text);
    const colored = await cliInProcess(['simulate', 'fixtures/conversations/demo.yaml'], {
      env: { NO_COLOR: '', FORCE_COLOR: '1' },
    });
    expect(colored.stdout).toContain('\u001b[');
    const forcedOff = await cliInProcess(['simulate', 'fixtures/conversations/demo.yaml'], {
      env: { NO_COLOR: '', FORCE_COLOR: '0' },
    });
    expect(forcedOff.stdout).toContain('✓ passed');
    expect(forcedOff.stdout).not.toContain('\u001b[');
    const f = await cliInProcess(['simulate', 'fixtures/failing/wrong-argument.yaml']);
    expect(f.status).toBe(1);
    expect(f.stdout).toContain('✗ failed');
    expect((await cliInProcess(['simulate', 'test/harness/data/malformed.yaml'])).status).toBe(2);
  });

  describe('validate', () => {
    it('exit 0 with a summary for good files', async () => {
      const r = await cliInProcess([
        'validate',
        'fixtures/tools/clinic.json',
        'fixtures/tools/weather.yaml',
      ]);
      expect(r.status).toBe(0);
      expect(r.stdout).toContain('✓ fixtures/tools/weather.yaml: 1 tool(s) (get_weather)');
    });
    it('exit 1 with file: path: message for a bad file; --json', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'sb-'));
      const file = join(dir, 'bad.json');
      writeFileSync(
        file,
        JSON.stringify([
          {
            tool: { type: 'function', function: { name: 'x', parameters: { type: 'object' } } },
            endpoint: { url: 'https://a.test/', method: 'patch' },
          },
        ]),
      );
      const r = await cliInProcess(['validate', file]);
      expect(r.status).toBe(1);
      expect(r.stdout).toContain(`${file}: tools[0].endpoint.method`);
      const j = await cliInProcess(['validate', '--json', file]);
      expect(j.status).toBe(1);
      expect((JSON.parse(j.stdout) as { errors: number }).errors).toBeGreaterThan(0);
      expect((await cliInProcess(['validate', join(dir, 'missing.json')])).status).toBe(2);
      expect((await cliInProcess(['validate'])).status).toBe(2);
    });
    it('a directory stands for the tool files directly in it', async () => {
      const r = await cliInProcess(['validate', 'fixtures/tools']);
      expect(r.status).toBe(0);
      expect(r.stdout).toContain('✓ fixtures/tools/clinic.json: 3 tool(s)');
      expect(r.stdout).toContain('✓ fixtures/tools/weather.yaml: 1 tool(s) (get_weather)');
      expect(r.stdout).toContain('in 5 file(s)');
      const empty = mkdtempSync(join(tmpdir(), 'sb-'));
      const e = await cliInProcess(['validate', empty]);
      expect(e.status).toBe(2);
      expect(e.stderr).toContain(`${empty}: no .json, .yaml or .yml files in it`);
    });
    it("a project's root or a fixtures folder: fixtures and package manifests are skipped, and said", async () => {
      const dir = mkdtempSync(join(tmpdir(), 'sb-'));
      writeFileSync(join(dir, 'package.json'), '{"name":"bot","version":"1.0.0"}');
      writeFileSync(join(dir, 'package-lock.json'), '{"lockfileVersion":3}');
      writeFileSync(join(dir, 'tsconfig.json'), '{"compilerOptions":{}}');
      writeFileSync(join(dir, 'call.yaml'), 'name: a call\ntools: tools.yaml\nturns: []\n');
      writeFileSync(
        join(dir, 'tools.yaml'),
        '- type: log\n  tool: { type: function, function: { name: note } }\n',
      );
      const r = await cliInProcess(['validate', dir]);
      expect(r.status).toBe(0);
      expect(r.stdout.split('\n')).toEqual([
        `✓ ${join(dir, 'tools.yaml')}: 1 tool(s) (note)`,
        `- ${join(dir, 'call.yaml')}: skipped, a conversation fixture (run it with switchboard test)`,
        `- ${join(dir, 'package-lock.json')}: skipped, a package or TypeScript manifest, not a tools file`,
        `- ${join(dir, 'package.json')}: skipped, a package or TypeScript manifest, not a tools file`,
        `- ${join(dir, 'tsconfig.json')}: skipped, a package or TypeScript manifest, not a tools file`,
        '0 error(s), 0 warning(s) in 1 file(s)',
        '',
      ]);
      const j = JSON.parse((await cliInProcess(['validate', '--json', dir])).stdout) as {
        skipped: { file: string }[];
      };
      expect(j.skipped.map((k) => k.file)).toHaveLength(4);
      // Named on its own, a fixture is still validated, and said to be one.
      const one = await cliInProcess(['validate', join(dir, 'call.yaml')]);
      expect(one.status).toBe(1);
      expect(one.stdout).toContain('this is a conversation fixture, not a tools file');
    });
  });

  describe('transform', () => {
    it('prints exactly the final arguments on stdout', async () => {
      const r = await cliInProcess([
        'transform',
        'fixtures/tools/weather.yaml',
        'get_weather',
        '--args',
        '{"city":"Paris"}',
        '--static',
        '{"units":"imperial"}',
        '--language',
        'fr-FR',
      ]);
      expect(r.status).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({
        city: 'Paris',
        units: 'imperial',
        lang: 'fr-FR',
        include_alerts: true,
        days: 1,
      });
      expect(r.stderr).toBe('');
    });
    it('--explain goes to stderr; vars feed templates', async () => {
      const r = await cliInProcess([
        'transform',
        'fixtures/tools/clinic.json',
        'get_appointment',
        '--args',
        '{"appointment_id":""}',
        '--vars',
        '{"appointment_id":"Z9"}',
        '--explain',
      ]);
      expect(r.status).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({ appointment_id: 'Z9' });
      expect(r.stderr).toContain('applied default "appointment_id" = "Z9"');
    });
    it('exit 2 for unknown tool (listing the tools), malformed JSON, bad definition', async () => {
      const u = await cliInProcess(['transform', 'fixtures/tools/weather.yaml', 'nope']);
      expect(u.status).toBe(2);
      expect(u.stderr).toContain('available: get_weather');
      expect(u.stdout).toBe('');
      const m = await cliInProcess([
        'transform',
        'fixtures/tools/weather.yaml',
        'get_weather',
        '--args',
        '{city:',
      ]);
      expect(m.status).toBe(2);
      expect(m.stderr).toContain('--args is not valid JSON');
      const dir = mkdtempSync(join(tmpdir(), 'sb-'));
      writeFileSync(join(dir, 't.json'), '[{"tool": 1}]');
      const b = await cliInProcess(['transform', join(dir, 't.json'), 'x']);
      expect(b.status).toBe(2);
      expect(b.stderr).toContain('tools[0].tool');
    });
    it('exit 2 with the reason when the arguments fail the schema (SPEC §6: bad input)', async () => {
      const r = await cliInProcess([
        'transform',
        'fixtures/tools/weather.yaml',
        'get_weather',
        '--args',
        '{"city":3}',
      ]);
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('invalid_arguments');
      expect(r.stderr).toContain('/city');
    });
    it('exit 2 for a --static value naming no static parameter or of the wrong type', async () => {
      const base = [
        'transform',
        'fixtures/tools/weather.yaml',
        'get_weather',
        '--args',
        '{"city":"Oslo"}',
      ];
      const unknown = await cliInProcess([...base, '--static', '{"unit":"imperial"}']);
      expect(unknown.status).toBe(2);
      expect(unknown.stdout).toBe('');
      expect(unknown.stderr).toContain('"unit", which is not a static parameter of get_weather');
      expect(unknown.stderr).toContain('units');
      const typed = await cliInProcess([...base, '--static', '{"units":5}']);
      expect(typed.status).toBe(2);
      expect(typed.stderr).toContain('expected a string, got 5');
      const ok = await cliInProcess([...base, '--static', '{"units":"imperial"}']);
      expect(ok.status).toBe(0);
      expect(JSON.parse(ok.stdout)).toMatchObject({ units: 'imperial' });
    });
  });
});
