/**
 * A tool author's file and option mistakes at the command line (docs/reliability.md, "A tool
 * author's mistakes"): a BOM, an empty file, a short option without its value.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliInProcess } from './build.js';

/** `switchboard …` in this process (build.ts): its exit code and output. */
async function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const { status, stdout, stderr } = await cliInProcess(argv);
  return { code: status, stdout, stderr };
}

const dir = mkdtempSync(join(tmpdir(), 'sb-author-'));
const clinic = readFileSync('fixtures/tools/clinic.json', 'utf8');

describe('files as editors save them', () => {
  it('a UTF-8 byte order mark before JSON is read past (tools files and vendor imports)', async () => {
    const file = join(dir, 'bom.json');
    writeFileSync(file, `\uFEFF${clinic}`);
    const r = await run(['validate', file]);
    expect(r.stdout).toContain('3 tool(s)');
    expect(r.code).toBe(0);
    const vapi = join(dir, 'bom-vapi.json');
    writeFileSync(vapi, `\uFEFF${readFileSync('fixtures/import/vapi/api-request.json', 'utf8')}`);
    const imported = await run(['import', '--from', 'vapi', vapi]);
    expect(imported.code).toBe(0);
  });

  it('an empty or blank file says so, in JSON and YAML, for tools and fixtures', async () => {
    for (const name of ['empty.json', 'blank.yaml']) {
      const file = join(dir, name);
      writeFileSync(file, name.endsWith('.json') ? '' : '  \n\n');
      const r = await run(['validate', file]);
      expect(r.code).toBe(1);
      expect(r.stdout).toContain(`${file}: the file is empty (expected JSON or YAML)`);
      const t = await run(['test', file]);
      expect(t.code).toBe(2);
      expect(t.stdout).toContain(`${file}: the file is empty (expected JSON or YAML)`);
    }
  });
});

describe('options', () => {
  it('a short option without its value is named as typed (was "-o, needs a value: -o,")', async () => {
    const r = await run([
      'import',
      '--from',
      'vapi',
      'fixtures/import/vapi/api-request.json',
      '-o',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe('switchboard import: -o needs a value: -o, --out <file>');
  });
});
