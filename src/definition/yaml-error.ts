/**
 * The place and reason of a YAML syntax error, said for the indentation slips people make by
 * hand. The `yaml` parser's own words for them point elsewhere: a key indented one space too far
 * under `url: http://…` is "Nested mappings are not allowed in compact mappings" at the *value
 * of the line above* (the slipped line was read as that value's continuation), and a key
 * indented with a tab alone is "Unexpected scalar at node end". Only the message changes; the
 * parser decides what is an error.
 */

export interface YamlErrorPlace {
  /** 1-based line and column, as the parser reports them. */
  readonly line: number;
  readonly col: number;
}

export interface ExplainedYamlError {
  readonly line: number;
  readonly col: number;
  readonly reason: string;
}

/** The first column (1-based) of a line's content, and whether a tab is in its indentation. */
function indentOf(text: string): { col: number; tab: boolean } {
  const lead = /^[ \t]*/.exec(text)?.[0] ?? '';
  return { col: lead.length + 1, tab: lead.includes('\t') };
}

function isContent(text: string | undefined): text is string {
  return text !== undefined && text.trim() !== '' && !text.trim().startsWith('#');
}

/**
 * `code` and `at` are the parser's (`YAMLParseError.code`, `.linePos[0]`); `reason` its first
 * line without the place. Returns the place and reason to report.
 */
export function explainYamlError(
  source: string,
  code: string | undefined,
  at: YamlErrorPlace,
  reason: string,
): ExplainedYamlError {
  const lines = source.split(/\r?\n|\r/);
  const lineText = lines[at.line - 1];
  if (lineText !== undefined && indentOf(lineText).tab && !/tab/i.test(reason))
    return {
      line: at.line,
      col: 1,
      reason: `line ${at.line} is indented with a tab; YAML indents with spaces only (${reason})`,
    };
  if (code === 'BLOCK_AS_IMPLICIT_KEY' && lineText !== undefined) {
    // The value starting at `at` ran on into a later line indented deeper than this line's key:
    // that later line is the slip.
    const keyCol = indentOf(lineText).col;
    for (let n = at.line; n < lines.length; n++) {
      const next = lines[n];
      if (!isContent(next)) continue;
      const { col } = indentOf(next);
      if (col <= keyCol) break;
      const key = lineText.trim().split(':')[0] ?? '';
      return {
        line: n + 1,
        col,
        reason: `line ${n + 1} starts at column ${col}, deeper than "${key}:" on line ${at.line} (column ${keyCol}), so it is read as part of that key's value; start it at column ${keyCol} to make it a key beside "${key}" (${reason})`,
      };
    }
  }
  if (code === 'BAD_INDENT' && /same column/.test(reason)) {
    // The parser places it at the whitespace before the key, which may start on blank or
    // comment lines above it: the key's own line is the next line with content.
    let here = at.line - 1;
    while (here < lines.length && !isContent(lines[here])) here++;
    let above = here - 1;
    while (above >= 0 && !isContent(lines[above])) above--;
    const keyLine = lines[here];
    if (keyLine !== undefined && above >= 0) {
      const col = indentOf(keyLine).col;
      return {
        line: here + 1,
        col,
        reason: `line ${here + 1} starts at column ${col}, line ${above + 1} above it at column ${indentOf(lines[above] ?? '').col}; keys of one mapping must start at the same column (${reason})`,
      };
    }
  }
  return { line: at.line, col: at.col, reason };
}
