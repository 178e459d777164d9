/**
 * What every exporter needs to know about one loaded definition: its kind on a voice platform
 * (an HTTP tool, the end-call and transfer built-ins, or a host-implemented action), the model's
 * parameters, the hidden values (static parameters) and the `defaults` rules as written, so each
 * exporter maps what its platform can express and warns about the rest by name.
 */
import type { ToolDefinition } from '../definition/types.js';
import { isPlainObject } from '../own-data.js';
import { ToolWarnings } from './conversion-context.js';
import { objectParts } from './json-schema.js';
import type { ConversionWarning, ExportResult, JsonSchemaJson } from './types.js';
import { mustacheText } from './variables.js';

/** A `defaults` rule in its long form. */
export interface RuleView {
  readonly key: string;
  readonly action: 'default' | 'override' | 'remove';
  readonly value?: unknown;
  readonly format?: string;
  readonly conditional: boolean;
}

/** How a platform would see the tool. */
export type ToolKind = 'http' | 'end_call' | 'transfer' | 'action';

/** One definition, ready to export. */
export interface ExportView {
  readonly def: ToolDefinition;
  readonly w: ToolWarnings;
  readonly kind: ToolKind;
  readonly properties: Record<string, JsonSchemaJson>;
  readonly required: string[];
  /** Root keywords of the argument schema besides its properties (`additionalProperties`). */
  readonly extras: JsonSchemaJson;
  readonly rules: RuleView[];
}

// Names the platforms give their end-call tool (Ultravox docs rename hangUp to endConversation).
const END_CALL = /^(end_?(call|conversation)|hang_?up)$/i;

/** Where the definition is in its tools file, so export warnings point into the file. */
export function sourcePath(def: ToolDefinition): string {
  return def.source.path ?? `tools[${def.source.index}]`;
}

/** Names a definition's kind; `context` and `log` tools have none (undefined, with a warning). */
export function viewOf(def: ToolDefinition, warnings: ConversionWarning[]): ExportView | undefined {
  const w = new ToolWarnings(warnings, sourcePath(def), def.name);
  if (def.type === 'context' || def.type === 'log') {
    w.warn(
      ['type'],
      `a ${def.type} tool runs inside switchboard; voice platforms have no equivalent; not exported`,
    );
    return undefined;
  }
  if (def.tasks.length > 0)
    w.warn(['context', 'task'], 'workflow tasks have no platform equivalent; not exported');
  if (def.type === 'command')
    w.warn(
      ['command'],
      'a command tool runs a local program, which no platform can; exported as a client tool your host answers',
    );
  const params = def.tool.function.parameters;
  const properties = (
    isPlainObject(params['properties']) ? structuredClone(params['properties']) : {}
  ) as Record<string, JsonSchemaJson>;
  const required = Array.isArray(params['required']) ? params['required'].map(String) : [];
  const { extras } = objectParts(params);
  const hasDestination =
    def.staticParameters.some((s) => s.name === 'destination') ||
    Array.isArray(properties['destination']?.['enum']);
  const kind: ToolKind =
    def.type === 'endpoint'
      ? 'http'
      : END_CALL.test(def.name)
        ? 'end_call'
        : hasDestination
          ? 'transfer'
          : 'action';
  const rules = Object.entries(def.rawDefaults).flatMap(([key, raw]) => {
    const rule = ruleOf(key, raw);
    if (rule === undefined)
      w.warn(
        ['defaults', key],
        'a rule switchboard skips (neither value nor format); not exported',
      );
    return rule === undefined ? [] : [rule];
  });
  if (def.callPolicy !== undefined)
    w.warn(['timeout'], "per-attempt timeout and retry count are switchboard's; not exported");
  if (def.options.handoff !== undefined)
    w.warn(['options', 'handoff'], "agent handoff is switchboard's; not exported");
  if (def.options.propagateToolResult)
    w.warn(['options', 'propagate_tool_result'], 'no platform equivalent; not exported');
  if (def.hasResult && kind === 'http')
    w.warn(['result'], "an endpoint's result is its response; not exported");
  // Platforms show a description as written; one rendering session variables here would reach
  // their model with the `{{vars.…}}` tags in it.
  const description = def.tool.function.description;
  if (description !== undefined && mustacheText(description) === undefined)
    w.warn(
      ['tool', 'function', 'description'],
      'renders session variables here, but platforms show a description as written; exported with its {{…}} tags',
    );
  return { def, w, kind, properties, required, extras, rules };
}

/**
 * Exports each definition a platform can see (see {@link viewOf}), in order: `exportOne` returns
 * the platform's tool, or undefined for one it does not export (having said why in a warning).
 */
export function exportViews(
  defs: readonly ToolDefinition[],
  exportOne: (v: ExportView) => Record<string, unknown> | undefined,
): ExportResult {
  const warnings: ConversionWarning[] = [];
  const tools: Record<string, unknown>[] = [];
  for (const def of defs) {
    const v = viewOf(def, warnings);
    const tool = v === undefined ? undefined : exportOne(v);
    if (tool !== undefined) tools.push(tool);
  }
  return { tools, warnings };
}

/** The long form of a rule as written (docs/transform.md), or undefined for one that sets nothing. */
export function ruleOf(key: string, raw: unknown): RuleView | undefined {
  if (typeof raw === 'string') {
    if (raw === '@remove') return { key, action: 'remove', conditional: false };
    const m = /^@(override|default) (.*)$/s.exec(raw);
    if (m)
      return { key, action: m[1] as 'override' | 'default', format: m[2]!, conditional: false };
    return { key, action: 'default', format: raw, conditional: false };
  }
  if (isPlainObject(raw) && Object.keys(raw).length === 1 && isPlainObject(raw['transform'])) {
    const t = raw['transform'];
    const action = (
      typeof t['action'] === 'string' ? t['action'] : 'default'
    ) as RuleView['action'];
    const conditional = t['when'] !== undefined && t['when'] !== null;
    if (action === 'remove') return { key, action, conditional };
    if (typeof t['format'] === 'string') return { key, action, format: t['format'], conditional };
    if (t['value'] !== undefined) return { key, action, value: t['value'], conditional };
    return undefined;
  }
  return { key, action: 'default', value: raw, conditional: false };
}

/** The warning for a rule the platform cannot express. */
export function unexpressedRule(
  v: ExportView,
  rule: RuleView,
  platform: string,
  why?: string,
): void {
  const what = rule.conditional
    ? 'a conditional rule'
    : rule.action === 'remove'
      ? 'a remove rule'
      : `a ${rule.action} rule`;
  v.w.warn(
    ['defaults', rule.key],
    `${what} on "${rule.key}" cannot be expressed in ${platform}${why !== undefined ? ` (${why})` : ''}; not exported`,
  );
}

/**
 * What a mustache text (a description, a fixed destination) says as written: escapes undone, so
 * a literal imported from a platform goes back the same. One that renders variables is returned
 * as written.
 */
/**
 * What a transfer action's destination value names: a SIP URI, a phone number (or a platform
 * variable holding one), else another agent or assistant (what a Vapi handoff or an ElevenLabs
 * `transfer_to_agent` imports as), so an export does not dial an agent's name.
 */
export function destinationKind(value: string): 'sip' | 'number' | 'agent' {
  if (/^sips?:/i.test(value)) return 'sip';
  if (/^\+?[\d\s().-]+$/.test(value) || value.includes('{{')) return 'number';
  return 'agent';
}

export function writtenText(template: string): string {
  return mustacheText(template) ?? template;
}

/** The tool's description as the platform shows it ({@link writtenText}). */
export function descriptionOf(def: ToolDefinition): string | undefined {
  const text = def.tool.function.description;
  return text === undefined ? undefined : writtenText(text);
}

/** The first phrase of each language of `options.speech.before`. */
export function beforePhrases(def: ToolDefinition): Map<string, string> {
  const out = new Map<string, string>();
  const before = def.options.speech.before;
  if (before === undefined || before.mode === 'never') return out;
  for (const [language, list] of before.phrases)
    if (list[0] !== undefined) out.set(language, list[0]);
  return out;
}

/** The placeholders of the endpoint URL. */
export function pathParams(def: ToolDefinition): readonly string[] {
  return def.endpoint?.pathParams ?? [];
}

/** A warning for each root keyword of the argument schema a platform's format cannot hold. */
export function unexpressedExtras(v: ExportView, platform: string): void {
  for (const key of Object.keys(v.extras))
    v.w.warn(
      ['tool', 'function', 'parameters', key],
      `${platform} tool parameters have no place for "${key}" (the constraint on the whole argument object); not exported`,
    );
}
