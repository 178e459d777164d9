/**
 * A failed zod union reports one issue at the union's own path, holding every branch's issues.
 * When the value fits one branch only (an object where a string or an object is allowed), that
 * branch's issues are the author's mistake, at their own deeper paths (`llm.temperature`, not
 * `llm`); otherwise the union's own message stays, naming the forms allowed.
 */
import type { z } from 'zod';
import { closestName } from './did-you-mean.js';

type Issue = z.core.$ZodIssue;

/**
 * The issues with each union whose value fits one branch replaced by that branch's issues. The
 * value's kind is known only when the parse ran with `reportInput: true`.
 */
export function deepestIssues(issues: readonly Issue[]): Issue[] {
  return issues.flatMap((issue) => expand(issue, 0));
}

/** Unions nest (an expression inside a next step inside a list); depth bounds the walk. */
const MAX_DEPTH = 32;

function expand(issue: Issue, depth: number): Issue[] {
  if (issue.code !== 'invalid_union' || depth >= MAX_DEPTH) return [issue];
  const branches = chosen(issue.errors, issue.input);
  if (branches === undefined) return [issue];
  return branches.flatMap((i) =>
    expand({ ...i, path: [...issue.path, ...i.path] } as Issue, depth + 1),
  );
}

/** The issues of the one branch the value was meant for, or undefined when that is unclear. */
function chosen(
  errors: readonly (readonly Issue[])[],
  input: unknown,
): readonly Issue[] | undefined {
  const fitting = errors.filter((branch) => !branch.some((i) => refusesKind(i)));
  if (fitting.length === 1) return fitting[0];
  if (fitting.length === 0) return undefined;
  // Keys the branch does not know say the value was written for another one.
  const known = fitting.filter(
    (branch) => !branch.some((i) => i.path.length === 0 && i.code === 'unrecognized_keys'),
  );
  if (known.length === 1) return known[0];
  return mergedValues(known, input);
}

/**
 * Branches told apart by one field's value only (`type: "cel"` or `type: "jp"`): one issue at that
 * field listing every value allowed, with the one meant when the value written is a misspelling.
 */
function mergedValues(
  branches: readonly (readonly Issue[])[],
  input: unknown,
): Issue[] | undefined {
  const only = branches.map((b) => (b.length === 1 ? b[0] : undefined));
  const first = only[0];
  if (first?.code !== 'invalid_value') return undefined;
  const at = JSON.stringify(first.path);
  const values: unknown[] = [];
  for (const issue of only) {
    if (issue?.code !== 'invalid_value' || JSON.stringify(issue.path) !== at) return undefined;
    for (const v of issue.values) if (!values.includes(v)) values.push(v);
  }
  const written = valueAt(input, first.path);
  const listed = values.map((v) => JSON.stringify(v));
  const expected =
    listed.length === 1 ? listed[0]! : `${listed.slice(0, -1).join(', ')} or ${listed.at(-1)!}`;
  const strings = values.filter((v): v is string => typeof v === 'string');
  const near =
    typeof written === 'string' ? closestName({ name: written, candidates: strings }) : undefined;
  const got = written === undefined ? '' : `, got ${JSON.stringify(written)}`;
  const message = `expected ${expected}${got}${near !== undefined ? ` (did you mean "${near}"?)` : ''}`;
  return [{ ...first, values: values as typeof first.values, message, input: written }];
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let at = value;
  for (const key of path) {
    if (at === null || typeof at !== 'object' || !Object.hasOwn(at, key)) return undefined;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at;
}

/**
 * Whether a branch's issue says the value is of a kind the branch never takes: a type mismatch at
 * the branch's root, or a literal/enum of other kinds (a string enum given an object). A nested
 * union at the root refuses the kind when each of its own branches does.
 */
function refusesKind(issue: Issue): boolean {
  if (issue.path.length > 0) return false;
  if (issue.code === 'invalid_type') return true;
  if (issue.code === 'invalid_value') {
    const kind = kindOf(issue.input);
    return kind !== undefined && issue.values.every((v) => kindOf(v) !== kind);
  }
  if (issue.code === 'invalid_union')
    return issue.errors.length > 0 && issue.errors.every((b) => b.some((i) => refusesKind(i)));
  return false;
}

function kindOf(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
