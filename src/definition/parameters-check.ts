/**
 * The check of a tool's `parameters` JSON Schema, shared by a definition that resolves and one
 * whose shape is wrong elsewhere (so one pass lists every problem of a file): patterns the
 * linear-time engine refuses, unknown keywords and meta-schema violations (one line each, with
 * the path), and finally ajv's compile.
 */
import type { DefinitionIssue } from '../errors.js';
import { formatPath } from './json-path.js';
import { patternProblems } from './schema-patterns.js';
import type { ArgumentValidator } from './validator-types.js';
import type { ValidatorFactory } from './validator.js';

/** Options of {@link checkParameters}. */
export interface CheckParametersOptions {
  /** The schema as written, which every problem's path points into. */
  readonly written: unknown;
  /** What to compile, when it differs from `written` (static parameters removed). */
  readonly compiled?: Readonly<Record<string, unknown>>;
  /** Rendered path of `written`, e.g. `tools[0].tool.function.parameters`. */
  readonly path: string;
  readonly file: string | undefined;
  readonly validators: ValidatorFactory;
}

/** Every problem of the schema, and its validator when there is none. */
export function checkParameters(options: CheckParametersOptions): {
  readonly issues: DefinitionIssue[];
  readonly validator?: ArgumentValidator;
} {
  const { written, path, file, validators } = options;
  const issues: DefinitionIssue[] = [];
  const at = (where: string, code: string, message: string): void => {
    issues.push({ code, severity: 'error', path: where, message, ...(file ? { file } : {}) });
  };
  for (const problem of patternProblems(written)) {
    at(
      formatPath(path, problem.path),
      problem.kind === 'invalid' ? 'bad_schema' : 'unsupported_pattern',
      problem.message,
    );
  }
  for (const problem of validators.problems(written))
    at(formatPath(path, problem.path), 'bad_schema', problem.message);
  // Compiling would repeat the first of the problems above as one unplaced line.
  if (issues.length > 0) return { issues };
  const schema = options.compiled ?? (isObject(written) ? written : undefined);
  if (schema === undefined) return { issues };
  try {
    return { issues, validator: validators.compile(schema) };
  } catch (error) {
    at(path, 'bad_schema', `invalid JSON Schema: ${(error as Error).message}`);
    return { issues };
  }
}

function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
