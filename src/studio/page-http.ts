/** The page's HTTP double answers as fixture exchanges, and the URL form OAuth skips compare. */
import { httpExchangeSchema, type HttpExchange } from '../harness/fixture-schema.js';
import type { DoubleExchange } from './protocol.js';
import { StudioProblem } from './studio-problem.js';

/** A declared answer of the page as a fixture exchange (answering up to 100 requests). */
export function toExchange(x: DoubleExchange, index: number): HttpExchange {
  let json: unknown;
  try {
    json = JSON.parse(x.body);
  } catch {
    json = undefined;
  }
  const parsed = httpExchangeSchema.safeParse({
    request: { method: x.method, url: x.url },
    response: { status: x.status, ...(json !== undefined ? { json } : { text: x.body }) },
    times: 100,
  });
  if (!parsed.success)
    throw new StudioProblem(
      400,
      'bad_exchange',
      `HTTP double answer ${index + 1}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  return parsed.data;
}

/** Origin and path of a URL (its query may carry anything). */
export function withoutQuery(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return url;
  }
}
