/**
 * What a session keeps and reads on every turn is shaped the same way in every session. If each
 * session's options object had a hidden class of its own, every read of it would be a slow,
 * megamorphic one: V8 gives each object made by `{ ...source, newKey }` its own class once that
 * code is optimized, for some sources (docs/benchmarks.md, "Issue 17, fifth round"). Checked in a
 * child process with V8's natives syntax, after enough sessions for the optimizing compiler to
 * have run.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { buildOnce } from '../cli/build.js';

const run = promisify(execFile);
const dist = (file: string): string =>
  JSON.stringify(new URL(`../../dist/${file}`, import.meta.url).href);

async function inChild(body: string): Promise<string> {
  buildOnce();
  const { stdout } = await run(
    process.execPath,
    [
      '--allow-natives-syntax',
      '--input-type=module',
      '-e',
      `const { createSession, loadTools } = await import(${dist('index.js')});
       const { ScriptedModel } = await import(${dist('testing.js')});
       const tools = await loadTools([{ type: 'log', tool: { type: 'function', function: {
         name: 'note', description: 'x', parameters: { type: 'object', properties: {} } } } }]);
       ${body}`,
    ],
    { timeout: 30_000 },
  );
  return stdout.trim();
}

describe('hidden classes of per-session objects', () => {
  it('sessions made with the same options share one hidden class for them, also once optimized', async () => {
    const out = await inChild(`
      const last = [];
      for (let i = 0; i < 30000; i++) {
        const s = createSession({ tools, model: new ScriptedModel([]), vars: { n: i } });
        if (i >= 29990) last.push(s);
      }
      const same = last.map((s) => %HaveSameMap(s.options, last[0].options));
      const langs = [0, 1, 2].map(() => createSession({ tools, model: new ScriptedModel([]), languages: ['en-US', 'fr-FR'] }));
      same.push(...langs.map((s) => %HaveSameMap(s.options, langs[0].options)));
      console.log(JSON.stringify(same));`);
    expect(JSON.parse(out)).toEqual(new Array(13).fill(true));
  });

  it('a generated session id is one flat string, not a tree of joined pieces', async () => {
    const out = await inChild(`
      const s = createSession({ tools, model: new ScriptedModel([]) });
      %DebugPrint(s.id);`);
    expect(out).toMatch(/type: \S*ONE_BYTE_STRING_TYPE/);
    expect(out).not.toMatch(/CONS_/);
  });
});
