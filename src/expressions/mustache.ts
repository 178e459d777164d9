/**
 * Mustache over session variables (static parameter values, system prompts, context results,
 * descriptions). No HTML escaping: the output goes to an LLM, a TTS engine or an HTTP request,
 * never to a browser.
 *
 * The view is built from null-prototype objects and lists, so `{{vars.constructor}}`,
 * `{{vars.toString}}` or `{{vars.tags.map}}` find nothing. Flat keys `"vars.a.b"` (the way
 * Syllable agents store them) are nested into `vars.a.b`; keys without the prefix are reachable as
 * `vars.<key>` too; flat keys win over unprefixed ones; `vars.session.*` holds the system values
 * and wins over both. Arrays and objects print as compact JSON (`{{vars.tags}}` → `["a","b"]`).
 * What mustache itself still reaches on primitives (`{{vars.name.length}}`) is data, not code.
 */
import Mustache from 'mustache';
import { getOwn, isPlainObject, type PlainObject } from '../own-data.js';
import { argumentError } from '../option-checks.js';

/** System values reachable as `vars.session.*` in templates and conditions. */
export interface SessionSystemValues {
  readonly id?: string;
  readonly language?: string;
  readonly datetime?: string;
  readonly date?: string;
  readonly day_of_week?: string;
  readonly timezone?: string;
  readonly source?: string;
  readonly target?: string;
}

/** What a mustache template may read. */
export interface MustacheView {
  readonly vars?: Readonly<Record<string, unknown>> | undefined;
  readonly session?: SessionSystemValues | undefined;
  /** A tool call's final arguments, reachable as `args.*` (spoken error phrases). */
  readonly args?: Readonly<Record<string, unknown>> | undefined;
}

/** No HTML escaping; non-strings print as `String(value)` (objects and arrays as compact JSON). */
const noEscape = (value: unknown): string => (typeof value === 'string' ? value : String(value));

/** Arrays and objects print as compact JSON (a symbol key: no template name can reach it). */
function asJson(this: unknown): string {
  return JSON.stringify(this) ?? '';
}

function printable<T extends object>(value: T): T {
  Object.defineProperty(value, Symbol.toPrimitive, { value: asJson, enumerable: false });
  return value;
}

/**
 * `items` without a prototype. Mustache calls a function it finds, with the view as `this`:
 * `{{vars.l.map}}` on a list reached `Array.prototype.map` and threw a TypeError out of the render.
 * Sections, `.length` and JSON printing work on such a list as on any other.
 */
export function bareList(items: unknown[]): unknown[] {
  return Object.setPrototypeOf(items, null) as unknown[];
}

function nullProto(value: unknown): unknown {
  if (Array.isArray(value)) return printable(bareList(value.map(nullProto)));
  if (!isPlainObject(value)) return value;
  const out = Object.create(null) as PlainObject;
  for (const k of Object.keys(value)) out[k] = nullProto(getOwn(value, k));
  return printable(out);
}

function setNested(root: PlainObject, segments: readonly string[], value: unknown): void {
  let obj = root;
  for (let i = 0; i < segments.length - 1; i++) {
    const k = segments[i] as string;
    let child = obj[k];
    if (child === null || typeof child !== 'object' || Array.isArray(child)) {
      child = printable(Object.create(null) as PlainObject);
      obj[k] = child;
    }
    obj = child as PlainObject;
  }
  obj[segments[segments.length - 1] as string] = value;
}

/** Builds the (null-prototype) view `{ vars: {…, session: {…}} }` described above. */
export function buildMustacheView(view: MustacheView): PlainObject {
  const vars = printable(Object.create(null) as PlainObject);
  const source = view.vars ?? {};
  const keys = Object.keys(source);
  for (const k of keys) if (!k.startsWith('vars.')) vars[k] = nullProto(getOwn(source, k));
  for (const k of keys) {
    if (!k.startsWith('vars.')) continue;
    const segments = k.slice(5).split('.');
    if (segments.some((s) => s === '')) continue;
    setNested(vars, segments, nullProto(getOwn(source, k)));
  }
  if (view.session !== undefined) {
    const session = printable(Object.create(null) as PlainObject);
    const existing = vars['session'];
    if (existing !== null && typeof existing === 'object' && !Array.isArray(existing))
      Object.assign(session, existing);
    for (const [k, v] of Object.entries(view.session)) if (v !== undefined) session[k] = v;
    vars['session'] = session;
  }
  const root = Object.create(null) as PlainObject;
  root['vars'] = vars;
  if (view.args !== undefined) root['args'] = nullProto(view.args);
  return root;
}

/**
 * The first syntax problem of a mustache template (unclosed tag or section), or `undefined`.
 * Loaders call this at load time so {@link renderMustache} never meets a broken template.
 */
export function checkMustache(template: string): string | undefined {
  try {
    Mustache.parse(template);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * Renders a mustache template over session variables, without HTML escaping.
 * Throws on a template with a syntax error (check templates at load with {@link checkMustache}).
 */
export function renderMustache(template: string, view: MustacheView): string {
  if (typeof template !== 'string')
    throw argumentError('renderMustache(template)', 'a string', template);
  if (!template.includes('{{')) return template;
  return Mustache.render(template, buildMustacheView(view), {}, { escape: noEscape });
}

/** Bounds of {@link renderBounded}. */
export interface RenderBounds {
  /** Longest output, in characters. */
  readonly maxChars: number;
  /** Called once per pass over tokens (each section iteration); throws to stop the render. */
  step(): void;
  /** The error thrown when the output would exceed {@link maxChars}. */
  tooLarge(): Error;
}

/** Objects and arrays as compact JSON, other values as text (never a prototype's toString). */
function printed(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value !== null && typeof value === 'object') return JSON.stringify(value) ?? '';
  return String(value);
}

/**
 * Counts what a render produces as it goes: the output is exactly the text, `{{x}}` and `{{{x}}}`
 * pieces, so their sum is its length, known before any of it is joined. Sections call
 * `renderTokens` once per item, which is where the step is charged.
 */
class BoundedWriter extends Mustache.Writer {
  bounds: RenderBounds | undefined;
  produced = 0;

  override renderTokens(...args: Parameters<Mustache.Writer['renderTokens']>): string {
    this.bounds?.step();
    return super.renderTokens(...args);
  }

  override rawValue(token: string[]): string {
    return this.#count(super.rawValue(token));
  }

  override escapedValue(token: string[], context: Mustache.Context): string {
    return this.unescapedValue(token, context);
  }

  override unescapedValue(token: string[], context: Mustache.Context): string {
    const value: unknown = context.lookup(token[1] ?? '');
    return value === null || value === undefined ? '' : this.#count(printed(value));
  }

  #count(text: string): string {
    this.produced += text.length;
    if (this.bounds !== undefined && this.produced > this.bounds.maxChars)
      throw this.bounds.tooLarge();
    return text;
  }
}

const boundedWriter = new BoundedWriter();

/**
 * Renders `template` over `view` without escaping, printing objects and arrays as JSON, under
 * `bounds`: the output never grows past `maxChars` and every section pass is a step, so a template
 * over model-sized data can neither build a huge string nor loop for long.
 */
export function renderBounded(template: string, view: unknown, bounds: RenderBounds): string {
  if (!template.includes('{{')) {
    if (template.length > bounds.maxChars) throw bounds.tooLarge();
    return template;
  }
  const outer = { bounds: boundedWriter.bounds, produced: boundedWriter.produced };
  boundedWriter.bounds = bounds;
  boundedWriter.produced = 0;
  try {
    return boundedWriter.render(template, view, {});
  } finally {
    boundedWriter.bounds = outer.bounds;
    boundedWriter.produced = outer.produced;
  }
}
