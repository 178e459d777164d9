/**
 * The docs ship in the package and are the product's contract: they state every rule they rely
 * on (no citation of a specification users do not have), link only to files and headings that
 * exist, and name as code every CLI option and every value and type a package entry exports (a new one
 * without a line in the docs fails here, not in a user's search).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cliInProcess } from '../cli/build.js';

const pages = ['README.md', ...readdirSync('docs').map((f) => join('docs', f))].filter((f) =>
  f.endsWith('.md'),
);
const COMMANDS = [
  'test',
  'validate',
  'transform',
  'simulate',
  'repl',
  'serve',
  'mcp',
  'studio',
  'import',
  'export',
];

/**
 * Exported types that are engine internals (showing through a public signature, or exported for
 * the engine's own modules): a user neither writes nor reads them, so the docs leave them out.
 * Each is a candidate for removal from the public surface.
 */
const LEAKED_TYPES = new Map<string, string>([
  // The turn loop's own event type (marked internal in its source); no public signature uses it.
  ['TurnEvent', 'SessionEvent with an optional speechId, before the session assigns one'],
]);

/**
 * The code of every page, README included: fenced blocks and code spans (which, as in
 * Markdown, may go on over a line break, not over a blank line). A name counts as documented
 * only when named as code, so an export called like a word (`Fixture`, `report`) is not taken as
 * documented by a sentence that uses the word.
 */
function codeOfPages(): string {
  const code = /^```[\s\S]*?^```|`(?:[^`\n]|\n(?![ \t]*\n))+`/gm;
  return pages.flatMap((page) => readFileSync(page, 'utf8').match(code) ?? []).join('\n');
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a page's headings (a repeated heading gets -1, -2…), code blocks left out. */
function anchors(page: string): Set<string> {
  const text = readFileSync(page, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, heading] of text.matchAll(/^#+\s+(.*)$/gm)) {
    const base = slug(heading ?? '');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

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

  it.each(pages)('%s links only to headings that exist', (page) => {
    const text = readFileSync(page, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
    const broken: string[] = [];
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (target === undefined || /^[a-z]+:/.test(target) || !target.includes('#')) continue;
      const [file, heading] = target.split('#');
      const path = file === '' || file === undefined ? page : join(dirname(page), file);
      if (!path.endsWith('.md') || !existsSync(path)) continue;
      if (!anchors(path).has(heading ?? '')) broken.push(target);
    }
    expect(broken).toEqual([]);
  });

  it('docs/cli.md names every option of every command’s --help', async () => {
    const cliPage = readFileSync('docs/cli.md', 'utf8');
    const helps = await Promise.all(COMMANDS.map((c) => cliInProcess([c, '--help'])));
    const missing = helps.flatMap((help, i) =>
      [...new Set(help.stdout.match(/--[a-z][a-z-]*/g) ?? [])]
        .filter((option) => !new RegExp(`${option}(?![a-z-])`).test(cliPage))
        .map((option) => `${COMMANDS[i]} ${option}`),
    );
    expect(missing).toEqual([]);
  }, 120_000);

  it('every value a package entry exports is named as code on a docs page', async () => {
    const docs = codeOfPages();
    const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as {
      exports: Record<string, string | { default: string }>;
    };
    const unnamed: string[] = [];
    for (const [entry, target] of Object.entries(manifest.exports)) {
      if (typeof target === 'string') continue;
      const mod = (await import(pathToFileURL(resolve(target.default)).href)) as object;
      for (const name of Object.keys(mod))
        if (!new RegExp(`\\b${name}\\b`).test(docs)) unnamed.push(`${entry}: ${name}`);
    }
    expect(unnamed).toEqual([]);
  }, 120_000);

  it('every type a package entry exports is named as code on a docs page', () => {
    // The API reports (api/, one per entry, kept equal to the built declarations by
    // test/architecture/api-report.test.ts) list each entry's interfaces and type aliases.
    const code = codeOfPages();
    const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as {
      exports: Record<string, unknown>;
    };
    // One report per code entry (`.` is api/switchboard.api.md): an entry without one would
    // have its types go unchecked here.
    const reports = Object.keys(manifest.exports)
      .filter((entry) => entry !== './package.json')
      .map((entry) => `${entry === '.' ? 'switchboard' : entry.slice(2)}.api.md`);
    expect(reports.filter((report) => !existsSync(join('api', report)))).toEqual([]);
    const unnamed: string[] = [];
    for (const report of reports) {
      const text = readFileSync(join('api', report), 'utf8');
      for (const [, name] of text.matchAll(/^export (?:declare )?(?:interface|type) (\w+)/gm)) {
        if (name === undefined || LEAKED_TYPES.has(name)) continue;
        if (!new RegExp(`\\b${name}\\b`).test(code)) unnamed.push(`${report}: ${name}`);
      }
    }
    expect(unnamed).toEqual([]);
  });

  it('the allow-list of leaked types names only types an entry still exports', () => {
    const reports = readdirSync('api').map((f) => readFileSync(join('api', f), 'utf8'));
    const stale = [...LEAKED_TYPES.keys()].filter(
      (name) =>
        !reports.some((r) => new RegExp(`^export (?:interface|type) ${name}\\b`, 'm').test(r)),
    );
    expect(stale).toEqual([]);
  });

  it('no command’s --help cites a specification users do not have', async () => {
    const helps = await Promise.all(COMMANDS.map((c) => cliInProcess([c, '--help'])));
    for (const [i, help] of helps.entries()) {
      expect(help.status, COMMANDS[i]).toBe(0);
      expect(help.stdout + help.stderr, COMMANDS[i]).not.toMatch(/\bSPEC\b/);
    }
  }, 120_000);
});
