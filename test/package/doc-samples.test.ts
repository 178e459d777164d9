/**
 * Every TypeScript sample in README.md and docs/ that imports switchboard type-checks against the
 * built package's types (strict, module nodenext), as a user who pastes it would compile it: an
 * option renamed, a result reshaped or an export moved breaks the sample here, not in a user's
 * editor. A sample may use names the page introduces around it (`tools`, `model`, `services`),
 * and packages the page tells the reader to install that are not among ours (`@ai-sdk/openai`):
 * "cannot find name" and "cannot find module" (outside switchboard) are the only errors allowed.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { expect, it } from 'vitest';

const pages = ['README.md', ...readdirSync('docs').map((f) => join('docs', f))].filter((f) =>
  f.endsWith('.md'),
);

/** Names the page defines around the sample, and packages outside ours the page names. */
const ALLOWED = new Set([
  2304, // Cannot find name 'x'.
  2552, // Cannot find name 'x'. Did you mean 'y'?
  18004, // No value exists in scope for the shorthand property 'x'.
]);
const CANNOT_FIND_MODULE = 2307;

interface Sample {
  readonly where: string;
  readonly file: string;
}

function samples(dir: string): Sample[] {
  const out: Sample[] = [];
  for (const page of pages) {
    const text = readFileSync(page, 'utf8');
    for (const m of text.matchAll(/^```(?:ts|typescript)\n([\s\S]*?)^```/gm)) {
      const code = m[1] ?? '';
      if (!/from ['"]switchboard(\/[a-z-]+)?['"]/.test(code)) continue;
      const line = text.slice(0, m.index).split('\n').length + 1;
      const file = join(dir, `${page.replace(/[/.]/g, '_')}_${line}.ts`);
      // A module of its own (top-level await, no clash between samples).
      writeFileSync(file, `${code}\nexport {};\n`);
      out.push({ where: `${page}:${line}`, file });
    }
  }
  return out;
}

it('the TypeScript samples in the docs compile against the package', () => {
  // Under node_modules so the samples resolve the packages installed here (openai, ai, …).
  const dir = resolve('node_modules/.cache', `switchboard-doc-samples-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  try {
    const found = samples(dir);
    expect(found.length).toBeGreaterThan(15);
    const dist = resolve('dist');
    const program = ts.createProgram(
      found.map((s) => s.file),
      {
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        target: ts.ScriptTarget.ES2022,
        lib: ['lib.es2023.d.ts'],
        types: ['node'],
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        // The package's entries, as its `exports` map them.
        paths: {
          switchboard: [join(dist, 'index.d.ts')],
          'switchboard/testing': [join(dist, 'testing.d.ts')],
          'switchboard/*': [join(dist, 'entries/*.d.ts')],
        },
      },
    );
    const where = new Map(found.map((s) => [s.file, s.where]));
    const problems = ts
      .getPreEmitDiagnostics(program)
      .filter((d) => !ALLOWED.has(d.code))
      .filter(
        (d) =>
          d.code !== CANNOT_FIND_MODULE ||
          /['"]switchboard/.test(ts.flattenDiagnosticMessageText(d.messageText, ' ')),
      )
      .map((d) => {
        const at =
          d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : null;
        const sample = d.file ? (where.get(d.file.fileName) ?? d.file.fileName) : '?';
        return `${sample} (+${at ? at.line : '?'}): ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
      });
    expect(problems).toEqual([]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);
