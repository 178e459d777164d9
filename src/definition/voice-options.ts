/**
 * Voice policy as data (docs/voice.md): the `options.speech`, `options.background` and
 * `options.side_effects` fields of a definition. The zod shapes accept snake_case and camelCase;
 * {@link resolveVoiceOptions} turns them into the fully-defaulted {@link VoicePolicy} once at load
 * and reports meaning problems (both spellings, templates, phrases missing for a mode) with the
 * JSON path. Nothing here reaches the model: export to model formats ignores `options`.
 */
import type { z as Z } from 'zod';
import type { DefinitionIssue } from '../errors.js';
import { checkMustache } from '../expressions/mustache.js';
import { joinPath } from './json-path.js';
import { defaultSideEffectClass, SIDE_EFFECT_CLASSES } from './side-effects.js';
import type {
  HttpMethod,
  PreToolSpeech,
  SpeechPolicy,
  SpokenErrorClass,
  ToolType,
  VoicePolicy,
} from './types.js';

/** Default cap on waiting for earlier speech before an `after_speech` call: 10 s. */
export const DEFAULT_SPEECH_MAX_WAIT_MS = 10_000;
/** Default delay of `before.mode: if_slow`: 1 s. */
export const DEFAULT_PRE_TOOL_DELAY_MS = 1_000;

/** The error classes `on_error` may name. */
export const SPOKEN_ERROR_CLASSES = [
  'timeout',
  'http_4xx',
  'http_5xx',
  'network',
  'invalid_arguments',
  '*',
] as const satisfies readonly SpokenErrorClass[];

/**
 * The zod shapes of `options.speech` and `options.side_effects`, built with the `z` the caller
 * loaded (schema.ts builds them on the first load, so importing the package loads no zod).
 */
export function voiceSchemas(z: typeof Z) {
  const bool = z.boolean({ error: 'expected a boolean' });
  const waitMs = z
    .number({ error: 'expected milliseconds' })
    .int({ error: 'expected whole milliseconds' })
    .min(0, { error: 'must not be negative' })
    .max(120_000, { error: 'must be at most 120000 ms' });
  const phrasesByLanguage = z.record(
    z.string().min(1, { error: 'a language tag must not be empty' }),
    z.union([z.string(), z.array(z.string({ error: 'expected a string' }))], {
      error: 'expected a phrase or a list of phrases',
    }),
    { error: 'expected { "<language>": "phrase" | ["phrase", …] }' },
  );
  const mode = z.enum(['always', 'if_slow', 'never'], {
    error: 'expected one of always|if_slow|never',
  });

  const beforeSchema = z.object(
    {
      phrases: phrasesByLanguage.optional(),
      mode: mode.optional(),
      delay_ms: waitMs.optional(),
      delayMs: waitMs.optional(),
    },
    { error: 'expected { phrases, mode, delay_ms }' },
  );

  const onErrorSchema = z.partialRecord(
    z.enum(SPOKEN_ERROR_CLASSES, {
      error: `expected an error class: ${SPOKEN_ERROR_CLASSES.join('|')}`,
    }),
    z.record(z.string().min(1), z.string({ error: 'expected a phrase' }), {
      error: 'expected { "<language>": "phrase" }',
    }),
    { error: 'expected { "<error class>": { "<language>": "phrase" } }' },
  );

  /** `options.speech`. */
  const speech = z.object(
    {
      after_speech: bool.optional(),
      afterSpeech: bool.optional(),
      max_wait_ms: waitMs.optional(),
      maxWaitMs: waitMs.optional(),
      interruptible: bool.optional(),
      before: beforeSchema.optional(),
      on_error: onErrorSchema.optional(),
      onError: onErrorSchema.optional(),
    },
    { error: 'expected { after_speech, max_wait_ms, interruptible, before, on_error }' },
  );

  /** `options.side_effects`. */
  const sideEffects = z.enum(SIDE_EFFECT_CLASSES, {
    error: `expected one of ${SIDE_EFFECT_CLASSES.join('|')}`,
  });
  return { speech, sideEffects, before: beforeSchema };
}

type VoiceSchemas = ReturnType<typeof voiceSchemas>;

/** The raw voice fields of `options`, as the schema leaves them. */
export interface RawVoiceOptions {
  readonly speech?: Z.output<VoiceSchemas['speech']> | undefined;
  readonly background?: boolean | undefined;
  readonly side_effects?: Z.output<VoiceSchemas['sideEffects']> | undefined;
  readonly sideEffects?: Z.output<VoiceSchemas['sideEffects']> | undefined;
}

/** What resolving needs to know about the definition. */
export interface VoiceResolveInput {
  readonly type: ToolType;
  readonly method?: HttpMethod;
  /** JSON path of `options`. */
  readonly path: string;
  readonly report: (issue: Omit<DefinitionIssue, 'file'>) => void;
}

/** Resolves the voice fields with their defaults (see docs/voice.md). */
export function resolveVoiceOptions(raw: RawVoiceOptions, input: VoiceResolveInput): VoicePolicy {
  const error = (path: string, code: string, message: string): void =>
    input.report({ code, severity: 'error', path, message });
  const warn = (path: string, code: string, message: string): void =>
    input.report({ code, severity: 'warning', path, message });
  const both = (where: object | undefined, a: string, b: string, base: string): void => {
    if (where !== undefined && Object.hasOwn(where, a) && Object.hasOwn(where, b))
      error(joinPath(base, b), 'both_spellings', `both "${a}" and "${b}" are given; use one`);
  };
  both(raw, 'side_effects', 'sideEffects', input.path);
  const speechPath = joinPath(input.path, 'speech');
  const s = raw.speech;
  both(s, 'after_speech', 'afterSpeech', speechPath);
  both(s, 'max_wait_ms', 'maxWaitMs', speechPath);
  both(s, 'on_error', 'onError', speechPath);
  both(s?.before, 'delay_ms', 'delayMs', joinPath(speechPath, 'before'));

  const sideEffects =
    raw.side_effects ?? raw.sideEffects ?? defaultSideEffectClass(input.type, input.method);
  const background = raw.background ?? false;
  if (background && input.type === 'action')
    warn(
      joinPath(input.path, 'background'),
      'background_action',
      'a background action runs without the caller hearing its outcome until it finishes; make sure that is intended',
    );

  const before = resolveBefore(s?.before, joinPath(speechPath, 'before'), error);
  const onError = new Map<SpokenErrorClass, ReadonlyMap<string, string>>();
  const rawOnError = s?.on_error ?? s?.onError;
  const onErrorPath = joinPath(speechPath, s?.on_error !== undefined ? 'on_error' : 'onError');
  for (const [cls, byLanguage] of Object.entries(rawOnError ?? {})) {
    const phrases = new Map<string, string>();
    for (const [language, text] of Object.entries(byLanguage)) {
      const problem = checkMustache(text);
      if (problem !== undefined)
        error(
          joinPath(joinPath(onErrorPath, cls), language),
          'template_syntax',
          `invalid mustache template: ${problem}`,
        );
      phrases.set(language, text);
    }
    onError.set(cls as SpokenErrorClass, phrases);
  }

  const afterSpeech = s?.after_speech ?? s?.afterSpeech ?? input.type === 'action';
  const speech: SpeechPolicy = {
    afterSpeech,
    maxWaitMs: s?.max_wait_ms ?? s?.maxWaitMs ?? DEFAULT_SPEECH_MAX_WAIT_MS,
    interruptible: s?.interruptible ?? true,
    ...(before === undefined ? {} : { before }),
    onError,
  };
  if (background && afterSpeech && (s?.after_speech ?? s?.afterSpeech) === true)
    warn(
      joinPath(speechPath, 'after_speech'),
      'background_after_speech',
      'a background call starts at once; after_speech only delays its start',
    );
  return { speech, background, sideEffects };
}

function resolveBefore(
  raw: Z.output<VoiceSchemas['before']> | undefined,
  path: string,
  error: (path: string, code: string, message: string) => void,
): PreToolSpeech | undefined {
  if (raw === undefined) return undefined;
  const phrases = new Map<string, readonly string[]>();
  for (const [language, value] of Object.entries(raw.phrases ?? {})) {
    const list = typeof value === 'string' ? [value] : [...value];
    if (list.length > 0) phrases.set(language, list);
  }
  const m = raw.mode ?? 'always';
  if (m !== 'never' && phrases.size === 0)
    error(
      joinPath(path, 'phrases'),
      'missing_phrases',
      `mode "${m}" needs at least one phrase (per language, "*" for any)`,
    );
  return { mode: m, delayMs: raw.delay_ms ?? raw.delayMs ?? DEFAULT_PRE_TOOL_DELAY_MS, phrases };
}

/** The voice policy of a definition that sets none of the voice fields. */
export function defaultVoicePolicy(type: ToolType, method?: HttpMethod): VoicePolicy {
  return resolveVoiceOptions(
    {},
    { type, ...(method === undefined ? {} : { method }), path: 'options', report: () => undefined },
  );
}
