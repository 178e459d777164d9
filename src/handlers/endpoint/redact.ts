/**
 * Keeps secrets out of everything an endpoint call returns: request records (secret header
 * values become `[redacted]`) and outputs or error texts that a service may have echoed a secret
 * into (every form a `SecretSet` knows, written plainly or with percent, HTML or JSON escapes).
 */

/** What replaces a secret. */
export const REDACTED = '[redacted]';

import { CREDENTIAL_HEADERS } from './service-config.js';

/** Copies headers with secret values replaced. */
export function redactHeaders(
  headers: Readonly<Record<string, string>>,
  secretNames: ReadonlySet<string>,
): Record<string, string> {
  // Object.fromEntries defines own properties, so no header name can reach a prototype.
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [
      name,
      secretNames.has(name) || CREDENTIAL_HEADERS.has(name) ? REDACTED : value,
    ]),
  );
}

/** The forms of a secret set, longest first (see `secret-set.ts`). */
export interface ScrubForms {
  /** Matched as written. */
  readonly literal: readonly string[];
  /** Matched in the text with its percent, HTML and JSON escapes decoded. */
  readonly unescaped: readonly string[];
  /** Length of the shortest form: shorter texts hold none. */
  readonly shortest: number;
}

// Escape families: percent-escapes (any case), HTML character references, JSON escapes. An
// escape next to a secret is ambiguous (`%` ending an HTML-escaped secret before "41", a secret
// ending in `\` before `"`, `\\u0041` read by JSON or by a looser reader), so text holding
// several families is also read with each family alone, and text holding a backslash also with
// `\\` left as written (the secret is then also looked for with its backslashes doubled).
const PERCENT = '%[0-9a-fA-F]{2}';
const HTML = '&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|amp|lt|gt|quot|apos);';
const JSON_U = '\\\\u[0-9a-fA-F]{4}';
const JSON_ALL = `${JSON_U}|\\\\["\\\\/]`;
const ALL = new RegExp(`${PERCENT}|${HTML}|${JSON_ALL}`, 'g');
const FAMILIES: ReadonlyArray<readonly [string, RegExp]> = [
  ['%', new RegExp(PERCENT, 'g')],
  ['&', new RegExp(HTML, 'g')],
  ['\\', new RegExp(JSON_ALL, 'g')],
];
// Readings that leave `\\\\` (then also `\"` and `\/`) as written.
const JSON_LOOSE: readonly RegExp[] = [
  new RegExp(`${JSON_U}|\\\\["/]`, 'g'),
  new RegExp(JSON_U, 'g'),
];
const NAMED: ReadonlyMap<string, string> = new Map([
  ['&amp;', '&'],
  ['&lt;', '<'],
  ['&gt;', '>'],
  ['&quot;', '"'],
  ['&apos;', "'"],
]);

/** The character an escape stands for (a percent-escape gives a byte, as a Latin-1 character). */
function unescapeOne(escape: string): string {
  switch (escape[0]) {
    case '%':
      return String.fromCharCode(parseInt(escape.slice(1), 16));
    case '\\':
      return escape[1] === 'u'
        ? String.fromCharCode(parseInt(escape.slice(2), 16))
        : escape.slice(1);
    default: {
      const named = NAMED.get(escape);
      if (named !== undefined) return named;
      const hex = escape[2] === 'x' || escape[2] === 'X';
      const code = parseInt(escape.slice(hex ? 3 : 2, -1), hex ? 16 : 10);
      return code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd';
    }
  }
}

/**
 * Spans of `text` (start, end pairs) whose unescaped reading contains a form. The unescaped view
 * maps each of its characters back to the span of `text` it came from, so a secret written with
 * any mix of escapes and plain characters is found and its whole written span replaced.
 */
function escapedSpans(text: string, forms: readonly string[], escape: RegExp): number[] {
  let view = '';
  const starts: number[] = [];
  const ends: number[] = [];
  let last = 0;
  const plain = (to: number): void => {
    for (let i = last; i < to; i++) {
      starts.push(i);
      ends.push(i + 1);
    }
    view += text.slice(last, to);
  };
  escape.lastIndex = 0;
  for (let m = escape.exec(text); m !== null; m = escape.exec(text)) {
    plain(m.index);
    const decoded = unescapeOne(m[0]);
    for (let k = 0; k < decoded.length; k++) {
      starts.push(m.index);
      ends.push(m.index + m[0].length);
    }
    view += decoded;
    last = m.index + m[0].length;
  }
  const spans: number[] = [];
  if (last === 0) {
    // No escape: only the forms that differ from the secret as written (`+` for a space).
    for (const form of forms)
      for (let at = text.indexOf(form); at >= 0; at = text.indexOf(form, at + form.length))
        spans.push(at, at + form.length);
    return spans;
  }
  plain(text.length);
  for (const form of forms) {
    for (let at = view.indexOf(form); at >= 0; at = view.indexOf(form, at + form.length)) {
      spans.push(starts[at] ?? 0, ends[at + form.length - 1] ?? text.length);
    }
  }
  return spans;
}

/** Replaces the spans (start, end pairs, any order, may overlap) with one marker each. */
function replaceSpans(text: string, spans: number[]): string {
  const pairs: Array<[number, number]> = [];
  for (let i = 0; i < spans.length; i += 2) pairs.push([spans[i] ?? 0, spans[i + 1] ?? 0]);
  pairs.sort((a, b) => a[0] - b[0]);
  let out = '';
  let at = 0;
  for (const [start, end] of pairs) {
    if (end <= at) continue;
    out += text.slice(at, Math.max(at, start)) + (start >= at ? REDACTED : '');
    at = end;
  }
  return out + text.slice(at);
}

function matches(pattern: RegExp, text: string): boolean {
  pattern.lastIndex = 0;
  const found = pattern.test(text);
  pattern.lastIndex = 0;
  return found;
}

/** Text without escapes: only forms that differ from the secret as written (`+` for a space). */
function noEscapeSpans(text: string, forms: readonly string[]): string {
  const spans: number[] = [];
  for (const form of forms)
    for (let at = text.indexOf(form); at >= 0; at = text.indexOf(form, at + form.length))
      spans.push(at, at + form.length);
  return spans.length === 0 ? text : replaceSpans(text, spans);
}

/** Replaces every form inside a string: literal forms, then forms written with escapes. */
export function scrubForms(text: string, forms: ScrubForms): string {
  if (text.length < forms.shortest) return text;
  let out = text;
  for (const form of forms.literal) if (out.includes(form)) out = out.split(form).join(REDACTED);
  const present = FAMILIES.filter(
    ([trigger, family]) => out.includes(trigger) && matches(family, out),
  );
  if (present.length === 0)
    return out.includes('+') || out.includes('\\') ? noEscapeSpans(out, forms.unescaped) : out;
  const spans = escapedSpans(out, forms.unescaped, ALL);
  if (present.length > 1)
    for (const [, family] of present) spans.push(...escapedSpans(out, forms.unescaped, family));
  if (out.includes('\\'))
    for (const reading of JSON_LOOSE) spans.push(...escapedSpans(out, forms.unescaped, reading));
  return spans.length === 0 ? out : replaceSpans(out, spans);
}
