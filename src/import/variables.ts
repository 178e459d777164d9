/**
 * Variable syntax between platforms and switchboard. Vapi (Liquid), ElevenLabs and Retell write
 * `{{name}}`; switchboard's static parameters are mustache over session variables
 * (`{{vars.name}}`) and its `defaults` templates are Python format strings (`{vars.name}`).
 * A platform's call-id variable maps to `vars.session.id` both ways.
 */

/** How one platform names variables. */
export interface VariableDialect {
  /** Vendor variable → switchboard variable path (without `vars.`), e.g. `call.id` → `session.id`. */
  readonly system: ReadonlyMap<string, string>;
}

const VENDOR_VARIABLE = /\{\{\s*([^{}]*?)\s*\}\}/g;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;

/** A problem met while translating: a Liquid filter, an expression that is not a name. */
export type VariableProblem = (message: string) => void;

/** The variables `text` names (`{{ a }} {{b.c}}` → `['a', 'b.c']`); filters are cut off. */
export function vendorVariables(text: string): string[] {
  return [...text.matchAll(VENDOR_VARIABLE)].map((m) => (m[1] ?? '').split('|')[0]!.trim());
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
    problem(`"{{${expr}}}" is not a variable name; it is kept as a name as written`);
  }
  return name ?? expr;
}

/** `Hi {{name}}` → `Hi {{vars.name}}` (a static parameter's mustache). */
export function toMustache(
  text: string,
  dialect: VariableDialect,
  problem: VariableProblem,
): string {
  return text.replace(VENDOR_VARIABLE, (_all, expr: string) => {
    return `{{vars.${sessionName(checked(expr, problem), dialect)}}}`;
  });
}

/** `Hi {{name}}` → `Hi {vars.name}` (a `defaults` format template; literal braces doubled). */
export function toFormat(text: string, dialect: VariableDialect, problem: VariableProblem): string {
  let out = '';
  let last = 0;
  for (const m of text.matchAll(VENDOR_VARIABLE)) {
    out += escapeBraces(text.slice(last, m.index));
    out += `{vars.${sessionName(checked(m[1] ?? '', problem), dialect)}}`;
    last = m.index + m[0].length;
  }
  return out + escapeBraces(text.slice(last));
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
export function fromMustache(text: string, dialect: VariableDialect): string | undefined {
  let ok = true;
  const out = text.replace(/\{\{\s*([^{}]*?)\s*\}\}/g, (_all, expr: string) => {
    const name = expr.startsWith('vars.') ? vendorName(expr.slice(5), dialect) : undefined;
    if (name === undefined) ok = false;
    return `{{${name ?? expr}}}`;
  });
  return ok ? out : undefined;
}

/**
 * A `defaults` format template → the platform's `{{name}}` text, when it names only session
 * variables and uses no format spec; undefined otherwise (an argument field cannot be expressed).
 */
export function fromFormat(format: string, dialect: VariableDialect): string | undefined {
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
    if (!field.startsWith('vars.') || !NAME.test(field)) return undefined;
    const name = vendorName(field.slice(5), dialect);
    if (name === undefined) return undefined;
    out += `{{${name}}}`;
    i = end + 1;
  }
  return out;
}

/** `{{vars.x}}` alone → `x` (the platform's name); undefined for anything else. */
export function singleVariable(text: string, dialect: VariableDialect): string | undefined {
  const m = /^\{\{\s*vars\.([A-Za-z_][A-Za-z0-9_.]*)\s*\}\}$/.exec(text);
  return m ? vendorName(m[1]!, dialect) : undefined;
}
