/**
 * Templates (`format` of a rule): Python `str.format` over the arguments and session variables,
 * parsed once at load into literal parts and compiled fields; rendering is a loop over closures.
 */
import { compileField, parseFieldName, type CompiledField } from './field-path.js';
import { parseFormatSpec, type FormatSpec } from './format-spec.js';
import { formatValue, TemplateValueError } from './format-value.js';
import { viewOf, type ArgsView } from './args-view.js';
import { argumentError } from '../option-checks.js';
import type { TransformContext } from './types.js';

/** Longest string a template may render (characters); longer is a template value error. */
export const MAX_RENDERED_LENGTH = 1_000_000;

/** A problem in a template, with the 0-based character position in the template text. */
export interface TemplateProblem {
  readonly code: 'template_syntax' | 'template_limit' | 'forbidden_segment';
  readonly message: string;
  readonly position: number;
}

/** Why a render produced no string. */
export type RenderFailure =
  | { readonly kind: 'missing'; readonly field: string }
  | { readonly kind: 'invalid'; readonly field: string; readonly message: string };

/** A compiled template. `render` returns the string, or a failure object. */
export interface CompiledTemplate {
  readonly source: string;
  /** Lint names of the fields (`name`, `params.name`, `vars.x`), in order, without duplicates. */
  readonly fields: readonly string[];
  render(
    args: Record<string, unknown>,
    context: TransformContext | undefined,
  ): string | RenderFailure;
}

/**
 * The engine's own view of a compiled template (compileDefaults): it also renders over the
 * evolving arguments of an application, an internal structure a user never holds.
 */
export interface ViewTemplate extends CompiledTemplate {
  renderView(args: ArgsView, context: TransformContext | undefined): string | RenderFailure;
}

interface FieldPart {
  readonly text: string;
  readonly field: CompiledField;
  readonly conversion: 's' | 'r' | undefined;
  readonly spec: FormatSpec | undefined;
}

type Part = string | FieldPart;

/** Parses and compiles a template, or returns its first problem. */
export function compileTemplate(source: string): CompiledTemplate | TemplateProblem {
  if (typeof source !== 'string')
    throw argumentError('compileTemplate(source)', 'a string', source);
  return compileViewTemplate(source);
}

/** {@link compileTemplate} for the engine, with `renderView`. */
export function compileViewTemplate(source: string): ViewTemplate | TemplateProblem {
  const parts: Part[] = [];
  let literal = '';
  let i = 0;
  while (i < source.length) {
    const c = source[i];
    if (c === '}') {
      if (source[i + 1] === '}') {
        literal += '}';
        i += 2;
        continue;
      }
      return {
        code: 'template_syntax',
        message: `single '}' at position ${i} (write '}}' for a literal brace)`,
        position: i,
      };
    }
    if (c !== '{') {
      literal += c;
      i++;
      continue;
    }
    if (source[i + 1] === '{') {
      literal += '{';
      i += 2;
      continue;
    }
    const open = i;
    const parsed = parseField(source, open);
    if ('code' in parsed) return parsed;
    if (literal !== '') parts.push(literal);
    literal = '';
    parts.push(parsed.part);
    i = parsed.end;
  }
  if (literal !== '') parts.push(literal);
  const fields = [
    ...new Set(
      parts.filter((p): p is FieldPart => typeof p !== 'string').map((p) => p.field.lintName),
    ),
  ];
  const renderView = makeRenderer(parts);
  return {
    source,
    fields,
    renderView,
    render: (args, context) => renderView(viewOf(args), context),
  };
}

function parseField(
  source: string,
  open: number,
): { part: FieldPart; end: number } | TemplateProblem {
  let j = open + 1;
  while (j < source.length) {
    const ch = source[j];
    if (ch === '[') {
      const close = source.indexOf(']', j);
      if (close < 0) break;
      j = close + 1;
      continue;
    }
    if (ch === '}' || ch === ':' || ch === '!') break;
    if (ch === '{')
      return {
        code: 'template_syntax',
        message: `unexpected '{' in field name at position ${j}`,
        position: j,
      };
    j++;
  }
  if (j >= source.length) {
    return {
      code: 'template_syntax',
      message: `single '{' at position ${open} is never closed (write '{{' for a literal brace)`,
      position: open,
    };
  }
  const name = source.slice(open + 1, j);
  let conversion: 's' | 'r' | undefined;
  if (source[j] === '!') {
    const conv = source[j + 1];
    if (conv !== 's' && conv !== 'r') {
      return {
        code: 'template_syntax',
        message: `unsupported conversion at position ${j} (use !s or !r)`,
        position: j,
      };
    }
    conversion = conv;
    j += 2;
    if (source[j] !== ':' && source[j] !== '}') {
      return {
        code: 'template_syntax',
        message: `expected ':' or '}' after the conversion at position ${j}`,
        position: j,
      };
    }
  }
  let spec: FormatSpec | undefined;
  if (source[j] === ':') {
    const start = j + 1;
    const close = source.indexOf('}', start);
    const nested = source.indexOf('{', start);
    if (close < 0)
      return {
        code: 'template_syntax',
        message: `single '{' at position ${open} is never closed`,
        position: open,
      };
    if (nested >= 0 && nested < close) {
      return {
        code: 'template_syntax',
        message: `nested fields in a format spec are not supported (position ${nested})`,
        position: nested,
      };
    }
    const specText = source.slice(start, close);
    if (specText !== '') {
      const parsed = parseFormatSpec(specText);
      if (!parsed.ok)
        return {
          code: parsed.code,
          message: `${parsed.message} (position ${start})`,
          position: start,
        };
      spec = parsed.spec;
    }
    j = close;
  }
  const parsedName = parseFieldName(name);
  if (!parsedName.ok) {
    const forbidden = parsedName.message.includes('not allowed');
    return {
      code: forbidden ? 'forbidden_segment' : 'template_syntax',
      message: `${parsedName.message} in {${name}} at position ${open}`,
      position: open + 1 + parsedName.offset,
    };
  }
  const field = compileField(parsedName.segments);
  if ('error' in field)
    return {
      code: 'template_syntax',
      message: `${field.error} at position ${open}`,
      position: open,
    };
  return { part: { text: name, field, conversion, spec }, end: j + 1 };
}

function renderPart(
  part: FieldPart,
  args: ArgsView,
  context: TransformContext | undefined,
): string | RenderFailure {
  const value = part.field.resolve(args, context);
  if (value === undefined) return { kind: 'missing', field: part.text };
  if (part.spec === undefined && part.conversion === undefined && typeof value === 'string')
    return value;
  try {
    return formatValue(value, part.spec, part.conversion);
  } catch (error) {
    if (error instanceof TemplateValueError || error instanceof RangeError) {
      return { kind: 'invalid', field: part.text, message: error.message };
    }
    throw error;
  }
}

function tooLong(part: string): RenderFailure {
  return {
    kind: 'invalid',
    field: part,
    message: `rendered text exceeds ${MAX_RENDERED_LENGTH} characters`,
  };
}

function makeRenderer(parts: readonly Part[]): ViewTemplate['renderView'] {
  if (parts.length === 0) return () => '';
  const only = parts[0] as Part;
  if (parts.length === 1) {
    if (typeof only === 'string') return () => only;
    if (only.spec === undefined && only.conversion === undefined) {
      // `{vars.hospital}`: a string value is the answer as is.
      const resolve = only.field.resolve;
      return (args, context) => {
        const value = resolve(args, context);
        if (typeof value === 'string')
          return value.length > MAX_RENDERED_LENGTH ? tooLong(only.text) : value;
        const out = renderPart(only, args, context);
        return typeof out === 'string' && out.length > MAX_RENDERED_LENGTH
          ? tooLong(only.text)
          : out;
      };
    }
    return (args, context) => {
      const out = renderPart(only, args, context);
      return typeof out === 'string' && out.length > MAX_RENDERED_LENGTH ? tooLong(only.text) : out;
    };
  }
  return (args, context) => {
    let out = '';
    for (const part of parts) {
      if (typeof part === 'string') out += part;
      else {
        const text = renderPart(part, args, context);
        if (typeof text !== 'string') return text;
        out += text;
      }
      if (out.length > MAX_RENDERED_LENGTH)
        return tooLong(typeof part === 'string' ? '' : part.text);
    }
    return out;
  };
}
