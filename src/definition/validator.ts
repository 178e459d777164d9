/**
 * Ajv behind the one-method {@link ArgumentValidator} interface. Schemas compile once, at load:
 * strict mode (a typo'd keyword fails loading), `$data` refused, `allErrors` on, no type
 * coercion, own properties only. A property's `default` fills it in when the model leaves it out
 * (Ajv's `useDefaults`, before `required` is checked), on a copy of the arguments; defaults where
 * Ajv cannot apply them (under `anyOf`/`oneOf`/`not`/`if`, the schema root) are ignored, not
 * refused. `pattern`
 * and `patternProperties` run on a linear-time engine (`linear-regexp.ts`), never V8's
 * backtracking one.
 */
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { ajv } from '../lazy-deps.js';
import { linearRegExp, MAX_PATTERN_INPUT_LENGTH } from './linear-regexp.js';
import { pointerPath, schemaProblems, type SchemaProblem } from './schema-problems.js';
import type { ArgumentValidator, ValidationFailure } from './validator-types.js';

/** Compiles JSON Schemas into validators; one per load, with a cache by schema text. */
export class ValidatorFactory {
  readonly #ajv: Ajv = new (ajv().Ajv)({
    strict: true,
    strictTypes: false,
    strictTuples: false,
    strictRequired: false,
    allErrors: true,
    coerceTypes: false,
    // Ajv writes each default as a fresh literal per call, so no object is shared between calls.
    useDefaults: true,
    removeAdditional: false,
    $data: false,
    validateFormats: false,
    // Without it, `properties`/`required` read inherited members: a parameter named `toString`
    // would fail ("must be string") whenever the model left it out, and `required` would pass.
    ownProperties: true,
    // 'log' only so the "default is ignored" notices (defaults under anyOf/oneOf/not/if, or at
    // the root) do not refuse a schema that loaded before defaults were applied; every other
    // strict-mode complaint still throws, from the logger.
    strictSchema: 'log',
    logger: { log: () => undefined, warn: strictWarning, error: () => undefined },
    // A pattern on V8's engine can backtrack for seconds on 30 characters of model input.
    code: { regExp: linearRegExp },
    // Errors carry the failing value, so a string too long for a pattern can be told apart.
    verbose: true,
  });
  readonly #cache = new Map<string, ArgumentValidator>();
  #keywords: ReadonlySet<string> | undefined;

  /**
   * Every problem of `schema` as written, each with its path and one readable message, in
   * document order: keywords JSON Schema does not have and values its meta-schema refuses.
   * Empty means {@link compile} can be tried (it may still refuse what only compiling finds).
   */
  problems(schema: unknown): SchemaProblem[] {
    let metaErrors: readonly ErrorObject[] = [];
    try {
      if (this.#ajv.validateSchema(schema as Record<string, unknown>) !== true)
        metaErrors = this.#ajv.errors ?? [];
    } catch {
      // An unknown `$schema` meta-schema: compiling reports it.
    }
    const problems = schemaProblems({
      schema,
      keywords: (this.#keywords ??= new Set(Object.keys(this.#ajv.RULES.keywords))),
      metaErrors,
    });
    const dataRef = findDataReference(schema, '');
    if (dataRef === undefined) return problems;
    // The meta-schema's complaint about the keyword holding it ("expected a number, got an
    // object") is this one.
    const at = pointerPath(dataRef, schema);
    const holder = at.slice(0, -1);
    return [
      { path: at, message: '$data references are not allowed' },
      ...problems.filter((p) => !holder.every((segment, i) => p.path[i] === segment)),
    ];
  }

  /**
   * Compiles `schema`. Throws an `Error` whose message says what is wrong with the schema (the
   * loader turns it into a load error with the JSON path).
   */
  compile(schema: Readonly<Record<string, unknown>>): ArgumentValidator {
    const key = JSON.stringify(schema);
    const cached = this.#cache.get(key);
    if (cached) return cached;
    const dataRef = findDataReference(schema, '');
    if (dataRef !== undefined)
      throw new Error(`$data references are not allowed (at ${dataRef || '/'})`);
    const fn = this.#ajv.compile(schema);
    const validator = new AjvArgumentValidator(fn, hasDefaultKey(schema));
    this.#cache.set(key, validator);
    return validator;
  }
}

/** Throws Ajv's strict-mode complaints except the notice that a `default` cannot be applied. */
function strictWarning(...args: unknown[]): void {
  const message = args.map(String).join(' ');
  if (!message.startsWith('strict mode:')) return;
  if (message.startsWith('strict mode: default is ignored')) return;
  throw new Error(message);
}

class AjvArgumentValidator implements ArgumentValidator {
  readonly #fn: ValidateFunction;
  /** Whether the schema has a `default` anywhere (then Ajv may write: validate a copy). */
  readonly #copies: boolean;
  constructor(fn: ValidateFunction, copies: boolean) {
    this.#fn = fn;
    this.#copies = copies;
  }
  validate(
    value: unknown,
  ): { ok: true; value: unknown } | { ok: false; failures: readonly ValidationFailure[] } {
    if (!this.#copies) {
      if (this.#fn(value)) return { ok: true, value };
      return { ok: false, failures: (this.#fn.errors ?? []).map(describeError) };
    }
    // Ajv fills defaults on a copy, never the caller's objects. The copy's objects have no
    // prototype: Ajv tests `data.toString === undefined`, which an inherited member would fail
    // (no default), and assigns `data["__proto__"] = …`, which would set the prototype.
    const data = bareCopy(value);
    if (this.#fn(data)) return { ok: true, value: plainCopy(data) };
    return { ok: false, failures: (this.#fn.errors ?? []).map(describeError) };
  }
}

/** A deep copy of JSON data whose objects have a null prototype. */
function bareCopy(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(bareCopy);
  const out = Object.create(null) as Record<string, unknown>;
  for (const [key, child] of Object.entries(value)) out[key] = bareCopy(child);
  return out;
}

/** A deep copy of JSON data into ordinary objects (own `__proto__` keys stay own keys). */
function plainCopy(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(plainCopy);
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    Object.defineProperty(out, key, {
      value: plainCopy(child),
      writable: true,
      enumerable: true,
      configurable: true,
    });
  }
  return out;
}

/** Whether `default` is a key anywhere in `schema` (a property named "default" counts too). */
function hasDefaultKey(node: unknown): boolean {
  const stack: unknown[] = [node];
  while (stack.length > 0) {
    const item = stack.pop();
    if (item === null || typeof item !== 'object') continue;
    if (Array.isArray(item)) {
      stack.push(...(item as unknown[]));
      continue;
    }
    if (Object.hasOwn(item, 'default')) return true;
    stack.push(...Object.values(item));
  }
  return false;
}

/** Turns an ajv error into a path and a message a model can act on. */
function describeError(error: ErrorObject): ValidationFailure {
  const base = error.instancePath === '' ? '' : error.instancePath;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return { path: `${base}/${String(params['missingProperty'])}`, message: 'is required' };
    case 'additionalProperties':
      return {
        path: `${base}/${String(params['additionalProperty'])}`,
        message: 'is not an allowed property',
      };
    case 'enum': {
      const allowed = Array.isArray(params['allowedValues']) ? params['allowedValues'] : [];
      return {
        path: base || '/',
        message: `must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}`,
      };
    }
    case 'pattern':
      if (typeof error.data === 'string' && error.data.length > MAX_PATTERN_INPUT_LENGTH) {
        return {
          path: base || '/',
          message: `is longer than ${MAX_PATTERN_INPUT_LENGTH} characters, the most a pattern is checked on`,
        };
      }
      return { path: base || '/', message: error.message ?? 'fails pattern' };
    case 'const':
      return { path: base || '/', message: `must be ${JSON.stringify(params['allowedValue'])}` };
    default:
      return { path: base || '/', message: error.message ?? `fails ${error.keyword}` };
  }
}

/** Returns the JSON pointer of the first `$data` key in a schema, if any. */
function findDataReference(node: unknown, pointer: string): string | undefined {
  const stack: { node: unknown; pointer: string }[] = [{ node, pointer }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (item.node === null || typeof item.node !== 'object') continue;
    if (Array.isArray(item.node)) {
      item.node.forEach((child, i) => stack.push({ node: child, pointer: `${item.pointer}/${i}` }));
      continue;
    }
    for (const [key, child] of Object.entries(item.node)) {
      if (key === '$data') return `${item.pointer}/$data`;
      stack.push({ node: child, pointer: `${item.pointer}/${key}` });
    }
  }
  return undefined;
}
