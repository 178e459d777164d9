/**
 * The message for JSON given as an option value (`--args '{"city":"Paris"}'`) that does not
 * parse: the option, the position with a caret under it, and how the value should be written.
 */

/** How to write a JSON option, for the end of every message about one. */
export function jsonOptionExample(name: string): string {
  return `write it like --${name} '{"name": "value"}' (double quotes inside, single quotes around it for the shell)`;
}

/** The message for text that is not JSON: what, where (with a caret), how to write it. */
export function describeJsonError(name: string, text: string, reason: string): string {
  const position = errorPosition(text, reason);
  const what = reason
    .replace(/ in JSON at position \d+.*$/, '')
    .replace(/, ".*" is not valid JSON$/, '');
  const lines = [`--${name} is not valid JSON: ${what}`];
  if (position !== undefined) {
    const { line, column, lineText } = lineAndColumn(text, position);
    lines[0] += text.includes('\n')
      ? ` (line ${line}, column ${column})`
      : ` (at character ${column})`;
    // Long values: show the part around the mistake only.
    const start = Math.max(0, column - 1 - 40);
    // Control characters (a tab, an escape sequence) would move the caret or drive the terminal.
    const shown = lineText.slice(start, start + 80).replace(/[\u0000-\u001f\u007f]/g, '·');
    lines.push(`  ${shown}`, `  ${' '.repeat(column - 1 - start)}^`);
  }
  lines.push(jsonOptionExample(name));
  return lines.join('\n');
}

/** Where `JSON.parse` stopped, from its message, or the end for input that stops short. */
function errorPosition(text: string, reason: string): number | undefined {
  const at = / at position (\d+)/.exec(reason);
  if (at !== null) return Number(at[1]);
  if (/Unexpected end of JSON input/.test(reason)) return text.length;
  // V8 leaves the position out of short inputs' "Unexpected token 'x'": the first such token
  // outside a string is where parsing stopped.
  const token = /Unexpected token '(.)'/.exec(reason)?.[1];
  if (token === undefined) return undefined;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === token) return i;
  }
  return undefined;
}

function lineAndColumn(
  text: string,
  position: number,
): { line: number; column: number; lineText: string } {
  const before = text.slice(0, position);
  const line = before.split('\n').length;
  const lineStart = before.lastIndexOf('\n') + 1;
  const lineEnd = text.indexOf('\n', lineStart);
  return {
    line,
    column: position - lineStart + 1,
    lineText: text.slice(lineStart, lineEnd === -1 ? undefined : lineEnd),
  };
}
