/**
 * Vendor text made safe to print: control characters (C0, DEL, C1), line and paragraph
 * separators and bidirectional overrides are written as escapes (`\r`, `\n`, `\u001b`), so a
 * header name in a vendor file cannot move the cursor, clear the screen, forge a line of output
 * or reorder what a reader sees.
 */

const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const SHORT = new Map([
  ['\n', '\\n'],
  ['\r', '\\r'],
  ['\t', '\\t'],
]);

/** `text` with every unprintable character escaped. */
export function printable(text: string): string {
  return text.replace(
    UNPRINTABLE,
    (c) => SHORT.get(c) ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
