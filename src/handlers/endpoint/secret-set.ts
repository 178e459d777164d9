/**
 * The secrets of one session — every configured credential of its services and every token the
 * engine obtains for them — in each form a service may echo them in, and the scrubber that
 * replaces them with `[redacted]`. The endpoint handler, the REPL's printout and `/save` share one
 * set per session, so a token issued mid-session is scrubbed everywhere from then on.
 *
 * Forms matched literally: raw; base64 (standard and URL-safe, padded or not) of the secret at
 * each of the three byte alignments it can have inside a longer encoded text (`base64("Bearer
 * …")`), keeping only the characters that depend on the secret alone; hex of its UTF-8 bytes
 * (lower and upper case). Forms matched in an unescaped view of the text (see `redact.ts`):
 * percent-encoding of any character set and either hex case, HTML character references
 * (decimal, hex, `&amp;` `&lt;` `&gt;` `&quot;` `&apos;`) and JSON escapes (`\uXXXX`, `\/`).
 */
import { credentialHeaderNames, type ServiceConfig } from './service-config.js';
import { clientBasicCredentials } from './oauth2-token.js';
import { scrubForms, type ScrubForms } from './redact.js';

/** Forms shorter than this are not scrubbed (they would mangle ordinary text). */
export const MIN_SCRUB_LENGTH = 4;

/**
 * The base64 characters of `bytes` that depend on those bytes alone, for each of the three
 * alignments (0, 1 or 2 bytes before them in the encoded text). The edge characters shared with
 * neighbouring bytes are left out: they differ with every neighbour.
 */
export function base64Cores(bytes: Buffer): string[] {
  const out: string[] = [];
  for (const offset of [0, 1, 2]) {
    const b64 = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    const from = Math.ceil((8 * offset) / 6);
    const to = Math.floor((8 * (offset + bytes.length)) / 6);
    out.push(b64.slice(from, to));
  }
  return out;
}

/** What is matched literally, and what in the unescaped view, for one secret. */
function formsOf(secret: string): { literal: string[]; unescaped: string[] } {
  const bytes = Buffer.from(secret, 'utf8');
  // The cores are substrings of every longer base64 form (padded or not), so they are enough.
  const base64 = base64Cores(bytes);
  const urlSafe = base64.map((b) => b.replace(/\+/g, '-').replace(/\//g, '_'));
  const hex = bytes.toString('hex');
  const literal = [secret, ...base64, ...urlSafe, hex, hex.toUpperCase()];
  // Percent-decoding yields bytes: a non-ASCII secret is also looked for as its UTF-8 bytes.
  const latin1 = bytes.toString('latin1');
  const doubled = secret.replace(/\\/g, '\\\\');
  // Form encoding writes a space as `+`: of the characters and, for a non-ASCII secret, its bytes.
  const unescaped = [
    secret,
    latin1,
    secret.replace(/ /g, '+'),
    latin1.replace(/ /g, '+'),
    doubled,
    ...base64,
  ];
  const keep = (forms: string[]): string[] =>
    [...new Set(forms)].filter((f) => f.length >= MIN_SCRUB_LENGTH);
  return { literal: keep(literal), unescaped: keep(unescaped) };
}

/** A session's secrets and their scrubber. Adding is idempotent; a set is never emptied. */
export class SecretSet {
  readonly #secrets = new Set<string>();
  readonly #literal = new Set<string>();
  readonly #unescaped = new Set<string>();
  #forms: ScrubForms | undefined;

  /** Adds a secret (ignored when shorter than {@link MIN_SCRUB_LENGTH}). */
  add(secret: string): void {
    if (secret.length < MIN_SCRUB_LENGTH || this.#secrets.has(secret)) return;
    this.#secrets.add(secret);
    const { literal, unescaped } = formsOf(secret);
    for (const f of literal) this.#literal.add(f);
    for (const f of unescaped) this.#unescaped.add(f);
    this.#forms = undefined;
  }

  /** Adds every configured secret of the services (and each credential as its header sends it). */
  addServices(services: Readonly<Record<string, ServiceConfig>>): void {
    for (const config of Object.values(services)) {
      // Plain headers that carry credentials (`authorization`, `x-api-key`) are secrets too.
      for (const name of credentialHeaderNames(config.headers)) {
        const value = config.headers?.[name];
        if (value === undefined) continue;
        this.add(value);
        // `Bearer <token>`, `Basic <base64>`: the credential alone may be echoed as well.
        const credential = /^\S+\s+(\S.*)$/.exec(value)?.[1];
        if (credential !== undefined) this.add(credential);
      }
      const auth = config.auth;
      if (auth === undefined) continue;
      switch (auth.type) {
        case 'basic': {
          const pair = `${auth.username}:${auth.password}`;
          this.add(auth.password);
          this.add(pair);
          this.add(Buffer.from(pair).toString('base64'));
          break;
        }
        case 'bearer':
          this.add(auth.token);
          break;
        case 'custom_headers':
          for (const value of Object.values(auth.headers)) this.add(value);
          break;
        case 'oauth2':
          this.add(auth.client_secret);
          this.add(`${auth.client_id}:${auth.client_secret}`);
          this.add(clientBasicCredentials(auth));
          break;
        default: {
          const _exhaustive: never = auth;
          void _exhaustive;
        }
      }
    }
  }

  /** Number of secrets (not forms) known. */
  get size(): number {
    return this.#secrets.size;
  }

  /** The text with every form of every secret replaced by `[redacted]`. */
  scrubText(text: string): string {
    return this.#secrets.size === 0 ? text : scrubForms(text, this.#compiled());
  }

  /** Deep copy of a JSON value with secrets scrubbed from every string (keys included). */
  scrubValue(value: unknown): unknown {
    if (this.#secrets.size === 0) return value;
    const forms = this.#compiled();
    return scrubDeep(value, (text) => scrubForms(text, forms));
  }

  #compiled(): ScrubForms {
    // Longest first, so a secret containing another is replaced whole.
    const byLength = (a: string, b: string): number => b.length - a.length;
    if (this.#forms === undefined) {
      const literal = [...this.#literal].sort(byLength);
      const unescaped = [...this.#unescaped].sort(byLength);
      const shortest = Math.min(literal.at(-1)?.length ?? 0, unescaped.at(-1)?.length ?? 0);
      this.#forms = { literal, unescaped, shortest };
    }
    return this.#forms;
  }
}

function scrubDeep(value: unknown, scrub: (text: string) => string): unknown {
  if (typeof value === 'string') return scrub(value);
  if (Array.isArray(value)) return value.map((v) => scrubDeep(v, scrub));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      // defineProperty: a scrubbed key named "__proto__" stays an own data property.
      Object.defineProperty(out, scrub(key), {
        value: scrubDeep(v, scrub),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return value;
}
