/**
 * Reads a fixture file (YAML or JSON), validates it against the fixture schema and loads its
 * tools. Every problem is a {@link DefinitionError} naming the file, the JSON path and the
 * reason (`turns[1].model[0].tool_calls[0].name: is required`), before anything runs.
 */
import { didYouMean } from '../did-you-mean.js';
import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import type { z } from 'zod';
import { formatPath } from '../definition/json-path.js';
import { loadTools, parseDocument } from '../definition/load.js';
import { keysAt } from '../zod-keys.js';
import { deepestIssues } from '../zod-union.js';
import type { ToolSet } from '../definition/types.js';
import { DefinitionError, type DefinitionIssue } from '../errors.js';
import { mergeToolSets } from '../definition/merge-tool-sets.js';
import { fixtureSchema, type Fixture } from './fixture-schema.js';

export { mergeToolSets };
import { isPlainObject, regexError } from './match.js';

/** A fixture ready to run: parsed, validated, tools loaded. */
export interface LoadedFixture {
  readonly fixture: Fixture;
  /** The file as the user named it (for messages); `<inline>` for values. */
  readonly file: string;
  /** Directory relative tool paths resolve against. */
  readonly dir: string;
  readonly tools: ToolSet;
  /** Absolute path of the tools file, when the fixture names one. */
  readonly toolsFile?: string;
}

/** Options of {@link loadFixture} and {@link parseFixture}. */
export interface LoadFixtureOptions {
  /** Base for relative tool paths of inline values. Default `process.cwd()`. */
  readonly dir?: string;
  /** Name used in messages. Default the path, or `<inline>`. */
  readonly file?: string;
}

/** Validates a parsed fixture value; throws {@link DefinitionError} with every problem. */
export function parseFixture(value: unknown, options: { readonly file?: string } = {}): Fixture {
  const file = options.file;
  if (looksLikeToolsFile(value)) {
    throw new DefinitionError(
      [
        {
          code: 'fixture_schema',
          severity: 'error',
          path: '',
          message:
            'this is a tools file, not a conversation fixture (a fixture has name, tools and turns); check tools files with `switchboard validate`',
          ...(file !== undefined ? { file } : {}),
        },
      ],
      'invalid fixture',
    );
  }
  const parsed = fixtureSchema.safeParse(value, { reportInput: true });
  if (!parsed.success) {
    throw new DefinitionError(
      deepestIssues(parsed.error.issues).map((zi) => zodIssue(zi, file)),
      'invalid fixture',
    );
  }
  const issues: DefinitionIssue[] = [];
  parsed.data.turns.forEach((turn, t) => {
    if (turn.expect !== undefined) checkRegexes(turn.expect, `turns[${t}].expect`, file, issues);
  });
  if (issues.length > 0) throw new DefinitionError(issues, 'invalid fixture');
  return parsed.data;
}

/** A list of definitions, or `{ tools: [...] }` alone: someone passed a tools file to `test`. */
function looksLikeToolsFile(value: unknown): boolean {
  const isDefinition = (d: unknown): boolean => isPlainObject(d) && Object.hasOwn(d, 'tool');
  if (Array.isArray(value)) return value.length > 0 && value.every(isDefinition);
  return (
    isPlainObject(value) &&
    Object.keys(value).length === 1 &&
    Array.isArray(value['tools']) &&
    value['tools'].some(isDefinition)
  );
}

/** Reads, validates and resolves a fixture file (or an already-parsed value). */
export async function loadFixture(
  source: string | unknown,
  options: LoadFixtureOptions = {},
): Promise<LoadedFixture> {
  let value: unknown;
  let file: string;
  let dir: string;
  if (typeof source === 'string') {
    file = options.file ?? source;
    dir = dirname(resolve(source));
    let text: string;
    try {
      text = await readFile(source, 'utf8');
    } catch (error) {
      throw new DefinitionError(
        [
          {
            code: 'unreadable',
            severity: 'error',
            path: '',
            message: `cannot read fixture: ${(error as Error).message}`,
            file,
          },
        ],
        'invalid fixture',
      );
    }
    value = parseDocument(text, file);
  } else {
    value = source;
    file = options.file ?? '<inline>';
    dir = options.dir ?? process.cwd();
  }
  const fixture = parseFixture(value, { file });
  const paths = toolPaths(fixture.tools);
  if (paths !== undefined) {
    const files = paths.map((p) => (isAbsolute(p) ? p : resolve(dir, p)));
    const sets = await Promise.all(
      files.map((f, i) =>
        loadTools(f, { file: relative(process.cwd(), f) || f }).catch((error: unknown) => {
          const at = paths.length === 1 ? 'tools' : `tools[${i}]`;
          throw unreadableToolsFile(error, file, at, paths[i] ?? f);
        }),
      ),
    );
    const tools = mergeToolSets(sets, file);
    return {
      fixture,
      file,
      dir,
      tools,
      ...(files.length === 1 ? { toolsFile: files[0] as string } : {}),
    };
  }
  const tools = await loadTools(fixture.tools, { file: `${file} (tools)` });
  return { fixture, file, dir, tools };
}

/**
 * A tools file that cannot be read is the fixture's problem: report it at the fixture's `tools`
 * key (the tools file's own errors keep their file and path).
 */
function unreadableToolsFile(error: unknown, file: string, path: string, named: string): unknown {
  if (!(error instanceof DefinitionError) || !error.issues.some((i) => i.code === 'unreadable'))
    return error;
  return new DefinitionError(
    error.issues.map((i) =>
      i.code === 'unreadable'
        ? {
            ...i,
            file,
            path,
            message: `cannot read tools file ${JSON.stringify(named)}: ${i.message.replace(/^cannot read file: /, '')}`,
          }
        : i,
    ),
    'invalid fixture',
  );
}

/** `tools: a.json` or `tools: [a.json, b.yaml]` name files; anything else is inline definitions. */
function toolPaths(tools: Fixture['tools']): string[] | undefined {
  if (typeof tools === 'string') return [tools];
  if (Array.isArray(tools) && tools.length > 0 && tools.every((t) => typeof t === 'string'))
    return tools as string[];
  return undefined;
}

function checkRegexes(
  value: unknown,
  path: string,
  file: string | undefined,
  out: DefinitionIssue[],
): void {
  const error = regexError(value);
  if (error !== undefined) {
    out.push({
      code: 'bad_regex',
      severity: 'error',
      path: `${path}.regex`,
      message: `invalid regular expression: ${error}`,
      ...(file ? { file } : {}),
    });
    return;
  }
  if (Array.isArray(value)) value.forEach((v, i) => checkRegexes(v, `${path}[${i}]`, file, out));
  else if (isPlainObject(value))
    for (const key of Object.keys(value))
      checkRegexes(value[key], formatPath(path, [key]), file, out);
}

function zodIssue(zi: z.core.$ZodIssue, file: string | undefined): DefinitionIssue {
  const path = formatPath('', zi.path);
  const missing = zi.code === 'invalid_type' && zi.input === undefined;
  let message = missing ? 'is required' : zi.message;
  if (zi.code === 'unrecognized_keys') {
    const known = keysAt(fixtureSchema, zi.path);
    const hint = zi.keys.length === 1 ? didYouMean(zi.keys[0]!, known) : '';
    message = `unknown key(s) ${zi.keys.map((k) => JSON.stringify(k)).join(', ')}${hint}${known.length > 0 ? `; keys here: ${known.join(', ')}` : ''}`;
  }
  return {
    code: 'fixture_schema',
    severity: 'error',
    path,
    message,
    ...(file !== undefined ? { file } : {}),
  };
}
