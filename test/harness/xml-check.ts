/** A small XML well-formedness check for tests: tags nest, attributes quoted, entities valid. */
export function assertWellFormedXml(xml: string): void {
  let s = xml.replace(/^<\?xml[^?]*\?>\s*/, '');
  const stack: string[] = [];
  const entity = /&(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/y;
  if (/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/.test(s))
    throw new Error('illegal character');
  let i = 0;
  let rootClosed = false;
  while (i < s.length) {
    const c = s[i];
    if (c === '<') {
      if (rootClosed) throw new Error(`content after the root element at ${i}`);
      const end = s.indexOf('>', i);
      if (end === -1) throw new Error(`unterminated tag at ${i}`);
      const tag = s.slice(i + 1, end);
      if (tag.startsWith('/')) {
        const name = tag.slice(1).trim();
        if (stack.pop() !== name) throw new Error(`mismatched </${name}> at ${i}`);
        if (stack.length === 0) rootClosed = true;
      } else {
        const m = /^([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.-]*="[^"<]*")*)\s*(\/?)$/.exec(tag);
        if (m === null) throw new Error(`malformed tag <${tag}> at ${i}`);
        for (const v of (m[2] ?? '').matchAll(/="([^"]*)"/g)) checkText(v[1] ?? '', entity);
        if (m[3] !== '/') stack.push(m[1] as string);
        else if (stack.length === 0) rootClosed = true;
      }
      i = end + 1;
    } else {
      const next = s.indexOf('<', i);
      const text = s.slice(i, next === -1 ? s.length : next);
      if (stack.length === 0 && text.trim() !== '')
        throw new Error('text outside the root element');
      checkText(text, entity);
      i = next === -1 ? s.length : next;
    }
  }
  if (stack.length > 0 || !rootClosed) throw new Error(`unclosed elements: ${stack.join(', ')}`);
  s = '';
}

function checkText(text: string, entity: RegExp): void {
  if (text.includes('>') && text.includes(']]>')) throw new Error('"]]>" in text');
  for (let j = 0; j < text.length; j++) {
    if (text[j] === '&') {
      entity.lastIndex = j;
      if (!entity.test(text)) throw new Error(`bad entity at ${text.slice(j, j + 10)}`);
    }
  }
}
