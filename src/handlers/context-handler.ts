/**
 * The context handler (docs/handlers.md): turns `language` and `say` (alias `message`) arguments into
 * session effects. The language tag is canonicalised and checked against the session's declared
 * languages; spoken text is stripped of control characters and length-capped.
 */
import { errorBody, finishOutcome, neverThrow, type OutcomeBody } from './outcome.js';
import { renderResult } from './render-result.js';
import type { Handler, HandlerContext, HandlerOutcome, SessionEffect } from './types.js';

/** Longest `say` text, in characters; longer text is cut. */
export const MAX_SAY_CHARS = 2000;

/** Options of {@link createContextHandler}. */
export interface ContextHandlerOptions {
  /** Clock (epoch ms). Default `Date.now`. */
  readonly now?: () => number;
  /** Default {@link MAX_SAY_CHARS}. */
  readonly maxSayChars?: number;
}

const canonicalTags = new Map<string, string>();

/** The canonical form of a BCP-47 tag, or undefined when it is not well-formed. */
export function canonicalLanguage(tag: string): string | undefined {
  // Remembered (bounded): every session checks its language, and equal tags then share one
  // string instead of each session holding a copy.
  let canonical = canonicalTags.get(tag);
  if (canonical !== undefined) return canonical;
  try {
    canonical = Intl.getCanonicalLocales(tag)[0];
  } catch {
    return undefined;
  }
  if (canonical !== undefined) {
    if (canonicalTags.size >= 256) canonicalTags.clear();
    canonicalTags.set(tag, canonical);
  }
  return canonical;
}

/** Spoken text made safe: line breaks and tabs become spaces, other controls go, length capped. */
export function cleanSayText(text: string, max: number): string {
  const cleaned = text
    .replace(/[\t\n\r\u2028\u2029]+/g, ' ')
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, '')
    .trim();
  if (cleaned.length <= max) return cleaned;
  // Never cut a surrogate pair in half (a lone surrogate is not text a speech engine can read).
  const code = cleaned.charCodeAt(max - 1);
  return cleaned.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

function run(
  args: Readonly<Record<string, unknown>>,
  context: HandlerContext,
  maxSay: number,
): OutcomeBody {
  if (context.signal.aborted) return errorBody('cancelled', 'the call was cancelled');
  const effects: SessionEffect[] = [];
  const summary: Record<string, unknown> = {};
  let language = context.session.language;
  if (
    Object.hasOwn(args, 'language') &&
    args['language'] !== undefined &&
    args['language'] !== null
  ) {
    const raw = args['language'];
    const tag = typeof raw === 'string' ? canonicalLanguage(raw) : undefined;
    if (tag === undefined)
      return errorBody(
        'invalid_language',
        `"${String(raw).slice(0, 40)}" is not a valid language tag`,
      );
    const allowed = context.session.languages;
    if (allowed !== undefined && allowed.length > 0) {
      const canonicalAllowed = allowed.map((l) => canonicalLanguage(l) ?? l);
      if (!canonicalAllowed.some((l) => l.toLowerCase() === tag.toLowerCase())) {
        return errorBody(
          'invalid_language',
          `language ${tag} is not available; use one of: ${canonicalAllowed.join(', ')}`,
          { allowed: canonicalAllowed },
        );
      }
    }
    // Always the effect, even for the language the session had when the call started: calls of
    // one answer run before any applies, so whether it changes anything is decided as they apply,
    // in call order (a switch to Spanish, then back to English, ends in English).
    effects.push({ type: 'language', from: context.session.language, to: tag });
    language = tag;
    summary['language'] = tag;
  }
  const sayKey = Object.hasOwn(args, 'say')
    ? 'say'
    : Object.hasOwn(args, 'message')
      ? 'message'
      : undefined;
  if (sayKey !== undefined && args[sayKey] !== undefined && args[sayKey] !== null) {
    const raw = args[sayKey];
    if (typeof raw !== 'string')
      return errorBody('invalid_arguments', `"${sayKey}" must be a string`);
    const text = cleanSayText(raw, maxSay);
    if (text !== '') {
      effects.push({ type: 'say', text });
      summary['say'] = text;
    }
  }
  if (context.tool.hasResult) {
    const output = renderResult(context.tool.result, {
      vars: context.session.vars,
      session: { id: context.session.id, language },
    });
    return { type: 'success', output, effects };
  }
  return {
    type: 'success',
    output: Object.keys(summary).length > 0 ? summary : { status: 'ok' },
    effects,
  };
}

/** Creates the handler of `context` tools. */
export function createContextHandler(options: ContextHandlerOptions = {}): Handler {
  const now = options.now ?? Date.now;
  const maxSay = options.maxSayChars ?? MAX_SAY_CHARS;
  return {
    kind: 'context',
    execute: (args, context): Promise<HandlerOutcome> =>
      neverThrow(now, async (startedAt) =>
        finishOutcome(run(args, context, maxSay), startedAt, now()),
      ),
  };
}
