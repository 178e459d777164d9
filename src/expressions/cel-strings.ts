/**
 * The CEL strings extension (`@bufbuild/cel/ext`) under the evaluation budget: each function is
 * charged by the size of its input (and, for `replace` and `join`, of its output) before it runs,
 * the way `matches` and `x in list` are in `cel.ts`, so one call on a 256 KiB string cannot take
 * long inside a single step. `replace` is our own: the library's rebuilds the whole string at each
 * occurrence (quadratic). `format` is charged by the format string and a bound on the formatted
 * size of its arguments.
 */
import {
  celFunc,
  celMethod,
  CelScalar,
  isCelList,
  isCelMap,
  listType,
  type CelFunc,
  type CelList,
} from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';

/** Characters one step of a string function pays for (scan, copy or case-map). */
export const STRING_CHARS_PER_STEP = 32;

/** List items one step of `join` pays for, before the characters. */
const JOIN_ITEMS_PER_STEP = 32;

const { STRING, INT } = CelScalar;
const LIST = listType(CelScalar.DYN);

type Charge = (steps: number) => void;

const byChars = (chars: number): number => Math.ceil(chars / STRING_CHARS_PER_STEP);

/** The library's implementation of `name` with `arity` arguments after the target. */
function library(name: string, arity: number): CelFunc {
  const found = strings.find((f) => f.name === name && f.arguments.length === arity);
  if (found === undefined) throw new Error(`@bufbuild/cel/ext has no ${name}/${arity}`);
  return found;
}

/** Calls the library's function, unwrapping its result (an error value stays an error value). */
function delegate(f: CelFunc, target: unknown, args: unknown[]): never {
  return f.call(0, target as never, args as never) as never;
}

/**
 * `this.replace(from, to, limit)`, linear in input plus output. Occurrences are found left to
 * right without overlap; an empty `from` matches before each character and at the end (as
 * cel-go's); a negative limit means all.
 */
function replaceAll(s: string, from: string, to: string, limit: number, charge: Charge): string {
  const max = limit < 0 ? Infinity : limit;
  const positions: number[] = [];
  if (from === '') {
    for (let i = 0; i <= s.length && positions.length < max;) {
      positions.push(i);
      const code = s.charCodeAt(i);
      i += code >= 0xd800 && code <= 0xdbff && i + 1 < s.length ? 2 : 1;
    }
  } else {
    for (let i = s.indexOf(from); i !== -1 && positions.length < max;) {
      positions.push(i);
      i = s.indexOf(from, i + from.length);
    }
  }
  // Charged before the output exists: a huge expansion ends as a budget error, never a build.
  charge(byChars(s.length + positions.length * to.length));
  const parts: string[] = [];
  let last = 0;
  for (const p of positions) {
    parts.push(s.slice(last, p), to);
    last = p + from.length;
  }
  parts.push(s.slice(last));
  return parts.join('');
}

/** The strings extension's functions, each charging `charge` before it runs. */
export function stringFunctions(charge: Charge): CelFunc[] {
  const indexOf1 = library('indexOf', 1);
  const indexOf2 = library('indexOf', 2);
  const lastIndexOf1 = library('lastIndexOf', 1);
  const lastIndexOf2 = library('lastIndexOf', 2);
  const split1 = library('split', 1);
  const split2 = library('split', 2);
  const substring1 = library('substring', 1);
  const substring2 = library('substring', 2);
  const trim = library('trim', 0);
  const charAt = library('charAt', 1);
  const quote = library('strings.quote', 1);
  const format = library('format', 1);
  return [
    celMethod('format', STRING, [LIST], STRING, function (this: string, args: CelList) {
      charge(byChars(this.length + FORMAT_FACTOR * formattedBound(args)));
      return delegate(format, this, [args]);
    }),
    // O(1) in V8 (a sliced string or one character): no charge beyond the reads.
    celMethod('charAt', STRING, [INT], STRING, function (this: string, i: bigint) {
      return delegate(charAt, this, [i]);
    }),
    celMethod('substring', STRING, [INT], STRING, function (this: string, i: bigint) {
      return delegate(substring1, this, [i]);
    }),
    celMethod(
      'substring',
      STRING,
      [INT, INT],
      STRING,
      function (this: string, i: bigint, j: bigint) {
        return delegate(substring2, this, [i, j]);
      },
    ),
    celMethod('indexOf', STRING, [STRING], INT, function (this: string, sub: string) {
      charge(byChars(this.length + sub.length));
      return delegate(indexOf1, this, [sub]);
    }),
    celMethod(
      'indexOf',
      STRING,
      [STRING, INT],
      INT,
      function (this: string, sub: string, n: bigint) {
        charge(byChars(this.length + sub.length));
        return delegate(indexOf2, this, [sub, n]);
      },
    ),
    celMethod('lastIndexOf', STRING, [STRING], INT, function (this: string, sub: string) {
      charge(byChars(this.length + sub.length));
      return delegate(lastIndexOf1, this, [sub]);
    }),
    celMethod(
      'lastIndexOf',
      STRING,
      [STRING, INT],
      INT,
      function (this: string, sub: string, n: bigint) {
        charge(byChars(this.length + sub.length));
        return delegate(lastIndexOf2, this, [sub, n]);
      },
    ),
    celMethod('lowerAscii', STRING, [], STRING, function (this: string) {
      charge(byChars(this.length));
      // ASCII letters only, as the library's; a regex runs natively (its loop concatenates).
      return this.replace(/[A-Z]+/g, (run) => run.toLowerCase());
    }),
    celMethod('upperAscii', STRING, [], STRING, function (this: string) {
      charge(byChars(this.length));
      return this.replace(/[a-z]+/g, (run) => run.toUpperCase());
    }),
    celMethod('trim', STRING, [], STRING, function (this: string) {
      charge(byChars(this.length));
      return delegate(trim, this, []);
    }),
    celMethod(
      'replace',
      STRING,
      [STRING, STRING],
      STRING,
      function (this: string, a: string, b: string) {
        charge(byChars(this.length + a.length));
        return replaceAll(this, a, b, -1, charge);
      },
    ),
    celMethod(
      'replace',
      STRING,
      [STRING, STRING, INT],
      STRING,
      function (this: string, a: string, b: string, n: bigint) {
        charge(byChars(this.length + a.length));
        return replaceAll(this, a, b, Number(n), charge);
      },
    ),
    celMethod('split', STRING, [STRING], LIST, function (this: string, sep: string) {
      charge(byChars(this.length + sep.length));
      return delegate(split1, this, [sep]);
    }),
    celMethod(
      'split',
      STRING,
      [STRING, INT],
      LIST,
      function (this: string, sep: string, n: bigint) {
        charge(byChars(this.length + sep.length));
        return delegate(split2, this, [sep, n]);
      },
    ),
    celMethod('join', LIST, [], STRING, function (this: CelList) {
      return join(this, '', charge);
    }),
    celMethod('join', LIST, [STRING], STRING, function (this: CelList, sep: string) {
      return join(this, sep, charge);
    }),
    celFunc('strings.quote', [STRING], STRING, (s: string) => {
      // Escapes at most quadruple a character (`\x7f`-style); charged for that output.
      charge(byChars(4 * s.length + 2));
      return delegate(quote, undefined, [s]);
    }),
  ];
}

/**
 * Output characters one character of data may become in `format`: `%x` of a string writes two hex
 * digits per UTF-8 byte (up to 6 per UTF-16 unit); numbers are bounded by {@link SCALAR_CHARS}.
 */
const FORMAT_FACTOR = 6;
/** A bound on a scalar's formatted length (`%b` of a 64-bit int, `%e`/`%f` of a double). */
const SCALAR_CHARS = 128;

/** A bound on the characters `value` formats to (before {@link FORMAT_FACTOR}); linear in it. */
function formattedBound(value: unknown): number {
  if (typeof value === 'string') return value.length + 2;
  if (value instanceof Uint8Array) return value.length + 2;
  if (isCelList(value)) {
    let n = 2;
    for (const item of value) n += formattedBound(item) + 2;
    return n;
  }
  if (isCelMap(value)) {
    let n = 2;
    for (const [k, item] of value) n += formattedBound(k) + formattedBound(item) + 4;
    return n;
  }
  return SCALAR_CHARS;
}

/** `list.join(sep)`: charged by the item count, then by the output length, before building it. */
function join(list: CelList, sep: string, charge: Charge): string {
  charge(Math.ceil(list.size / JOIN_ITEMS_PER_STEP));
  const parts: string[] = [];
  let chars = 0;
  for (const item of list) {
    if (typeof item !== 'string') throw new Error('join: list contains a non-string value');
    parts.push(item);
    chars += item.length + sep.length;
  }
  charge(byChars(chars));
  return parts.join(sep);
}
