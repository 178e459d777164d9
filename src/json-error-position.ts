/**
 * Where strict JSON text first goes wrong. V8's JSON.parse names a position for most mistakes
 * but not for an unexpected token (`{"a":NaN}`, a code fence, `tru`), and the model can only fix
 * what it is shown. This scanner is iterative (an explicit stack, no recursion) and runs only
 * after JSON.parse has already failed, on text the size and depth limits have let through.
 * Shared by the model's arguments (session) and tools files (definition): `jsonSyntaxMessage`.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

type Expect = 'value' | 'value-or-close' | 'key' | 'key-or-close' | 'colon' | 'next' | 'end';

const isWhitespace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isHex = (c: number): boolean =>
  isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);

/** A scan step: the index after the token, or the index of the first bad character. */
type Step =
  { readonly ok: true; readonly end: number } | { readonly ok: false; readonly at: number };

function scanString(raw: string, start: number): Step {
  for (let i = start + 1; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === QUOTE) return { ok: true, end: i + 1 };
    if (c < 0x20) return { ok: false, at: i };
    if (c !== BACKSLASH) continue;
    const e = raw[i + 1];
    if (e === 'u') {
      for (let k = i + 2; k < i + 6; k++)
        if (!isHex(raw.charCodeAt(k))) return { ok: false, at: k };
      i += 5;
    } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i++;
    else return { ok: false, at: i + 1 };
  }
  return { ok: false, at: raw.length };
}

function scanDigits(raw: string, start: number): Step {
  let i = start;
  while (isDigit(raw.charCodeAt(i))) i++;
  return i === start ? { ok: false, at: i } : { ok: true, end: i };
}

function scanNumber(raw: string, start: number): Step {
  let i = start;
  if (raw.charCodeAt(i) === 0x2d /* - */) i++;
  if (raw.charCodeAt(i) === 0x30 /* 0 */) i++;
  else {
    const int = scanDigits(raw, i);
    if (!int.ok) return int;
    i = int.end;
  }
  if (raw.charCodeAt(i) === 0x2e /* . */) {
    const frac = scanDigits(raw, i + 1);
    if (!frac.ok) return frac;
    i = frac.end;
  }
  const e = raw.charCodeAt(i);
  if (e === 0x65 || e === 0x45) {
    i++;
    const sign = raw.charCodeAt(i);
    if (sign === 0x2b || sign === 0x2d) i++;
    const exp = scanDigits(raw, i);
    if (!exp.ok) return exp;
    i = exp.end;
  }
  return { ok: true, end: i };
}

function scanScalar(raw: string, i: number): Step {
  const c = raw.charCodeAt(i);
  if (c === QUOTE) return scanString(raw, i);
  if (c === 0x2d || isDigit(c)) return scanNumber(raw, i);
  const literal = c === 0x74 ? 'true' : c === 0x66 ? 'false' : c === 0x6e ? 'null' : undefined;
  if (literal === undefined) return { ok: false, at: i };
  for (let k = 0; k < literal.length; k++)
    if (raw[i + k] !== literal[k]) return { ok: false, at: i + k };
  return { ok: true, end: i + literal.length };
}

/**
 * The UTF-16 index where `raw` stops being strict JSON (`raw.length` when it ends too early).
 * Meant for text JSON.parse rejected; on valid JSON it returns `raw.length`.
 */
export function jsonErrorPosition(raw: string): number {
  const stack: number[] = [];
  let expect: Expect = 'value';
  let i = 0;
  const afterValue = (): Expect => (stack.length === 0 ? 'end' : 'next');
  for (;;) {
    while (i < raw.length && isWhitespace(raw.charCodeAt(i))) i++;
    if (i >= raw.length) return raw.length;
    const c = raw.charCodeAt(i);
    switch (expect) {
      case 'end':
        return i;
      case 'colon':
        if (c !== COLON) return i;
        i++;
        expect = 'value';
        break;
      case 'next': {
        const top = stack[stack.length - 1];
        if (c === COMMA) {
          i++;
          expect = top === OPEN_OBJECT ? 'key' : 'value';
        } else if (
          (c === CLOSE_OBJECT && top === OPEN_OBJECT) ||
          (c === CLOSE_ARRAY && top === OPEN_ARRAY)
        ) {
          stack.pop();
          i++;
          expect = afterValue();
        } else return i;
        break;
      }
      case 'key':
      case 'key-or-close': {
        if (c === CLOSE_OBJECT && expect === 'key-or-close') {
          stack.pop();
          i++;
          expect = afterValue();
          break;
        }
        if (c !== QUOTE) return i;
        const key = scanString(raw, i);
        if (!key.ok) return key.at;
        i = key.end;
        expect = 'colon';
        break;
      }
      case 'value':
      case 'value-or-close': {
        if (c === CLOSE_ARRAY && expect === 'value-or-close') {
          stack.pop();
          i++;
          expect = afterValue();
        } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
          stack.push(c);
          i++;
          expect = c === OPEN_OBJECT ? 'key-or-close' : 'value-or-close';
        } else {
          const scalar = scanScalar(raw, i);
          if (!scalar.ok) return scalar.at;
          i = scalar.end;
          expect = afterValue();
        }
        break;
      }
      default: {
        const _exhaustive: never = expect;
        return _exhaustive;
      }
    }
  }
}

/**
 * `invalid JSON at line L, column C: reason` for a file that did not parse, as YAML's errors say
 * it: `JSON.parse` names a character offset (or none), which nobody can find in a long file.
 */
export function jsonSyntaxMessage(text: string, message: string): string {
  const at = / at position (\d+)/.exec(message);
  const position = at !== null ? Number(at[1]) : jsonErrorPosition(text);
  const before = text.slice(0, position);
  const line = before.split('\n').length;
  const column = position - before.lastIndexOf('\n');
  // V8 ends with the offset (and, in newer versions, its own line and column), or quotes the
  // text around an unexpected token, newlines and all: the line and column say where instead.
  const reason = message
    .replace(/ in JSON at position \d+.*$/s, '')
    .replace(/, (?:\.\.\.)?".*" is not valid JSON$/s, '');
  return `invalid JSON at line ${line}, column ${column}: ${reason}`;
}
