/**
 * Variable syntax between platforms and switchboard. Vapi (Liquid), ElevenLabs and Retell write
 * `{{name}}`; switchboard's static parameters are mustache over session variables
 * (`{{vars.name}}`) and its `defaults` templates are Python format strings (`{vars.name}`).
 * A platform's call-id variable maps to `vars.session.id` both ways. Only a platform's own
 * variable syntax becomes a variable: every other piece of vendor text is escaped, so it renders
 * as written (a literal `{{vars.api_key}}` never reads the session's `api_key`).
 */
import Mustache from 'mustache';

/** How one platform names variables. */
export interface VariableDialect {
  /** Vendor variable → switchboard variable path (without `vars.`), e.g. `call.id` → `session.id`. */
  readonly system: ReadonlyMap<string, string>;
  /**
   * The platform's own call variables that have no switchboard system value (`transport.callSid`):
   * each is imported as a session variable of the same name, with a warning that the host must set
   * it. A name here or under a prefix here (`transport.`) counts.
   */
  readonly unmapped?: { readonly names: ReadonlySet<string>; readonly prefixes: readonly string[] };
  /** The platform's name, for warnings. */
  readonly platform?: string;
}

/** Warns when `name` is one of the platform's call variables without a switchboard value. */
function checkUnmapped(name: string, dialect: VariableDialect, problem: VariableProblem): void {
  const u = dialect.unmapped;
  if (u === undefined || dialect.system.has(name)) return;
  if (u.names.has(name) || u.prefixes.some((p) => name.startsWith(p)))
    problem(
      `${dialect.platform ?? 'the platform'}'s call variable "${name}" has no switchboard system value; imported as the session variable vars.${name}, which the host must set`,
    );
}

const VENDOR_VARIABLE = /\{\{\s*([^{}]*?)\s*\}\}/g;
const NO_ARGUMENTS: ReadonlySet<string> = new Set();
const NAME = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;

/** A problem met while translating: a Liquid filter, an expression that is not a name. */
export type VariableProblem = (message: string) => void;

/** The variables `text` names (`{{ a }} {{b.c}}` → `['a', 'b.c']`); filters are cut off. */
export function vendorVariables(text: string): string[] {
  return [...text.matchAll(VENDOR_VARIABLE)].map((m) => (m[1] ?? '').split('|')[0]!.trim());
}

/** `text` with each `{{…}}` replaced by `replace(variable)` (filters cut off), in one pass. */
export function replaceVendorVariables(
  text: string,
  replace: (variable: string) => string,
): string {
  return text.replace(VENDOR_VARIABLE, (_all, expr: string) => replace(expr.split('|')[0]!.trim()));
}

/** True when `text` holds a `{{…}}` variable. */
export function hasVendorVariable(text: string): boolean {
  return vendorVariables(text).length > 0;
}

function sessionName(name: string, dialect: VariableDialect): string {
  return dialect.system.get(name) ?? name;
}

function checked(expr: string, problem: VariableProblem): string {
  const [name, ...filters] = expr.split('|').map((s) => s.trim());
  if (filters.length > 0)
    problem(
      `the Liquid filter in "{{${expr}}}" has no equivalent; the variable is used unfiltered`,
    );
  if (name === undefined || !NAME.test(name)) {
    problem(`"{{${expr}}}" is not a variable name; kept as literal text`);
  }
  return name ?? expr;
}

/**
 * `Hi {{name}}` → `Hi {{vars.name}}` (a static parameter's mustache). The text around the
 * variables is escaped ({@link mustacheLiteral}); a variable that is not a name is a problem and
 * stays literal text.
 */
export function toMustache(
  text: string,
  dialect: VariableDialect,
  problem: VariableProblem,
): string {
  let out = '';
  let last = 0;
  for (const m of text.matchAll(VENDOR_VARIABLE)) {
    const name = checked(m[1] ?? '', problem);
    if (!NAME.test(name)) continue;
    checkUnmapped(name, dialect, problem);
    out += escapeBraceRuns(text.slice(last, m.index), true);
    out += `{{vars.${sessionName(name, dialect)}}}`;
    last = m.index + m[0].length;
  }
  return out + escapeBraceRuns(text.slice(last), false);
}

/**
 * A mustache template that renders `text` exactly: a vendor literal (an ElevenLabs
 * `constant_value`, an Ultravox static value, a description) stays a literal. Runs of `{` that
 * mustache would read as a tag are wrapped in set-delimiter tags: `{{` is written
 * `{{=<% %>=}}{{<%={{ }}=%>`. Text without `{{` is returned unchanged.
 */
export function mustacheLiteral(text: string): string {
  return escapeBraceRuns(text, false);
}

/** Escapes every run of two or more `{`, and a trailing `{` when a tag follows. */
function escapeBraceRuns(text: string, tagFollows: boolean): string {
  return text.replace(/\{+/g, (run, at: number) =>
    run.length > 1 || (tagFollows && at + run.length === text.length)
      ? `{{=<% %>=}}${run}<%={{ }}=%>`
      : run,
  );
}

/** A piece of a mustache template: literal text, or a variable it prints. */
export type MustachePart = { readonly text: string } | { readonly variable: string };

/**
 * The pieces of a mustache template, or undefined when it uses more than text and variables
 * (sections, partials) or does not parse. Set-delimiter tags are read, not kept.
 */
export function mustacheParts(template: string): MustachePart[] | undefined {
  let tokens: unknown[];
  try {
    tokens = Mustache.parse(template) as unknown[];
  } catch {
    return undefined;
  }
  const parts: MustachePart[] = [];
  for (const token of tokens) {
    const [type, value] = token as [string, string];
    if (type === 'text') parts.push({ text: value });
    else if (type === 'name' || type === '&') parts.push({ variable: value.trim() });
    else if (type !== '=' && type !== '!') return undefined;
  }
  return parts;
}

/** The text a template renders when it holds no variable (a literal), else undefined. */
export function mustacheText(template: string): string | undefined {
  const parts = mustacheParts(template);
  if (parts === undefined) return undefined;
  let out = '';
  for (const p of parts) {
    if (!('text' in p)) return undefined;
    out += p.text;
  }
  return out;
}

/**
 * `Hi {{name}}` → `Hi {vars.name}` (a `defaults` format template; literal braces doubled). A
 * name in `args` (the model's arguments, which the platform's template reads before its
 * variables) becomes the argument field `{params.name}`.
 */
export function toFormat(
  text: string,
  dialect: VariableDialect,
  problem: VariableProblem,
  args: ReadonlySet<string> = NO_ARGUMENTS,
): string {
  let out = '';
  let last = 0;
  for (const m of text.matchAll(VENDOR_VARIABLE)) {
    const name = checked(m[1] ?? '', problem);
    if (!NAME.test(name)) continue;
    out += escapeBraces(text.slice(last, m.index));
    last = m.index + m[0].length;
    if (args.has(name)) {
      out += `{params.${name}}`;
      continue;
    }
    checkUnmapped(name, dialect, problem);
    out += `{vars.${sessionName(name, dialect)}}`;
  }
  return out + escapeBraces(text.slice(last));
}

/** True when `text`'s Liquid names one of `args` (the model's arguments). */
export function namesArgument(text: string, args: ReadonlySet<string>): boolean {
  return vendorVariables(text).some((name) => args.has(name));
}

function escapeBraces(text: string): string {
  return text.replace(/[{}]/g, (c) => c + c);
}

function vendorName(path: string, dialect: VariableDialect): string | undefined {
  for (const [vendor, ours] of dialect.system) if (ours === path) return vendor;
  return path.startsWith('session.') ? undefined : path;
}

/**
 * `{{vars.name}}` → `{{name}}` for the platform; undefined when the text names something the
 * platform has no variable for (a `vars.session.*` value without an equivalent, a non-`vars` name).
 */
export function fromMustache(
  text: string,
  dialect: VariableDialect,
  /** Keep literal text holding `{{` (which the platform then reads as its own syntax). */
  keepBraces = false,
  /** The tool's arguments, where the platform's `{{name}}` names one of them first. */
  args: ReadonlySet<string> = NO_ARGUMENTS,
): string | undefined {
  const parts = mustacheParts(text);
  if (parts === undefined) return undefined;
  let out = '';
  for (const p of parts) {
    // Literal text the platform would read as a variable cannot be written.
    if ('text' in p) {
      if (!keepBraces && p.text.includes('{{')) return undefined;
      out += p.text;
      continue;
    }
    const name = p.variable.startsWith('vars.')
      ? vendorName(p.variable.slice(5), dialect)
      : undefined;
    if (name === undefined || args.has(name)) return undefined;
    out += `{{${name}}}`;
  }
  return out;
}

/**
 * A `defaults` format template → the platform's `{{name}}` text, when it names only session
 * variables (and, with `args`, top-level arguments: `{params.query}` or `{query}` → `{{query}}`)
 * and uses no format spec; undefined otherwise, and for a variable named like one of `args`.
 */
export function fromFormat(
  format: string,
  dialect: VariableDialect,
  args: ReadonlySet<string> = NO_ARGUMENTS,
): string | undefined {
  let out = '';
  let i = 0;
  while (i < format.length) {
    const c = format[i]!;
    if ((c === '{' || c === '}') && format[i + 1] === c) {
      out += c;
      i += 2;
      continue;
    }
    if (c === '}') return undefined;
    if (c !== '{') {
      out += c;
      i += 1;
      continue;
    }
    const end = format.indexOf('}', i);
    if (end < 0) return undefined;
    const field = format.slice(i + 1, end);
    const arg = field.startsWith('params.') ? field.slice(7) : field;
    if (args.has(arg)) {
      out += `{{${arg}}}`;
      i = end + 1;
      continue;
    }
    if (!field.startsWith('vars.') || !NAME.test(field)) return undefined;
    const name = vendorName(field.slice(5), dialect);
    // `{{name}}` naming an argument too would be read back as the argument, not the variable.
    if (name === undefined || args.has(name)) return undefined;
    out += `{{${name}}}`;
    i = end + 1;
  }
  return out;
}

/** `{{vars.x}}` alone → `x` (the platform's name); undefined for anything else. */
export function singleVariable(text: string, dialect: VariableDialect): string | undefined {
  const parts = mustacheParts(text);
  const only = parts?.length === 1 ? parts[0] : undefined;
  if (only === undefined || !('variable' in only)) return undefined;
  const m = /^vars\.([A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*)$/.exec(only.variable);
  return m ? vendorName(m[1]!, dialect) : undefined;
}

/** True for a name a vendor variable may have (`customer.tier`, `system__call_id`). */
export function isVariableName(name: string): boolean {
  return NAME.test(name);
}
