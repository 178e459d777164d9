/**
 * Schema `pattern`s on a linear-time engine (re2js, a pure-JS port of RE2): a model's string can
 * never make a pattern backtrack for seconds. JSON Schema patterns are ECMAScript regexes (ajv
 * compiles them with the `u` flag), so each is first checked by V8's parser, then rewritten where
 * RE2's syntax or meaning differs (`\s`, `.`, `[^]`, `\u` escapes, named groups), and compiled by
 * RE2. What RE2 cannot run — lookaround, backreferences, repeats over 1000, programs too large
 * to match quickly — is reported, so the loader refuses it with the schema path.
 */
import type { RE2JS } from 're2js';
import { re2js } from '../lazy-deps.js';

/**
 * Longest string a pattern is run on (UTF-16 units): 10 000. A longer string fails the pattern
 * (the validator says why); the whole argument string is capped separately (`maxArgumentBytes`).
 */
export const MAX_PATTERN_INPUT_LENGTH = 10_000;
/**
 * Largest compiled RE2 program accepted: 1000 instructions. Matching is linear in the input but
 * proportional to the program too: a 40 000-instruction alternation took 40 s on 10 000 chars.
 */
export const MAX_PATTERN_PROGRAM_SIZE = 1000;

/** What ajv needs of a compiled pattern. */
export interface LinearRegExp {
  test(input: string): boolean;
  /** `/pattern/flags`: ajv's key for sharing one compiled pattern. */
  toString(): string;
}

/** A pattern compiled, or why it cannot be. `unsupported` is RE2's limit; `invalid` is bad syntax. */
export type LinearRegExpResult =
  | { readonly ok: true; readonly regexp: LinearRegExp }
  | { readonly ok: false; readonly kind: 'invalid' | 'unsupported'; readonly message: string };

// JavaScript's \s (WhiteSpace and LineTerminator); RE2's \s is only [\t\n\f\r ].
const WHITESPACE =
  '\\t\\n\\x{0B}\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}';
// JavaScript's `.` without the `s` flag; RE2's `.` excludes only \n.
const DOT = '[^\\n\\r\\x{2028}\\x{2029}]';
const ANY = '[\\x{0}-\\x{10FFFF}]';
const NOTHING = '[^\\x{0}-\\x{10FFFF}]';

/** Compiles one JSON Schema pattern (flags as ajv passes them: `u`). Never throws. */
export function compileLinearRegExp(pattern: string, flags = 'u'): LinearRegExpResult {
  try {
    new RegExp(pattern, flags);
  } catch (error) {
    return { ok: false, kind: 'invalid', message: `invalid pattern: ${(error as Error).message}` };
  }
  const translated = translate(pattern);
  if ('unsupported' in translated) return unsupported(translated.unsupported);
  let compiled: RE2JS;
  try {
    compiled = re2js().compile(translated.source);
  } catch (error) {
    const reason = (error as Error).message.replace(/^error parsing regexp: /, '');
    return unsupported(
      /invalid repeat (count|size)/.test(reason) ? 'repeat count over 1000' : reason,
    );
  }
  const size = programSize(compiled);
  if (size > MAX_PATTERN_PROGRAM_SIZE) {
    return {
      ok: false,
      kind: 'unsupported',
      message: `pattern is too large for the linear-time engine (${size} instructions; at most ${MAX_PATTERN_PROGRAM_SIZE})`,
    };
  }
  return {
    ok: true,
    regexp: {
      test: (input) => input.length <= MAX_PATTERN_INPUT_LENGTH && compiled.test(input),
      // ajv shares compiled patterns by `toString()`: "[object Object]" would make every
      // pattern of a schema the first one.
      toString: () => `/${pattern}/${flags}`,
    },
  };
}

/**
 * ajv's `code.regExp` engine. Patterns reach it only after the loader's check
 * (`schema-patterns.ts`), so a throw here is a last resort that ajv reports as a compile error.
 */
export const linearRegExp = Object.assign(
  (pattern: string, flags: string): LinearRegExp => {
    const result = compileLinearRegExp(pattern, flags);
    if (!result.ok) throw new Error(result.message);
    return result.regexp;
  },
  { code: 'linearRegExp' },
);

function unsupported(what: string): LinearRegExpResult {
  return {
    ok: false,
    kind: 'unsupported',
    message: `pattern uses syntax the linear-time engine cannot run (${what})`,
  };
}

function programSize(compiled: RE2JS): number {
  const prog: unknown = (compiled.re2Input as { prog?: { inst?: unknown } }).prog;
  const inst = prog !== null && typeof prog === 'object' ? (prog as { inst?: unknown }).inst : [];
  return Array.isArray(inst) ? inst.length : 0;
}

/**
 * Rewrites a pattern V8 accepted (with `u`) into RE2 syntax with the same meaning, or names the
 * construct RE2 has no linear-time form of. One left-to-right scan; classes are read whole.
 */
function translate(pattern: string): { source: string } | { unsupported: string } {
  let out = '';
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i] as string;
    if (c === '\\') {
      const escape = readEscape(pattern, i, false);
      if ('unsupported' in escape) return escape;
      out += escape.text;
      i = escape.end;
    } else if (c === '[') {
      const cls = readClass(pattern, i);
      if ('unsupported' in cls) return cls;
      out += cls.text;
      i = cls.end;
    } else if (c === '(' && pattern[i + 1] === '?') {
      const rest = pattern.slice(i + 2, i + 4);
      if (rest.startsWith('=')) return { unsupported: 'lookahead' };
      if (rest.startsWith('!')) return { unsupported: 'negative lookahead' };
      if (rest === '<=') return { unsupported: 'lookbehind' };
      if (rest === '<!') return { unsupported: 'negative lookbehind' };
      if (rest.startsWith('<')) {
        out += '(?P<';
        i += 3;
      } else {
        out += '(?';
        i += 2;
      }
    } else if (c === '.') {
      out += DOT;
      i++;
    } else {
      // Astral characters stay whole (two units); RE2JS reads the string by code point.
      out += c;
      i++;
    }
  }
  return { source: out };
}

type Piece = { text: string; end: number } | { unsupported: string };

/** One escape at `at` (pattern[at] is `\`), rewritten for RE2. */
function readEscape(pattern: string, at: number, inClass: boolean): Piece {
  const c = pattern[at + 1] ?? '';
  const end = at + 2;
  switch (c) {
    case 's':
      return { text: inClass ? WHITESPACE : `[${WHITESPACE}]`, end };
    case 'S':
      return { text: `[^${WHITESPACE}]`, end };
    case 'k':
      return { unsupported: 'backreference' };
    case 'b':
      return { text: inClass ? '\\x{8}' : '\\b', end };
    case '0':
      return { text: '\\x{0}', end };
    case 'c':
      return { text: hex((pattern.charCodeAt(at + 2) ?? 0) % 32), end: at + 3 };
    case 'u': {
      if (pattern[end] === '{') {
        const close = pattern.indexOf('}', end);
        return { text: `\\x{${pattern.slice(end + 1, close)}}`, end: close + 1 };
      }
      const unit = parseInt(pattern.slice(end, end + 4), 16);
      const next = pattern.startsWith('\\u', end + 4)
        ? parseInt(pattern.slice(end + 6, end + 10), 16)
        : NaN;
      if (unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        return { text: hex((unit - 0xd800) * 0x400 + (next - 0xdc00) + 0x10000), end: end + 10 };
      }
      return { text: hex(unit), end: end + 4 };
    }
    case 'p':
    case 'P': {
      const close = pattern.indexOf('}', end);
      const name = pattern.slice(end + 1, close).replace(/^(Script|sc|General_Category|gc)=/, '');
      return { text: `\\${c}{${name}}`, end: close + 1 };
    }
    default:
      if (c >= '1' && c <= '9') return { unsupported: 'backreference' };
      return { text: `\\${c}`, end };
  }
}

/** A character class at `at` (pattern[at] is `[`), through its closing `]`. */
function readClass(pattern: string, at: number): Piece {
  let i = at + 1;
  const negated = pattern[i] === '^';
  if (negated) i++;
  let body = '';
  let nonSpace = false;
  while (i < pattern.length && pattern[i] !== ']') {
    if (pattern[i] === '\\') {
      if (pattern[i + 1] === 'S') {
        nonSpace = true;
        i += 2;
        continue;
      }
      const escape = readEscape(pattern, i, true);
      if ('unsupported' in escape) return escape;
      body += escape.text;
      i = escape.end;
    } else if (pattern[i] === '[') {
      body += '\\[';
      i++;
    } else {
      body += pattern[i];
      i++;
    }
  }
  const end = i + 1;
  // In JavaScript `[]` matches nothing and `[^]` anything; in RE2 `]` first is a literal.
  if (body === '' && !nonSpace) return { text: negated ? ANY : NOTHING, end };
  if (!nonSpace) return { text: `[${negated ? '^' : ''}${body}]`, end };
  if (negated) return { unsupported: '\\S inside a negated class' };
  const notSpace = `[^${WHITESPACE}]`;
  return { text: body === '' ? notSpace : `(?:[${body}]|${notSpace})`, end };
}

function hex(code: number): string {
  return `\\x{${code.toString(16).toUpperCase()}}`;
}
