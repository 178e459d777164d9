/**
 * Spoken tool messages between platforms and switchboard's voice options: a message spoken when
 * the call starts → `options.speech.before` (mode `always`), one spoken when the call is slow →
 * `options.bridge_phrases`, one spoken when it fails → `options.speech.on_error["*"]`. Phrases
 * are kept per language (`"*"` when the platform gives none).
 */
import type { ImportedOptionsJson } from './types.js';

/** Phrases by language tag. */
export type Phrases = Record<string, string[]>;

/** Adds `text` under `language` (default `"*"`). */
export function addPhrase(into: Phrases, text: string, language = '*'): void {
  const list = into[language] ?? [];
  if (!list.includes(text)) list.push(text);
  into[language] = list;
}

/** Sets the pre-tool message. */
export function setBefore(options: ImportedOptionsJson, phrases: Phrases): void {
  if (Object.keys(phrases).length === 0) return;
  options.speech = { ...options.speech, before: { mode: 'always', phrases } };
}

/** Adds bridge phrases. */
export function addBridge(options: ImportedOptionsJson, phrases: Phrases): void {
  if (Object.keys(phrases).length === 0) return;
  const into = options.bridge_phrases ?? {};
  for (const [language, list] of Object.entries(phrases))
    for (const text of list) addPhrase(into, text, language);
  options.bridge_phrases = into;
}

/** Sets the phrase spoken on any error, per language (the first phrase of each). */
export function setOnError(options: ImportedOptionsJson, phrases: Phrases): void {
  const byLanguage: Record<string, string> = {};
  for (const [language, list] of Object.entries(phrases))
    if (list[0] !== undefined) byLanguage[language] = list[0];
  if (Object.keys(byLanguage).length === 0) return;
  options.speech = { ...options.speech, on_error: { '*': byLanguage } };
}

/** The first phrase for `"*"`, else for any language. */
export function firstPhrase(
  phrases: ReadonlyMap<string, readonly string[]> | Phrases | undefined,
): string | undefined {
  if (phrases === undefined) return undefined;
  const entries = phrases instanceof Map ? [...phrases.entries()] : Object.entries(phrases);
  const star = entries.find(([k]) => k === '*');
  return (star ?? entries[0])?.[1][0];
}
