/**
 * Checks of the host's session options, done once in `createSession`/`restoreSession`: the shape
 * of every option (check-option-shapes.ts), then what a type cannot express: the language against `languages` (canonical BCP-47 tags), and
 * `toolDefaults` (session-wide and per agent) against the tools' static parameters and types,
 * `services`/`actions` (check-services.ts) and `commands` (check-commands.ts). A mistake throws a {@link DefinitionError} naming
 * the option path; nothing is half-applied. Warnings go to `onWarning`.
 */
import { checkStaticValue } from '../definition/resolve.js';
import { DefinitionError, type DefinitionIssue } from '../errors.js';
import { checkMustache } from '../expressions/mustache.js';
import { canonicalLanguage } from '../handlers/context-handler.js';
import { warnOnce } from '../option-checks.js';
import { checkCommands } from './check-commands.js';
import { checkOptionShapes } from './check-option-shapes.js';
import { checkServicesAndActions } from './check-services.js';
import type { SessionOptions } from './types.js';

/** The languages after checking: the canonical initial tag and allow-list. */
export interface CheckedLanguages {
  readonly language: string;
  readonly languages?: readonly string[];
}

type ToolDefaults = NonNullable<SessionOptions['toolDefaults']>;

/** Checks the options; returns the canonical language settings. Throws on any problem. */
export function checkSessionOptions(options: SessionOptions): CheckedLanguages {
  const issues: DefinitionIssue[] = [];
  const problem = (path: string, message: string, code = 'session_options'): void => {
    issues.push({ code, severity: 'error', path, message });
  };
  const warnings: DefinitionIssue[] = [];
  // Read safely: options that are not an object are reported by the shape check below.
  const warn = (options as Partial<SessionOptions> | null | undefined)?.onWarning ?? warnOnce;
  // The shapes first: the checks below read the values as their types say.
  checkOptionShapes(options, {
    problem,
    unknownKey: (path, message) =>
      warnings.push({ code: 'unknown_option', severity: 'warning', path, message }),
  });
  if (issues.length > 0) throw new DefinitionError(issues, 'invalid session options');

  let languages: string[] | undefined;
  if (options.languages !== undefined) {
    languages = [];
    options.languages.forEach((tag, i) => {
      const canonical = canonicalLanguage(tag);
      if (canonical === undefined)
        problem(`languages[${i}]`, `"${tag}" is not a BCP-47 language tag`);
      else languages?.push(canonical);
    });
  }
  const requested = options.language ?? languages?.[0] ?? 'en-US';
  let language = canonicalLanguage(requested);
  if (language === undefined) {
    problem('language', `"${requested}" is not a BCP-47 language tag`);
    language = requested;
  } else if (languages !== undefined && languages.length > 0 && !languages.includes(language)) {
    problem(
      'language',
      `"${language}" is not one of the session's languages: ${languages.join(', ')}`,
    );
  }

  checkServicesAndActions(options, problem, (w) => warnings.push(w));
  checkCommands(options, problem);
  checkToolDefaults(options, options.toolDefaults, 'toolDefaults', problem);
  checkPrompt(options.prompt, 'prompt', problem);
  for (const [name, agent] of Object.entries(options.agents ?? {})) {
    checkToolDefaults(options, agent.toolDefaults, `agents.${name}.toolDefaults`, problem);
    checkPrompt(agent.prompt, `agents.${name}.prompt`, problem);
  }
  if (issues.length > 0) throw new DefinitionError(issues, 'invalid session options');
  for (const w of warnings) warn(w);
  return { language, ...(languages !== undefined ? { languages } : {}) };
}

export { warnOnce };

function checkToolDefaults(
  options: SessionOptions,
  toolDefaults: ToolDefaults | undefined,
  base: string,
  problem: (path: string, message: string) => void,
): void {
  if (toolDefaults === undefined) return;
  for (const [toolName, values] of Object.entries(toolDefaults)) {
    const tool = options.tools.tools.get(toolName);
    if (tool === undefined) {
      problem(
        `${base}.${toolName}`,
        `names no tool; tools: ${[...options.tools.tools.keys()].join(', ')}`,
      );
      continue;
    }
    for (const [param, value] of Object.entries(values)) {
      const declared = tool.staticParameters.find((p) => p.name === param);
      if (declared === undefined) {
        const names = tool.staticParameters.map((p) => p.name);
        problem(
          `${base}.${toolName}.${param}`,
          `is not a static parameter of ${toolName}${names.length > 0 ? ` (static parameters: ${names.join(', ')})` : ' (it has none)'}`,
        );
        continue;
      }
      const typeProblem = value === undefined ? undefined : checkStaticValue(declared.type, value);
      if (typeProblem !== undefined) problem(`${base}.${toolName}.${param}`, typeProblem);
    }
  }
}

/**
 * The static-parameter overrides in force for the active agent: the session's `toolDefaults`,
 * with the agent's own `toolDefaults` winning per parameter.
 */
export function effectiveToolDefaults(
  options: SessionOptions,
  agent: string | undefined,
): ToolDefaults | undefined {
  const agentDefaults =
    agent !== undefined && options.agents !== undefined && Object.hasOwn(options.agents, agent)
      ? options.agents[agent]?.toolDefaults
      : undefined;
  if (agentDefaults === undefined) return options.toolDefaults;
  const merged = new Map<string, Record<string, unknown>>();
  for (const [tool, values] of Object.entries(options.toolDefaults ?? {}))
    merged.set(tool, { ...values });
  for (const [tool, values] of Object.entries(agentDefaults))
    merged.set(tool, { ...merged.get(tool), ...values });
  return Object.fromEntries(merged);
}

/** A prompt template that would fail to render at the first send (mustache syntax). */
function checkPrompt(
  prompt: string | undefined,
  path: string,
  problem: (path: string, message: string) => void,
): void {
  // Only a template can be broken; most prompts have no tag and cost nothing here.
  if (typeof prompt !== 'string' || !prompt.includes('{{')) return;
  const error = checkMustache(prompt);
  if (error !== undefined) problem(path, `is not a valid mustache template: ${error}`);
}
