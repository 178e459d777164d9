/**
 * Incremental parser of `<tool>{…}</tool>` markers in streamed text. Feed it chunks as they
 * arrive; it returns plain text that is certainly not part of a marker (holding back a trailing
 * `<to…` that might still become one) and the bodies of complete markers. Inside a marker the
 * closing tag only counts outside JSON strings, so `"</tool>"` inside an argument is data.
 */

/** What the parser found in the input so far. */
export type MarkerPiece =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'marker'; readonly body: string }
  /** A marker opened but the stream ended before `</tool>`. */
  | { readonly type: 'unterminated'; readonly body: string };

const OPEN = '<tool>';
const CLOSE = '</tool>';

/** A streaming marker parser; one per model answer. */
export class MarkerParser {
  #mode: 'text' | 'marker' = 'text';
  #pending = '';
  #body = '';
  #inString = false;
  #escaped = false;

  /** Consumes a chunk; returns the pieces it completed. */
  push(chunk: string): MarkerPiece[] {
    const out: MarkerPiece[] = [];
    this.#pending += chunk;
    for (;;) {
      if (this.#mode === 'text') {
        if (!this.#scanText(out)) break;
      } else if (!this.#scanMarker(out)) break;
    }
    return out;
  }

  /** Ends the stream: flushes held-back text, reports an unterminated marker. */
  end(): MarkerPiece[] {
    const out: MarkerPiece[] = [];
    if (this.#mode === 'text') {
      if (this.#pending !== '') out.push({ type: 'text', text: this.#pending });
    } else {
      out.push({ type: 'unterminated', body: this.#body + this.#pending });
    }
    this.#pending = '';
    this.#body = '';
    this.#mode = 'text';
    return out;
  }

  /** Returns true if it switched to marker mode (more to scan). */
  #scanText(out: MarkerPiece[]): boolean {
    const p = this.#pending;
    const at = p.indexOf(OPEN);
    if (at >= 0) {
      if (at > 0) out.push({ type: 'text', text: p.slice(0, at) });
      this.#pending = p.slice(at + OPEN.length);
      this.#mode = 'marker';
      this.#body = '';
      this.#inString = false;
      this.#escaped = false;
      return true;
    }
    // Hold back the longest suffix that is a prefix of the opening tag.
    let keep = 0;
    for (let n = Math.min(OPEN.length - 1, p.length); n > 0; n--) {
      if (OPEN.startsWith(p.slice(p.length - n))) {
        keep = n;
        break;
      }
    }
    const emit = p.slice(0, p.length - keep);
    if (emit !== '') out.push({ type: 'text', text: emit });
    this.#pending = p.slice(p.length - keep);
    return false;
  }

  /** Returns true if the marker closed (more to scan). */
  #scanMarker(out: MarkerPiece[]): boolean {
    const p = this.#pending;
    let i = 0;
    for (; i < p.length; i++) {
      const c = p[i];
      if (this.#inString) {
        if (this.#escaped) this.#escaped = false;
        else if (c === '\\') this.#escaped = true;
        else if (c === '"') this.#inString = false;
        continue;
      }
      if (c === '"') {
        this.#inString = true;
        continue;
      }
      if (c === '<') {
        const rest = p.slice(i, i + CLOSE.length);
        if (rest === CLOSE) {
          out.push({ type: 'marker', body: this.#body + p.slice(0, i) });
          this.#pending = p.slice(i + CLOSE.length);
          this.#body = '';
          this.#mode = 'text';
          return true;
        }
        if (CLOSE.startsWith(rest)) {
          // Could be a split closing tag: wait for more input.
          this.#body += p.slice(0, i);
          this.#pending = p.slice(i);
          return false;
        }
      }
    }
    this.#body += p;
    this.#pending = '';
    return false;
  }
}
