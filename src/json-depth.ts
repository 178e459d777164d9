/**
 * The nesting depth of JSON text, counted without parsing it: model arguments and response
 * bodies are checked before `JSON.parse` so that a deep document cannot overflow the stack.
 */

/**
 * Scans JSON-ish text once, skipping string contents (with escapes), and returns the position
 * where depth first exceeds `max`, or undefined. Works on malformed text too: it only counts.
 */
export function nestingDepthExceeds(raw: string, max: number): number | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      depth++;
      if (depth > max) return i;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      if (depth > 0) depth--;
    }
  }
  return undefined;
}
