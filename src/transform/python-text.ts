/**
 * How values print, the Python way (`str()` and `repr()`), for templates (docs/transform.md).
 *
 * JSON has one number type; Python has two. A number that is an integer in JavaScript
 * (`Number.isInteger`) prints as a Python `int` (`2.0` in the JSON is the number 2 and prints
 * `2`; `1e21` prints `1000000000000000000000`); any other number prints as `repr(float)`.
 * Arrays and objects print as compact JSON (not as Python's `{'a': 1}`), for `str` and `repr` alike.
 */

/** Digits and decimal exponent of a positive finite number: value = 0.d1d2… × 10^(exp+1) = d1.d2… × 10^exp. */
export interface DecimalDigits {
  readonly digits: string;
  readonly exp: number;
}

/** The shortest round-tripping digits of a positive finite number (JavaScript and Python agree). */
export function shortestDigits(x: number): DecimalDigits {
  const s = x.toExponential();
  const e = s.indexOf('e');
  const mantissa = s.slice(0, e).replace('.', '');
  return { digits: mantissa, exp: Number(s.slice(e + 1)) };
}

/** Python exponent suffix: `e+05`, `e-07`, `e+123`. */
export function exponentSuffix(exp: number, upper = false): string {
  const sign = exp < 0 ? '-' : '+';
  const abs = Math.abs(exp);
  return `${upper ? 'E' : 'e'}${sign}${abs < 10 ? '0' : ''}${abs}`;
}

/** An integer-valued number as Python prints an int (exact digits, no exponent). */
export function intText(x: number): string {
  if (Number.isSafeInteger(x)) return x === 0 ? '0' : String(x);
  return BigInt(x).toString();
}

/** `repr(float)` for any number treated as a float. */
export function floatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  const neg = x < 0 || Object.is(x, -0);
  if (x === 0) return neg ? '-0.0' : '0.0';
  const { digits, exp } = shortestDigits(Math.abs(x));
  let body: string;
  if (exp < -4 || exp >= 16) {
    body =
      digits.length === 1
        ? `${digits}${exponentSuffix(exp)}`
        : `${digits[0]}.${digits.slice(1)}${exponentSuffix(exp)}`;
  } else if (exp < 0) {
    body = `0.${'0'.repeat(-exp - 1)}${digits}`;
  } else {
    const intPart =
      digits.length > exp + 1 ? digits.slice(0, exp + 1) : digits.padEnd(exp + 1, '0');
    const frac = digits.length > exp + 1 ? digits.slice(exp + 1) : '0';
    body = `${intPart}.${frac}`;
  }
  return neg ? `-${body}` : body;
}

/** Python `str()` of a number under the int/float rule above. */
export function numberText(x: number): string {
  return Number.isInteger(x) ? intText(x) : floatRepr(x);
}

/** Python `str()` of a JSON value (arrays and objects as compact JSON). */
export function pyStr(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
      return numberText(value);
    case 'boolean':
      return value ? 'True' : 'False';
    default:
      if (value === null) return 'None';
      return compactJson(value);
  }
}

/** Python `repr()` of a JSON value (strings quoted the Python way; containers as compact JSON). */
export function pyRepr(value: unknown): string {
  return typeof value === 'string' ? stringRepr(value) : pyStr(value);
}

/** Compact JSON of data; values JSON cannot represent print as `None`. */
export function compactJson(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? 'None' : text;
}

const NON_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

/** Python `repr(str)`: single quotes unless the text has `'` and no `"`; escapes as CPython. */
export function stringRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number;
    if (ch === quote || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${cp.toString(16).padStart(2, '0')}`;
    else if (cp < 0x7f) out += ch;
    else if (ch !== ' ' && NON_PRINTABLE.test(ch)) {
      if (cp <= 0xff) out += `\\x${cp.toString(16).padStart(2, '0')}`;
      else if (cp <= 0xffff) out += `\\u${cp.toString(16).padStart(4, '0')}`;
      else out += `\\U${cp.toString(16).padStart(8, '0')}`;
    } else out += ch;
  }
  return out + quote;
}
