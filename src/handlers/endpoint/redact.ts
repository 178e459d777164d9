/**
 * Keeps secrets out of everything an endpoint call returns: request records (secret header
 * values become `[redacted]`) and outputs or error texts that a service may have echoed a secret
 * into (every known form — raw, base64, URL-encoded — is replaced).
 */

/** What replaces a secret. */
export const REDACTED = '[redacted]';

/** Header names always treated as secret, whatever their origin. */
const ALWAYS_SECRET = new Set(['authorization', 'proxy-authorization', 'cookie', 'x-api-key']);

/** Copies headers with secret values replaced. */
export function redactHeaders(
  headers: Readonly<Record<string, string>>,
  secretNames: ReadonlySet<string>,
): Record<string, string> {
  // Object.fromEntries defines own properties, so no header name can reach a prototype.
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [
      name,
      secretNames.has(name) || ALWAYS_SECRET.has(name) ? REDACTED : value,
    ]),
  );
}

/** Replaces every secret form inside a string. */
export function scrubText(text: string, secrets: ReadonlySet<string>): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out;
}

/** Deep copy of a JSON value with secrets scrubbed from every string (keys included). */
export function scrubValue(value: unknown, secrets: ReadonlySet<string>): unknown {
  if (secrets.size === 0) return value;
  if (typeof value === 'string') return scrubText(value, secrets);
  if (Array.isArray(value)) return value.map((v) => scrubValue(v, secrets));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      Object.defineProperty(out, scrubText(key, secrets), {
        value: scrubValue(v, secrets),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return value;
}
