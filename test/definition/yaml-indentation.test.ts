/**
 * Indentation slips in a hand-written YAML tools file: the error names the line that slipped
 * and what to do, not the parser's words for where its reading went wrong.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';

const TOOLS = [
  '- type: endpoint', // 1
  '  tool:', // 2
  '    type: function', // 3
  '    function:', // 4
  '      name: lookup_extension', // 5
  '      parameters: { type: object, properties: { extension: { type: string } } }', // 6
  '  endpoint:', // 7
  '    url: http://127.0.0.1:18911/v1/extensions/{extension}', // 8
  '    method: get', // 9
  '  options:', // 10
  '    speech:', // 11
  '      before:', // 12
  '        mode: always', // 13
  '        phrases:', // 14
  '          en: One moment.', // 15
  '          es: Un momento.', // 16
].join('\n');

async function loadError(text: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'sb-yaml-'));
  const file = join(dir, 'tools.yaml');
  await writeFile(file, text);
  const error: unknown = await loadTools(file).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Error);
  return (error as Error).message.replace(dir, 'DIR');
}

describe('YAML indentation slips', () => {
  it('the file as written loads', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sb-yaml-'));
    await writeFile(join(dir, 'tools.yaml'), TOOLS);
    expect([...(await loadTools(join(dir, 'tools.yaml'))).tools.keys()]).toEqual([
      'lookup_extension',
    ]);
  });

  it('a key one space deeper than the key above: the slipped line, not the line above', async () => {
    const message = await loadError(TOOLS.replace('    method: get', '     method: get'));
    expect(message).toContain(
      'DIR/tools.yaml: invalid YAML at line 9, column 6: line 9 starts at column 6, deeper than "url:" on line 8 (column 5), so it is read as part of that key\'s value; start it at column 5 to make it a key beside "url" (Nested mappings are not allowed in compact mappings)',
    );
  });

  it('a key one space shallower than its mapping: both columns', async () => {
    const message = await loadError(TOOLS.replace('    method: get', '   method: get'));
    expect(message).toContain(
      'DIR/tools.yaml: invalid YAML at line 9, column 4: line 9 starts at column 4, line 8 above it at column 5; keys of one mapping must start at the same column (All mapping items must start at the same column)',
    );
  });

  it('a line indented with a tab alone', async () => {
    const message = await loadError(TOOLS.replace('    method: get', '\tmethod: get'));
    expect(message).toContain(
      'DIR/tools.yaml: invalid YAML at line 9, column 1: line 9 is indented with a tab; YAML indents with spaces only (Unexpected scalar at node end)',
    );
  });

  it('a slip deep inside, after blank and comment lines', async () => {
    const message = await loadError(
      TOOLS.replace(
        '          es: Un momento.',
        '\n          # Spanish\n           es: Un momento.',
      ),
    );
    // The parser places it on the blank line; the key's own line is named.
    expect(message).toContain(
      'DIR/tools.yaml: invalid YAML at line 18, column 12: line 18 starts at column 12, line 15 above it at column 11; keys of one mapping must start at the same column (All mapping items must start at the same column)',
    );
  });
});
