/**
 * The failure taxonomy: every way a turn can go wrong, as one discriminated union on `source`
 * with stable codes, and three renderings of the same failure:
 * - for the model: the tool error JSON it already receives as the tool's result;
 * - for the caller: a short speakable sentence, per language, overridable by the host;
 * - for the host: code, source, message, whether trying again can help, and the cause.
 */
import type { ToolErrorCode } from '../errors.js';
import type { ModelErrorCode } from '../models/errors.js';
import type { SessionEvent } from './types.js';
import { argumentError, choiceError } from '../option-checks.js';

/** Failures of the session itself (not of a tool or the model). */
export type SessionFailureCode =
  /** `send` on a session that ended or was closed. */
  | 'session_ended'
  /** A host callback (`onEvent`, an action) threw; the engine went on. */
  | 'host_callback'
  /** The session store refused or failed to save. */
  | 'store';

/** One failure, discriminated on `source`. */
export type Failure =
  | {
      readonly source: 'tool';
      readonly code: ToolErrorCode;
      readonly message: string;
      readonly tool: string;
      readonly callId: string;
    }
  | {
      readonly source: 'model';
      readonly code: ModelErrorCode;
      readonly message: string;
      readonly status?: number;
    }
  | { readonly source: 'session'; readonly code: SessionFailureCode; readonly message: string };

/** Every failure code. */
export type FailureCode = Failure['code'];

/** Whose doing a failure is: decides who can fix it. */
export type FailureBlame = 'model' | 'service' | 'definition' | 'host' | 'caller' | 'engine';

/** What the taxonomy knows about a code. */
export interface FailureInfo {
  /** Trying the same thing again may succeed (a transient fault). */
  readonly retryable: boolean;
  readonly blame: FailureBlame;
  /** Which caller sentence fits it. */
  readonly speech: CallerSpeech;
}

/** The kinds of sentence a caller hears. */
export type CallerSpeech =
  'retry_later' | 'not_understood' | 'unavailable' | 'interrupted' | 'ended';

const TOOL: Readonly<Record<ToolErrorCode, FailureInfo>> = {
  invalid_arguments: { retryable: true, blame: 'model', speech: 'not_understood' },
  unknown_tool: { retryable: true, blame: 'model', speech: 'not_understood' },
  too_many_calls: { retryable: true, blame: 'model', speech: 'not_understood' },
  missing_template_value: { retryable: false, blame: 'definition', speech: 'unavailable' },
  http_status: { retryable: true, blame: 'service', speech: 'retry_later' },
  http_redirect: { retryable: false, blame: 'definition', speech: 'unavailable' },
  timeout: { retryable: true, blame: 'service', speech: 'retry_later' },
  network: { retryable: true, blame: 'service', speech: 'retry_later' },
  // A command's exit status says little about why: the arguments may be at fault, or the world.
  command_failed: { retryable: true, blame: 'service', speech: 'retry_later' },
  spawn_failed: { retryable: false, blame: 'host', speech: 'unavailable' },
  response_too_large: { retryable: false, blame: 'service', speech: 'unavailable' },
  bad_response: { retryable: false, blame: 'service', speech: 'unavailable' },
  policy_denied: { retryable: false, blame: 'definition', speech: 'unavailable' },
  origin_not_allowed: { retryable: false, blame: 'definition', speech: 'unavailable' },
  not_available: { retryable: false, blame: 'host', speech: 'unavailable' },
  invalid_language: { retryable: true, blame: 'model', speech: 'not_understood' },
  handler_error: { retryable: false, blame: 'host', speech: 'unavailable' },
  cancelled: { retryable: true, blame: 'caller', speech: 'interrupted' },
  outcome_unknown: { retryable: false, blame: 'engine', speech: 'unavailable' },
  // Workflow limits are reached by what the model sent; smaller data may pass.
  expression_budget: { retryable: true, blame: 'model', speech: 'not_understood' },
  result_too_large: { retryable: true, blame: 'model', speech: 'not_understood' },
  // A dead MCP server is not reconnected (docs/mcp.md); a tool's own error may be the arguments'.
  mcp_server_failed: { retryable: false, blame: 'service', speech: 'unavailable' },
  mcp_tool_error: { retryable: true, blame: 'service', speech: 'retry_later' },
};

const MODEL: Readonly<Record<ModelErrorCode, FailureInfo>> = {
  http_status: { retryable: true, blame: 'service', speech: 'retry_later' },
  timeout: { retryable: true, blame: 'service', speech: 'retry_later' },
  network: { retryable: true, blame: 'service', speech: 'retry_later' },
  bad_response: { retryable: true, blame: 'service', speech: 'retry_later' },
  script: { retryable: false, blame: 'host', speech: 'unavailable' },
};

const SESSION: Readonly<Record<SessionFailureCode, FailureInfo>> = {
  session_ended: { retryable: false, blame: 'host', speech: 'ended' },
  host_callback: { retryable: false, blame: 'host', speech: 'unavailable' },
  store: { retryable: true, blame: 'engine', speech: 'retry_later' },
};

/** The taxonomy's entry for a failure. */
export function failureInfo(failure: Failure): FailureInfo {
  return infoOf('failureInfo', failure);
}

/** Each source's table, by source (a Map: the source may come from a host's JavaScript). */
const TABLES: ReadonlyMap<string, Readonly<Record<string, FailureInfo>>> = new Map<
  string,
  Readonly<Record<string, FailureInfo>>
>([
  ['tool', TOOL],
  ['model', MODEL],
  ['session', SESSION],
]);

/**
 * The entry of a failure; a TypeError naming the function, and the field, when `failure` is no
 * Failure (these are called by hosts from JavaScript, with what they kept of a turn).
 */
function infoOf(fn: string, failure: Failure): FailureInfo {
  const { source, code } = (failure ?? {}) as { source?: unknown; code?: unknown };
  if (typeof failure !== 'object' || failure === null)
    throw argumentError(`${fn}(failure)`, 'a Failure { source, code, message }', failure);
  const table = typeof source === 'string' ? TABLES.get(source) : undefined;
  if (table === undefined) throw choiceError(`${fn}(failure): source`, [...TABLES.keys()], source);
  return entry(`${fn}(failure): code`, table, code);
}

function entry(
  parameter: string,
  table: Readonly<Record<string, FailureInfo>>,
  code: unknown,
): FailureInfo {
  if (typeof code === 'string' && Object.hasOwn(table, code)) return table[code] as FailureInfo;
  throw choiceError(parameter, Object.keys(table), code);
}

/** True when trying again may help (a tool error code). */
export function isRetryableToolError(code: ToolErrorCode): boolean {
  return entry('isRetryableToolError(code)', TOOL, code).retryable;
}

/** True when trying again may help (a model error code). */
export function isRetryableModelError(code: ModelErrorCode): boolean {
  return entry('isRetryableModelError(code)', MODEL, code).retryable;
}

/** The host's view of a failure. */
export interface HostFailure {
  readonly source: Failure['source'];
  readonly code: FailureCode;
  readonly message: string;
  readonly retryable: boolean;
  readonly blame: FailureBlame;
  /** The tool and call, for tool failures; the model server's status, when it answered. */
  readonly cause?: { readonly tool?: string; readonly callId?: string; readonly status?: number };
}

/** Renders a failure for the host (logs, metrics, dashboards). */
export function failureForHost(failure: Failure): HostFailure {
  const info = infoOf('failureForHost', failure);
  const cause =
    failure.source === 'tool'
      ? { tool: failure.tool, callId: failure.callId }
      : failure.source === 'model' && failure.status !== undefined
        ? { status: failure.status }
        : undefined;
  return {
    source: failure.source,
    code: failure.code,
    message: failure.message,
    retryable: info.retryable,
    blame: info.blame,
    ...(cause === undefined ? {} : { cause }),
  };
}

/** Renders a tool failure for the model: the JSON it receives as the tool's result. */
export function failureForModel(failure: Extract<Failure, { source: 'tool' }>): {
  error: { code: ToolErrorCode; message: string };
} {
  infoOf('failureForModel', failure);
  // Only a tool's failure is a tool result; the model never receives its own or the session's.
  if (failure.source !== 'tool')
    throw choiceError('failureForModel(failure): source', ['tool'], failure.source);
  return { error: { code: failure.code, message: failure.message } };
}

/**
 * Caller sentences per language (primary subtag), by kind. Hosts override any of them, per code
 * or per kind, per language tag or primary subtag.
 */
export const CALLER_SPEECH: Readonly<Record<string, Readonly<Record<CallerSpeech, string>>>> = {
  en: {
    retry_later: "Sorry, I couldn't get that done just now. Let's try again in a moment.",
    not_understood: "Sorry, I didn't quite get that. Could you say it again?",
    unavailable: "Sorry, I can't do that right now.",
    interrupted: 'Okay, go ahead.',
    ended: 'This call has ended.',
  },
  es: {
    retry_later: 'Lo siento, no pude hacerlo ahora mismo. Intentémoslo de nuevo en un momento.',
    not_understood: 'Perdón, no le entendí bien. ¿Podría repetirlo?',
    unavailable: 'Lo siento, no puedo hacer eso ahora.',
    interrupted: 'De acuerdo, adelante.',
    ended: 'Esta llamada ha terminado.',
  },
  fr: {
    retry_later: "Désolé, je n'ai pas pu le faire pour l'instant. Réessayons dans un moment.",
    not_understood: "Pardon, je n'ai pas bien compris. Pouvez-vous répéter ?",
    unavailable: 'Désolé, je ne peux pas faire cela pour le moment.',
    interrupted: "D'accord, allez-y.",
    ended: 'Cet appel est terminé.',
  },
};

/** Host overrides: by failure code or caller-speech kind, then by language tag, primary subtag or `*`. */
export type CallerMessages = Readonly<Record<string, Readonly<Record<string, string>>>>;

/** Options of {@link failureForCaller}. */
export interface CallerRenderOptions {
  /** BCP-47 tag of the caller's language. Default `en-US`. */
  readonly language?: string;
  readonly messages?: CallerMessages;
}

/**
 * Renders a failure for the caller: a short sentence to speak. Looks up the host's messages by
 * code, then by kind; then the built-in sentence; English when the language has none.
 */
export function failureForCaller(failure: Failure, options: CallerRenderOptions = {}): string {
  const kind = infoOf('failureForCaller', failure).speech;
  if (typeof options !== 'object' || options === null)
    throw argumentError('failureForCaller(failure, options)', 'an object', options);
  const language = options.language ?? 'en-US';
  if (typeof language !== 'string')
    throw argumentError('failureForCaller: options.language', 'a BCP-47 tag', language);
  const primary = language.split('-')[0]?.toLowerCase() ?? 'en';
  for (const key of [failure.code, kind]) {
    const byLanguage = own(options.messages, key);
    const text = own(byLanguage, language) ?? own(byLanguage, primary) ?? own(byLanguage, '*');
    if (text !== undefined) return text;
  }
  const builtIn = own(CALLER_SPEECH, primary) ?? CALLER_SPEECH['en'];
  return builtIn?.[kind] ?? '';
}

/** The failure a `tool-error` or `model-error` event reports; undefined for other events. */
export function failureOf(event: SessionEvent): Failure | undefined {
  if (typeof (event as { type?: unknown } | null | undefined)?.type !== 'string')
    throw argumentError('failureOf(event)', 'a session event { type, … }', event);
  if (event.type === 'tool-error')
    return {
      source: 'tool',
      code: event.code,
      message: event.message,
      tool: event.tool,
      callId: event.callId,
    };
  if (event.type === 'model-error')
    return {
      source: 'model',
      code: event.code,
      message: event.message,
      ...(event.status === undefined ? {} : { status: event.status }),
    };
  return undefined;
}

function own<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}
