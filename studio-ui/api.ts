/** Calls to the studio's JSON API; every failure comes back with its code, never thrown. */
import type { StudioError } from '../src/studio/protocol.js';

export type Answer<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: StudioError };

export async function call<T>(
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<Answer<T>> {
  let res: Response;
  try {
    // The studio refuses a POST that is not application/json (415 not_json), so a POST without
    // a body of its own ("New conversation") sends `{}`.
    res = await fetch(path, {
      method,
      ...(method === 'POST'
        ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) }
        : {}),
    });
  } catch (error) {
    return {
      ok: false,
      error: { code: 'unreachable', message: `the studio did not answer: ${String(error)}` },
    };
  }
  let value: unknown;
  try {
    value = await res.json();
  } catch {
    return {
      ok: false,
      error: {
        code: `http_${res.status}`,
        message: `the studio answered ${res.status} without JSON`,
      },
    };
  }
  if (!res.ok) {
    const error = (value as { error?: StudioError }).error;
    return { ok: false, error: error ?? { code: `http_${res.status}`, message: res.statusText } };
  }
  return { ok: true, value: value as T };
}
