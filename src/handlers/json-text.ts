/**
 * The JSON text a parsed value came from, kept when that text is exactly what `JSON.stringify`
 * would make of the value and at least {@link MIN_KEPT_CHARS} long, so the tool message can reuse
 * it instead of serialising the value again (a large response was parsed, then stringified whole,
 * on every call). Keyed weakly by the
 * parsed object: a value copied or re-shaped on its way (secret scrubbing, save rules never
 * mutate) has no entry and is serialised as before.
 */
const texts = new WeakMap<object, string>();

/**
 * Conservative: the text is kept only if nothing in it could serialise differently — no
 * whitespace, no escapes, no exponent, no fraction ending in 0, no run of 16+ digits (beyond a
 * double's precision). Matches inside strings only make it fall back to `JSON.stringify`.
 */
const MAY_DIFFER = /[\s\\]|[0-9][eE]|\.[0-9]*0(?![0-9])|[0-9]{16}/;

/**
 * Below this length the text is not kept: checking it and keeping it cost more than serialising
 * the value again (Node 20, hot loop: 0.43 against 0.24 µs for 22 characters, even at about 130,
 * 2.75 against 3.91 µs at 1,000; in a whole turn, where the weak map's write barrier runs cold,
 * keeping a 22-character body cost about 3 µs; git history has the runs).
 */
export const MIN_KEPT_CHARS = 1024;

/** Remembers `text` as the JSON of `value` when it is already canonical and long enough to pay. */
export function rememberJsonText(value: unknown, text: string): void {
  if (text.length < MIN_KEPT_CHARS || typeof value !== 'object' || value === null) return;
  if (MAY_DIFFER.test(text)) return;
  texts.set(value, text);
}

/** The tool message content of an output: its remembered JSON text, or `JSON.stringify`. */
export function jsonTextOf(value: unknown): string | undefined {
  if (typeof value === 'object' && value !== null) {
    const text = texts.get(value);
    if (text !== undefined) return text;
  }
  return JSON.stringify(value);
}
