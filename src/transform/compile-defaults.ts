/**
 * `compileDefaults`: turns a definition's `defaults` object into a {@link CompiledDefaults} once,
 * collecting every authoring problem as an issue with its JSON path. Applying is in
 * `apply-rules.ts`.
 */
import type { DefinitionIssue } from '../errors.js';
import { compileCondition } from './condition.js';
import { FORBIDDEN_SEGMENTS, MAX_PATH_SEGMENTS } from './field-path.js';
import { deepCopy, isPlainObject } from '../own-data.js';
import { argumentError } from '../option-checks.js';
import { makeApply, type RuleProgram } from './apply-rules.js';
import { normaliseRule } from './rule-forms.js';
import { compileViewTemplate } from './template.js';
import type { CompileDefaultsResult, CompiledRule } from './types.js';

/** Options of {@link compileDefaults}. */
export interface CompileDefaultsOptions {
  /**
   * JSON path of the `defaults` object, prefixed to every issue path. Default `defaults`.
   * Issue paths are `<path>["<key>"]` followed by the place inside the rule, e.g.
   * `tools[2].defaults["tags.hospital"].transform.when.key`.
   */
  readonly path?: string;
}

/** Path of one rule: the base path, then the key as a JSON string in brackets. */
export function rulePath(base: string, key: string): string {
  return `${base}[${JSON.stringify(key)}]`;
}

/** Checks a rule key (`a`, `a.b.c`); returns the segments or a problem. */
export function parseRuleKey(
  key: string,
): { segments: string[] } | { code: 'invalid_key' | 'forbidden_segment'; message: string } {
  const segments = key.split('.');
  if (segments.some((s) => s === '')) {
    return {
      code: 'invalid_key',
      message: `key ${JSON.stringify(key)} has an empty segment (no "", ".a", "a." or "a..b")`,
    };
  }
  if (segments.length > MAX_PATH_SEGMENTS) {
    const shown = key.length > 60 ? `${key.slice(0, 60)}…` : key;
    return {
      code: 'invalid_key',
      message: `key ${JSON.stringify(shown)} has ${segments.length} segments; at most ${MAX_PATH_SEGMENTS} are allowed`,
    };
  }
  const bad = segments.find((s) => FORBIDDEN_SEGMENTS.has(s));
  if (bad !== undefined)
    return {
      code: 'forbidden_segment',
      message: `key ${JSON.stringify(key)} has the segment "${bad}", which is not allowed (prototype access)`,
    };
  return { segments };
}

/**
 * Compiles a `defaults` object (docs/transform.md). Never throws for bad input: problems are returned as
 * issues (`unknown_verb`, `value_and_format`, `invalid_key`, `forbidden_segment`,
 * `template_syntax`, `template_limit`, `invalid_when`, `invalid_action`, `invalid_rule` are
 * errors; `unknown_field`, `ignored_value`, `no_value` warnings). When any error is reported,
 * `compiled` applies only the rules that compiled and must not be used.
 */
export function compileDefaults(
  defaults: Readonly<Record<string, unknown>>,
  options: CompileDefaultsOptions = {},
): CompileDefaultsResult {
  if (!isPlainObject(defaults))
    throw argumentError('compileDefaults(defaults)', 'an object of rules by key', defaults);
  const base = options.path ?? 'defaults';
  const issues: DefinitionIssue[] = [];
  const rules: CompiledRule[] = [];
  const programs: RuleProgram[] = [];
  for (const key of Object.keys(defaults)) {
    const path = rulePath(base, key);
    const raw: unknown = Object.getOwnPropertyDescriptor(defaults, key)?.value;
    let ok = true;
    const error = (code: string, subPath: string, message: string): void => {
      ok = false;
      issues.push({ code, severity: 'error', path: path + subPath, message });
    };
    const parsedKey = parseRuleKey(key);
    if ('code' in parsedKey) error(parsedKey.code, '', parsedKey.message);
    const { form, problems } = normaliseRule(raw);
    for (const p of problems) {
      if (p.severity === 'error') ok = false;
      issues.push({
        code: p.code,
        severity: p.severity,
        path: path + p.subPath,
        message: p.message,
      });
    }
    if (form === undefined) continue;
    let whenKeys: readonly string[] = [];
    let predicate: RuleProgram['predicate'];
    let condition: CompiledRule['when'];
    if (form.when !== undefined) {
      const c = compileCondition(form.when);
      if ('code' in c) error(c.code, `${form.inner}.when${c.subPath}`, c.message);
      else {
        whenKeys = c.keys;
        predicate = c.predicate;
        condition = c.condition;
      }
    }
    let templateFields: readonly string[] = [];
    let render: RuleProgram['render'];
    if (form.format !== undefined) {
      const t = compileViewTemplate(form.format);
      if ('code' in t)
        error(
          t.code,
          form.inner === '' ? '' : `${form.inner}.format`,
          `template ${JSON.stringify(form.format)}: ${t.message}`,
        );
      else {
        templateFields = t.fields;
        render = t.renderView;
      }
    }
    rules.push({
      key,
      action: form.action,
      templateFields,
      whenKeys,
      hasValueAndFormat: form.hasValueAndFormat,
      ...(condition === undefined ? {} : { when: condition }),
      ...(form.format === undefined ? {} : { format: form.format }),
      ...(form.value === undefined ? {} : { value: deepCopy(form.value.literal) }),
    });
    if (!ok || 'code' in parsedKey) continue;
    programs.push({
      key,
      action: form.action,
      segments: parsedKey.segments,
      predicate,
      render,
      ...(form.value === undefined ? {} : { value: deepCopy(form.value.literal) }),
    });
  }
  return { compiled: { rules, apply: makeApply(programs) }, issues };
}
