/**
 * Spoken errors (`options.speech.on_error`, docs/voice.md): when a call fails, the caller hears a
 * phrase for the error's class in the session language, while the model still gets the structured
 * error. Classes: `timeout`, `http_4xx`, `http_5xx`, `network`, `invalid_arguments`, then `*` for
 * any error (never for `cancelled`: the caller interrupted and is talking). Phrases are mustache
 * over `args.*` (the call's final arguments) and `vars.*`.
 */
import type { SpokenErrorClass, ToolDefinition } from '../../definition/types.js';
import { renderMustache } from '../deps.js';
import type { SessionSystemValues } from '../../transform/types.js';
import type { ToolTrace } from '../types.js';
import { pickByLanguage } from './pick-language.js';

/** The specific class of a failed call, or undefined when only `*` can match. */
export function spokenErrorClass(trace: ToolTrace): Exclude<SpokenErrorClass, '*'> | undefined {
  switch (trace.errorCode) {
    case 'timeout':
      return 'timeout';
    case 'network':
      return 'network';
    case 'invalid_arguments':
      return 'invalid_arguments';
    case 'http_status': {
      const status = httpStatus(trace.output);
      if (status === undefined) return undefined;
      return status >= 500 ? 'http_5xx' : status >= 400 ? 'http_4xx' : undefined;
    }
    default:
      return undefined;
  }
}

/** The phrase the caller hears for a failed call, or undefined. */
export function spokenErrorFor(options: {
  readonly tool: ToolDefinition;
  readonly trace: ToolTrace;
  readonly language: string;
  readonly vars: Readonly<Record<string, unknown>>;
  readonly system: SessionSystemValues;
}): string | undefined {
  const { tool, trace } = options;
  const onError = tool.options.speech.onError;
  if (!trace.isError || onError.size === 0 || trace.errorCode === 'cancelled') return undefined;
  const cls = spokenErrorClass(trace);
  const byLanguage = (cls === undefined ? undefined : onError.get(cls)) ?? onError.get('*');
  if (byLanguage === undefined) return undefined;
  const template = pickByLanguage(byLanguage, options.language);
  if (template === undefined) return undefined;
  return renderMustache(template, {
    vars: options.vars,
    session: options.system,
    ...(trace.args === undefined ? {} : { args: trace.args }),
  });
}

function httpStatus(output: unknown): number | undefined {
  if (output === null || typeof output !== 'object' || !Object.hasOwn(output, 'error'))
    return undefined;
  const error = (output as { error: unknown }).error;
  if (error === null || typeof error !== 'object' || !Object.hasOwn(error, 'status'))
    return undefined;
  const status = (error as { status: unknown }).status;
  return typeof status === 'number' ? status : undefined;
}
