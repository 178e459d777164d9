/**
 * The docs ship in the package and are the product's contract: they state every rule they rely
 * on (no citation of a specification users do not have) and link only to files that exist.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliInProcess } from '../cli/build.js';

const pages = ['README.md', ...readdirSync('docs').map((f) => join('docs', f))].filter((f) =>
  f.endsWith('.md'),
);
const COMMANDS = ['test', 'validate', 'transform', 'simulate', 'repl', 'serve', 'import', 'export'];

describe('the docs are self-contained', () => {
  it.each(pages)('%s cites no specification users do not have', (page) => {
    const lines = readFileSync(page, 'utf8').split('\n');
    const citing = lines.flatMap((line, i) => (/\bSPEC\b/.test(line) ? [`${page}:${i + 1}`] : []));
    expect(citing).toEqual([]);
  });

  it.each(pages)('%s links only to files that exist', (page) => {
    const text = readFileSync(page, 'utf8');
    const broken: string[] = [];
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (target === undefined || /^[a-z]+:/.test(target) || target.startsWith('#')) continue;
      const path = join(dirname(page), target.split('#')[0] ?? '');
      if (!existsSync(path)) broken.push(target);
    }
    expect(broken).toEqual([]);
  });

  it('no command’s --help cites a specification users do not have', async () => {
    const helps = await Promise.all(COMMANDS.map((c) => cliInProcess([c, '--help'])));
    for (const [i, help] of helps.entries()) {
      expect(help.status, COMMANDS[i]).toBe(0);
      expect(help.stdout + help.stderr, COMMANDS[i]).not.toMatch(/\bSPEC\b/);
    }
  }, 120_000);
});
