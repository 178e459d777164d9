/**
 * `switchboard import` and `export` end to end, in-process through `runCli` (what main.js runs;
 * test/cli/cli.test.ts shows the exit status reaching the shell from the real binary).
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { cliInProcess } from '../cli/build.js';

const dir = mkdtempSync(join(tmpdir(), 'sb-import-'));

describe('switchboard import', () => {
  it('writes YAML by extension that validate accepts; warnings on stderr; exit 0', async () => {
    const out = join(dir, 'retell.yaml');
    const r = await cliInProcess([
      'import',
      '--from',
      'retell',
      'fixtures/import/retell/custom-post-order.json',
      '-o',
      out,
    ]);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(
      'warning: fixtures/import/retell/custom-post-order.json: tools[0].headers.Authorization:',
    );
    expect(r.stderr).toContain('imported 1 tool(s) from retell');
    expect(r.stderr).not.toContain('rt_live_secret_token');
    const written = parseYaml(readFileSync(out, 'utf8')) as {
      tools: { tool: { function: { name: string } } }[];
    };
    expect(written.tools[0]!.tool.function.name).toBe('place_order');
    const v = await cliInProcess(['validate', out]);
    expect(v.status).toBe(0);
  });

  it('prints JSON on stdout without -o', async () => {
    const r = await cliInProcess([
      'import',
      '--from',
      'ultravox',
      'fixtures/import/ultravox/hang-up.json',
    ]);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(
      JSON.parse(readFileSync('fixtures/import/ultravox/imported/hang-up.json', 'utf8')),
    );
  });

  it('--strict exits 1 when anything did not map', async () => {
    expect(
      (
        await cliInProcess([
          'import',
          '--strict',
          '--from',
          'vapi',
          'fixtures/import/vapi/api-request.json',
        ])
      ).status,
    ).toBe(1);
    expect(
      (
        await cliInProcess([
          'import',
          '--strict',
          '--from',
          'vapi',
          'fixtures/import/vapi/transfer-call.json',
        ])
      ).status,
    ).toBe(0);
  });

  it('a malformed vendor file exits 2 naming the file and path', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(
      bad,
      JSON.stringify({
        tools: [
          { type: 'endCall' },
          { type: 'function', function: { name: 'f' }, server: { url: 42 } },
        ],
      }),
    );
    const r = await cliInProcess(['import', '--from', 'vapi', bad]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${bad}: tools[1].server.url: expected a string`);
    expect(r.stdout).toBe('');
  });

  it('a file of the wrong kind imports nothing: exit 2 naming what a Vapi file holds, nothing written', async () => {
    const out = join(dir, 'nothing.json');
    const r = await cliInProcess([
      'import',
      '--from',
      'vapi',
      'fixtures/tools/clinic.json',
      '-o',
      out,
    ]);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(
      'fixtures/tools/clinic.json: no tool to import: expected a list of Vapi tools, { "tools": [...] }, an assistant with model.tools, or one tool',
    );
    expect(r.stderr).toContain(
      'warning: fixtures/tools/clinic.json: tools[0].type: Vapi tool type',
    );
    expect(existsSync(out)).toBe(false);
  });

  it('a vendor schema 20 000 levels deep exits 2 with its path, no stack trace', async () => {
    // Written as text: JSON.stringify itself recurses.
    const n = 20_000;
    const schema = `${'{"type":"object","properties":{"a":'.repeat(n)}{"type":"string"}${'}}'.repeat(n)}`;
    const deep = join(dir, 'deep.json');
    writeFileSync(deep, `[{"type":"function","function":{"name":"f","parameters":${schema}}}]`);
    const r = await cliInProcess(['import', '--from', 'vapi', deep]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${deep}: tools[0].function.parameters.properties.a.`);
    expect(r.stderr).toContain('nested more than 62 levels deep');
    expect(r.stderr).not.toMatch(/RangeError|\n\s+at /);
  });

  it('control characters from vendor headers are escaped on stderr; a metadata address is named', async () => {
    const file = join(dir, 'hostile.json');
    writeFileSync(
      file,
      JSON.stringify([
        {
          type: 'custom',
          name: 'probe',
          url: 'http://169.254.169.254/latest/meta-data',
          args_at_root: true,
          headers: { 'X-A\r\nforged: line\u001b[2J': 'v\u001b]0;t\u0007' },
        },
      ]),
    );
    const r = await cliInProcess(['import', '--from', 'retell', file]);
    expect(r.status).toBe(0);
    expect(r.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/);
    expect(r.stderr).toContain('X-A\\r\\nforged: line\\u001b[2J');
    expect(r.stderr).toContain('tool "probe" calls 169.254.169.254, a link-local address');
  });

  it('an unknown platform is a usage error', async () => {
    const r = await cliInProcess(['import', '--from', 'bland', 'x.json']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--from must be one of vapi|elevenlabs|retell|ultravox');
    const typo = await cliInProcess(['export', '--to', 'elevenlab', 'x.json']);
    expect(typo.stderr).toContain(
      '--to must be one of vapi|elevenlabs|retell|ultravox, got "elevenlab" (did you mean elevenlabs?)',
    );
  });

  it('is listed in --help', async () => {
    expect((await cliInProcess(['--help'])).stdout).toMatch(/import\s+convert/);
  });
});

describe('switchboard export', () => {
  it('exports a tools file and names the rules it cannot express', async () => {
    const r = await cliInProcess(['export', '--to', 'vapi', 'fixtures/tools/clinic.json']);
    expect(r.status).toBe(0);
    const tools = JSON.parse(r.stdout) as { type: string }[];
    expect(tools.map((t) => t.type)).toEqual(['apiRequest', 'apiRequest', 'apiRequest']);
    expect(r.stderr).toContain(
      'tools[0].defaults.city: a conditional rule on "city" cannot be expressed in Vapi',
    );
  });

  it('round trips through files: export then import gives the imported definitions back', async () => {
    const out = join(dir, 'ultravox.json');
    expect(
      (
        await cliInProcess([
          'export',
          '--to',
          'ultravox',
          'fixtures/import/ultravox/imported/stock-price.json',
          '-o',
          out,
        ])
      ).status,
    ).toBe(0);
    const again = await cliInProcess(['import', '--from', 'ultravox', out]);
    expect(again.status).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual(
      JSON.parse(readFileSync('fixtures/import/ultravox/imported/stock-price.json', 'utf8')),
    );
  });

  it('invalid definitions exit 2', async () => {
    const bad = join(dir, 'bad-tools.json');
    writeFileSync(
      bad,
      JSON.stringify([{ type: 'endpoint', tool: { type: 'function', function: { name: 'x' } } }]),
    );
    const r = await cliInProcess(['export', '--to', 'retell', bad]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('tools[0]');
  });
});
