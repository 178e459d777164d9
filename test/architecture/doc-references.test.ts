/**
 * The docs are part of the product: a link in README.md or docs/ that leads nowhere, or a code
 * comment pointing at a section that was renamed, sends a reader (or a newcomer to the code) to
 * nothing. Checked here: every relative Markdown link (its file, and its `#anchor` by GitHub's
 * heading ids), every `docs/x.md` named in src/ (and the `"Section"` quoted after it), and that no
 * page leans on files a user does not have.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

function filesUnder(dir: string, ext: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path, ext));
    else if (name.endsWith(ext)) out.push(path);
  }
  return out;
}

const pages = [join(ROOT, 'README.md'), ...filesUnder(join(ROOT, 'docs'), '.md')];

/** GitHub's heading id: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The headings of a Markdown file, outside fenced code blocks. */
function headings(path: string): string[] {
  const out: string[] = [];
  let fenced = false;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    else if (!fenced) {
      const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
      if (m) out.push(m[1]!);
    }
  }
  return out;
}

/** Ids as GitHub makes them: a repeated heading gets -1, -2, … */
function anchors(path: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const h of headings(path)) {
    const base = slug(h);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Markdown text without fenced code blocks and inline code (links there are examples). */
function prose(text: string): string {
  return text.replace(/^\s*(```|~~~)[\s\S]*?^\s*\1.*$/gm, '').replace(/`[^`\n]*`/g, '');
}

describe('docs: links and references lead somewhere', () => {
  it('every relative link in README.md and docs/ names a file that exists, and an anchor it has', () => {
    const broken: string[] = [];
    for (const page of pages) {
      const text = prose(readFileSync(page, 'utf8'));
      for (const m of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
        const target = m[1]!;
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
        const [file = '', anchor] = target.split('#');
        const path = file === '' ? page : resolve(dirname(page), file);
        const where = `${relative(ROOT, page)}: (${target})`;
        if (!existsSync(path)) broken.push(`${where}: no such file`);
        else if (anchor !== undefined && path.endsWith('.md') && !anchors(path).has(anchor))
          broken.push(`${where}: no heading with id #${anchor}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('every docs/x.md named in src/ exists, and so does the section quoted after it', () => {
    const broken: string[] = [];
    for (const file of filesUnder(join(ROOT, 'src'), '.ts')) {
      // Comments wrap: join the lines of each comment before reading references.
      const text = readFileSync(file, 'utf8').replace(/\n\s*(?:\*(?!\/)|\/\/)\s?/g, ' ');
      for (const m of text.matchAll(/docs\/([a-z0-9-]+\.md)(?:,\s*"([^"]+)")?/g)) {
        const page = join(ROOT, 'docs', m[1]!);
        const where = `${relative(ROOT, file)}: docs/${m[1]}`;
        if (!existsSync(page)) {
          broken.push(`${where}: no such page`);
          continue;
        }
        const section = m[2];
        if (section === undefined) continue;
        const wanted = section.toLowerCase().replace(/\s+/g, ' ');
        const found = headings(page).some((h) =>
          h.toLowerCase().replace(/`/g, '').includes(wanted),
        );
        if (!found) broken.push(`${where}, "${section}": no such section`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("no page points a user at files they do not have (the maintainers' own machine)", () => {
    const found: string[] = [];
    for (const page of pages) {
      const lines = readFileSync(page, 'utf8').split('\n');
      lines.forEach((line, i) => {
        if (/\/work\/|\.\.\/shared\/|\bSPEC(\.md| §)/.test(line))
          found.push(`${relative(ROOT, page)}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(found).toEqual([]);
  });
});
