/**
 * Python `format(value, spec)` for JSON values, in the subset of docs/transform.md. Numbers are rounded
 * exactly (half-even on the exact binary value, as CPython does), not with `toFixed`.
 * A value of the wrong type for its spec (`{x:d}` with a string) throws {@link TemplateValueError},
 * Python's `ValueError`/`TypeError`.
 */
import type { FormatSpec } from './format-spec.js';
import { exponentSuffix, floatRepr, intText, pyRepr, pyStr } from './python-text.js';

/** A value that cannot be formatted with its spec. */
export class TemplateValueError extends Error {
  override readonly name = 'TemplateValueError';
}

/** Formats one value; `spec` undefined means an empty spec (`{x}` or `{x:}`). */
export function formatValue(
  value: unknown,
  spec: FormatSpec | undefined,
  conversion: 's' | 'r' | undefined,
): string {
  if (conversion !== undefined) {
    const text = conversion === 'r' ? pyRepr(value) : pyStr(value);
    return spec === undefined ? text : formatString(text, spec);
  }
  if (spec === undefined) return pyStr(value);
  switch (typeof value) {
    case 'string':
      return formatString(value, spec);
    case 'number':
      if (!Number.isInteger(value)) return formatFloat(value, spec, 'float');
      // `{n:d}` and friends with nothing else to lay out: the digits are the answer.
      if (
        (spec.type === 'd' || spec.type === '') &&
        spec.width < 0 &&
        spec.sign === undefined &&
        spec.grouping === undefined &&
        spec.precision < 0
      )
        return intText(value);
      return formatInt(value, spec, 'int');
    case 'boolean':
      return formatInt(value ? 1 : 0, spec, 'bool');
    default: {
      const typeName = value === null ? 'NoneType' : Array.isArray(value) ? 'list' : 'dict';
      throw new TemplateValueError(`unsupported format string passed to ${typeName}.__format__`);
    }
  }
}

function codePoints(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

function pad(
  body: string,
  bodyLength: number,
  width: number,
  fill: string,
  align: '<' | '>' | '^',
): string {
  const n = width - bodyLength;
  if (n <= 0) return body;
  if (align === '<') return body + fill.repeat(n);
  if (align === '>') return fill.repeat(n) + body;
  const left = Math.floor(n / 2);
  return fill.repeat(left) + body + fill.repeat(n - left);
}

/** `format(str, spec)`. */
export function formatString(s: string, spec: FormatSpec): string {
  if (spec.sign !== undefined)
    throw new TemplateValueError('sign not allowed in string format specifier');
  if (spec.alternate)
    throw new TemplateValueError('alternate form (#) not allowed in string format specifier');
  if (spec.grouping !== undefined)
    throw new TemplateValueError(`cannot specify '${spec.grouping}' with 's'`);
  if (spec.align === '=')
    throw new TemplateValueError("'=' alignment not allowed in string format specifier");
  if (spec.type !== '' && spec.type !== 's')
    throw new TemplateValueError(`unknown format code '${spec.type}' for object of type 'str'`);
  let text = s;
  let length = codePoints(s);
  if (spec.precision >= 0 && length > spec.precision) {
    text = Array.from(s).slice(0, spec.precision).join('');
    length = spec.precision;
  }
  const fill = spec.fill ?? (spec.zero ? '0' : ' ');
  return pad(text, length, spec.width, fill, (spec.align ?? '<') as '<' | '>' | '^');
}

function groupDigits(digits: string, minWidthIn: number, sep: string, size: number): string {
  let remaining = digits.length;
  let minWidth = minWidthIn;
  let pos = digits.length;
  let out = '';
  let useSep = false;
  for (;;) {
    const l = Math.min(size, Math.max(remaining, minWidth, 1));
    const zeros = Math.max(0, l - remaining);
    const chars = Math.max(0, Math.min(remaining, l));
    out = '0'.repeat(zeros) + digits.slice(pos - chars, pos) + (useSep ? sep : '') + out;
    pos -= chars;
    useSep = true;
    remaining -= chars;
    minWidth -= l;
    if (remaining <= 0 && minWidth <= 0) return out;
    minWidth -= sep.length;
  }
}

function layoutNumber(
  sign: string,
  prefix: string,
  intDigits: string,
  remainder: string,
  spec: FormatSpec,
  groupSize: number,
): string {
  const fill = spec.fill ?? (spec.zero ? '0' : ' ');
  const align = spec.align ?? (spec.zero ? '=' : '>');
  const minWidth =
    fill === '0' && align === '=' ? spec.width - sign.length - prefix.length - remainder.length : 0;
  let digits: string;
  if (spec.grouping !== undefined)
    digits = groupDigits(intDigits, minWidth, spec.grouping, groupSize);
  else digits = minWidth > intDigits.length ? intDigits.padStart(minWidth, '0') : intDigits;
  const head = sign + prefix;
  const body = digits + remainder;
  const n = spec.width - head.length - body.length;
  if (n <= 0) return head + body;
  if (align === '=') return head + fill.repeat(n) + body;
  return pad(head + body, head.length + body.length, spec.width, fill, align);
}

function signText(negative: boolean, spec: FormatSpec): string {
  if (negative) return '-';
  return spec.sign === '+' ? '+' : spec.sign === ' ' ? ' ' : '';
}

/** `format(int, spec)` (booleans use it too, as in Python). */
function formatInt(x: number, spec: FormatSpec, typeName: string): string {
  const t = spec.type;
  if (t === 'e' || t === 'E' || t === 'f' || t === 'F' || t === 'g' || t === 'G' || t === '%')
    return formatFloat(x, spec, typeName);
  if (t === 's')
    throw new TemplateValueError(`unknown format code 's' for object of type '${typeName}'`);
  if (spec.precision >= 0)
    throw new TemplateValueError('precision not allowed in integer format specifier');
  const base = t === 'x' || t === 'X' ? 16 : t === 'o' ? 8 : t === 'b' ? 2 : 10;
  if (spec.grouping === ',' && base !== 10)
    throw new TemplateValueError(`cannot specify ',' with '${t}'`);
  const negative = x < 0;
  const abs = Math.abs(x);
  let digits =
    base === 10
      ? intText(abs)
      : Number.isSafeInteger(abs)
        ? abs.toString(base)
        : BigInt(abs).toString(base);
  if (t === 'X') digits = digits.toUpperCase();
  const prefix = spec.alternate && base !== 10 ? `0${t}` : '';
  return layoutNumber(signText(negative, spec), prefix, digits, '', spec, base === 10 ? 3 : 4);
}

/** `format(float, spec)`. */
function formatFloat(x: number, spec: FormatSpec, typeName: string): string {
  const t = spec.type;
  if (t === 'd' || t === 'x' || t === 'X' || t === 'o' || t === 'b' || t === 's') {
    throw new TemplateValueError(`unknown format code '${t}' for object of type '${typeName}'`);
  }
  const negative = x < 0 || Object.is(x, -0);
  const upper = t === 'E' || t === 'F' || t === 'G';
  let value = Math.abs(x);
  let body: string;
  if (!Number.isFinite(value)) {
    body = Number.isNaN(value) ? 'nan' : 'inf';
    if (upper) body = body.toUpperCase();
    if (t === '%') body += '%';
  } else {
    const p = spec.precision;
    switch (t) {
      case '':
        body =
          p < 0
            ? reprFormat(value, spec.alternate)
            : generalFormat(value, p === 0 ? 1 : p, true, spec.alternate);
        break;
      case 'g':
      case 'G':
        body = generalFormat(value, p < 0 ? 6 : p === 0 ? 1 : p, false, spec.alternate);
        break;
      case 'e':
      case 'E':
        body = expFormat(value, p < 0 ? 6 : p, spec.alternate);
        break;
      case 'f':
      case 'F':
        body = fixedFormat(value, p < 0 ? 6 : p, spec.alternate);
        break;
      case '%':
        value *= 100;
        body = `${fixedFormat(value, p < 0 ? 6 : p, spec.alternate)}%`;
        break;
    }
    if (upper) body = body.toUpperCase();
  }
  let cut = 0;
  while (cut < body.length && body.charCodeAt(cut) >= 48 && body.charCodeAt(cut) <= 57) cut++;
  return layoutNumber(signText(negative, spec), '', body.slice(0, cut), body.slice(cut), spec, 3);
}

/** `repr(float)`; the alternate form keeps a '.' even in exponent notation (`1.e-07`). */
function reprFormat(a: number, alternate: boolean): string {
  const text = floatRepr(a);
  if (!alternate || text.includes('.')) return text;
  const e = text.indexOf('e');
  return `${text.slice(0, e)}.${text.slice(e)}`;
}

/** The exact value of a positive finite double as D / 10^s. */
function exactDecimal(a: number): { d: bigint; s: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, a);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e: number;
  if (biased === 0) e = -1074;
  else {
    mant |= 1n << 52n;
    e = biased - 1075;
  }
  return e >= 0 ? { d: mant << BigInt(e), s: 0 } : { d: mant * 5n ** BigInt(-e), s: -e };
}

function divRoundHalfEven(d: bigint, divisor: bigint): bigint {
  let q = d / divisor;
  const twice = 2n * (d % divisor);
  if (twice > divisor || (twice === divisor && (q & 1n) === 1n)) q += 1n;
  return q;
}

function fixedFormat(a: number, p: number, alternate: boolean): string {
  const { d, s } = exactDecimal(a);
  const n = s <= p ? d * 10n ** BigInt(p - s) : divRoundHalfEven(d, 10n ** BigInt(s - p));
  const text = n.toString().padStart(p + 1, '0');
  const intPart = text.slice(0, text.length - p);
  if (p === 0) return alternate ? `${intPart}.` : intPart;
  return `${intPart}.${text.slice(text.length - p)}`;
}

/** `p` significant digits (correctly rounded) and the decimal exponent of the first. */
function significant(a: number, p: number): { digits: string; exp: number } {
  if (a === 0) return { digits: '0'.repeat(p), exp: 0 };
  const { d, s } = exactDecimal(a);
  const text = d.toString();
  let exp = text.length - 1 - s;
  if (text.length <= p) return { digits: text.padEnd(p, '0'), exp };
  let digits = divRoundHalfEven(d, 10n ** BigInt(text.length - p)).toString();
  if (digits.length > p) {
    digits = digits.slice(0, p);
    exp++;
  }
  return { digits, exp };
}

function expFormat(a: number, p: number, alternate: boolean): string {
  const { digits, exp } = significant(a, p + 1);
  const frac = digits.slice(1);
  return `${digits[0]}${frac !== '' || alternate ? '.' : ''}${frac}${exponentSuffix(exp)}`;
}

function generalFormat(a: number, p: number, addDot0: boolean, alternate: boolean): string {
  const sig = significant(a, p);
  let d = sig.digits;
  const decpt = sig.exp + 1;
  if (!alternate) {
    let end = d.length;
    while (end > 1 && d[end - 1] === '0') end--;
    d = d.slice(0, end);
  }
  if (decpt <= -4 || decpt > (addDot0 ? p - 1 : p)) {
    const frac = d.slice(1);
    return `${d[0]}${frac !== '' || alternate ? '.' : ''}${frac}${exponentSuffix(sig.exp)}`;
  }
  let out: string;
  if (decpt <= 0) out = `0.${'0'.repeat(-decpt)}${d}`;
  else if (decpt >= d.length) out = `${d}${'0'.repeat(decpt - d.length)}${alternate ? '.' : ''}`;
  else out = `${d.slice(0, decpt)}.${d.slice(decpt)}`;
  if (addDot0 && !out.includes('.')) out += '.0';
  return out;
}
