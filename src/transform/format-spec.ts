/**
 * The Python format-spec mini-language (`[[fill]align][sign][#][0][width][,|_][.precision][type]`),
 * parsed once at load. Widths and precisions are capped so a template can never render a huge
 * string (`{x:>1000000000}` is refused at load).
 */

/** Largest width or precision a template may ask for. */
export const MAX_SPEC_NUMBER = 10_000;

/** Presentation types supported (docs/transform.md plus their upper-case and `g` siblings). */
export type SpecType =
  's' | 'd' | 'f' | 'F' | 'e' | 'E' | 'g' | 'G' | '%' | 'x' | 'X' | 'o' | 'b' | '';

export type Align = '<' | '>' | '^' | '=';

/** A parsed format spec. `fill`/`align` are as written; defaults depend on the value's type. */
export interface FormatSpec {
  readonly fill: string | undefined;
  readonly align: Align | undefined;
  readonly sign: '+' | '-' | ' ' | undefined;
  readonly alternate: boolean;
  /** The `0` flag (only when no fill was written, as in CPython). */
  readonly zero: boolean;
  readonly width: number;
  readonly grouping: ',' | '_' | undefined;
  /** -1 when absent. */
  readonly precision: number;
  readonly type: SpecType;
}

export type ParsedSpec =
  | { readonly ok: true; readonly spec: FormatSpec }
  | {
      readonly ok: false;
      readonly message: string;
      readonly code: 'template_syntax' | 'template_limit';
    };

const ALIGNS = new Set(['<', '>', '^', '=']);
const TYPES = new Set(['s', 'd', 'f', 'F', 'e', 'E', 'g', 'G', '%', 'x', 'X', 'o', 'b']);

/** Parses a format spec (the text after `:`), refusing what this subset does not support. */
export function parseFormatSpec(text: string): ParsedSpec {
  const cps = Array.from(text);
  let i = 0;
  let fill: string | undefined;
  let align: Align | undefined;
  if (cps.length >= 2 && ALIGNS.has(cps[1] as string)) {
    fill = cps[0];
    align = cps[1] as Align;
    i = 2;
  } else if (cps.length >= 1 && ALIGNS.has(cps[0] as string)) {
    align = cps[0] as Align;
    i = 1;
  }
  let sign: FormatSpec['sign'];
  if (cps[i] === '+' || cps[i] === '-' || cps[i] === ' ') sign = cps[i++] as FormatSpec['sign'];
  if (cps[i] === 'z')
    return { ok: false, code: 'template_syntax', message: "the 'z' option is not supported" };
  let alternate = false;
  if (cps[i] === '#') {
    alternate = true;
    i++;
  }
  let zero = false;
  if (fill === undefined && cps[i] === '0') {
    zero = true;
    i++;
  }
  const readInt = (): number | undefined => {
    const start = i;
    while (i < cps.length && (cps[i] as string) >= '0' && (cps[i] as string) <= '9') i++;
    if (i === start) return undefined;
    const digits = cps.slice(start, i).join('');
    return digits.length > 6 ? Number.MAX_SAFE_INTEGER : Number(digits);
  };
  const width = readInt() ?? -1;
  let grouping: FormatSpec['grouping'];
  if (cps[i] === ',' || cps[i] === '_') {
    grouping = cps[i++] as ',' | '_';
    if (cps[i] === ',' || cps[i] === '_')
      return { ok: false, code: 'template_syntax', message: "cannot specify both ',' and '_'" };
  }
  let precision = -1;
  if (cps[i] === '.') {
    i++;
    const p = readInt();
    if (p === undefined)
      return { ok: false, code: 'template_syntax', message: 'format specifier missing precision' };
    precision = p;
  }
  if (cps.length - i > 1)
    return {
      ok: false,
      code: 'template_syntax',
      message: `invalid format specifier ${JSON.stringify(text)}`,
    };
  let type: SpecType = '';
  if (i < cps.length) {
    const t = cps[i] as string;
    if (!TYPES.has(t))
      return {
        ok: false,
        code: 'template_syntax',
        message: `unsupported format type ${JSON.stringify(t)} (supported: s d f F e E g G % x X o b)`,
      };
    type = t as SpecType;
  }
  if (width > MAX_SPEC_NUMBER || precision > MAX_SPEC_NUMBER) {
    return {
      ok: false,
      code: 'template_limit',
      message: `width and precision are capped at ${MAX_SPEC_NUMBER}`,
    };
  }
  return {
    ok: true,
    spec: { fill, align, sign, alternate, zero, width, grouping, precision, type },
  };
}
