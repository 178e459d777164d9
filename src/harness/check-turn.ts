/**
 * Checks one turn's `expect` block against what the turn did. Every difference becomes a
 * {@link Mismatch} whose path points into the fixture (`turns[0].expect.requests[1].json.city`).
 */
import type { TurnExpect } from './fixture-schema.js';
import { isPlainObject, matchValue, type MatchMode, type Mismatch } from './match.js';
import type { ObservedTurn } from './observe.js';
import {
  formObject,
  queryObject,
  sameUrl,
  urlWithoutQuery,
  type RecordedRequest,
} from './recorded-request.js';

/** Options of {@link checkTurn}. */
export interface CheckTurnOptions {
  readonly expect: TurnExpect;
  readonly observed: ObservedTurn;
  /** Path of the expect block, e.g. `turns[0].expect`. */
  readonly path: string;
}

/** Returns every way the turn differs from its expectations (empty: it passed). */
export function checkTurn(options: CheckTurnOptions): Mismatch[] {
  const { expect: e, observed: o, path } = options;
  const out: Mismatch[] = [];
  const at = (key: string): string => `${path}.${key}`;

  if (e.tool_calls !== undefined) {
    checkList(
      e.tool_calls,
      o.toolCalls,
      at('tool_calls'),
      'tool call',
      out,
      (item, actual, p) => {
        const mode = item.match ?? 'exact';
        out.push(...matchValue(item.name, actual.name, { path: `${p}.name` }));
        if (item.args !== undefined)
          out.push(...matchValue(item.args, actual.args, { path: `${p}.args`, mode }));
      },
      (c) => `${c.name}(${JSON.stringify(c.args ?? c.rawArguments)})`,
    );
  }
  if (e.requests !== undefined) {
    checkList(
      e.requests,
      o.requests,
      at('requests'),
      'request',
      out,
      (item, actual, p) => {
        checkRequest(item, actual, p, out);
      },
      (r) => `${r.method} ${r.url}`,
    );
  }
  if (e.commands !== undefined) {
    checkList(
      e.commands,
      o.commands ?? [],
      at('commands'),
      'command run',
      out,
      (item, actual, p) => {
        if (item.command !== undefined)
          out.push(...matchValue(item.command, actual.command, { path: `${p}.command` }));
        if (item.argv !== undefined)
          out.push(
            ...matchValue(item.argv, actual.argv, {
              path: `${p}.argv`,
              mode: item.match ?? 'exact',
            }),
          );
      },
      (r) => `${r.command} ${JSON.stringify(r.argv)}`,
    );
  }
  if (e.tool_errors !== undefined) {
    checkList(
      e.tool_errors,
      o.toolErrors,
      at('tool_errors'),
      'tool error',
      out,
      (item, actual, p) => {
        const mode = item.match ?? 'exact';
        out.push(...matchValue(item.tool, actual.tool, { path: `${p}.tool` }));
        if (item.code !== undefined)
          out.push(...matchValue(item.code, actual.code, { path: `${p}.code`, mode }));
        if (item.message !== undefined)
          out.push(...matchValue(item.message, actual.message, { path: `${p}.message`, mode }));
      },
      (x) => `${x.tool}: ${x.code}`,
    );
  }
  if (e.say !== undefined) out.push(...matchValue(e.say, [...o.say], { path: at('say') }));
  if (e.language !== undefined)
    out.push(...matchValue(e.language, o.language, { path: at('language') }));
  if (e.vars !== undefined)
    out.push(...matchValue(e.vars, o.vars, { path: at('vars'), mode: 'partial' }));
  if (e.workflows !== undefined)
    out.push(...matchValue(e.workflows, o.workflows, { path: at('workflows'), mode: 'partial' }));
  if (e.reply !== undefined) out.push(...matchValue(e.reply, o.reply, { path: at('reply') }));
  if (e.agent !== undefined) out.push(...matchValue(e.agent, o.agent, { path: at('agent') }));
  if (e.model_error !== undefined)
    out.push(...matchValue(e.model_error, o.modelError, { path: at('model_error') }));
  if (e.ended !== undefined) out.push(...matchValue(e.ended, o.ended, { path: at('ended') }));
  if (e.interrupted !== undefined)
    out.push(...matchValue(e.interrupted, o.interrupted, { path: at('interrupted') }));
  if (e.events !== undefined) checkEvents(e.events, o, at('events'), out);
  return out;
}

function checkList<E, A>(
  expected: readonly E[],
  actual: readonly A[],
  path: string,
  noun: string,
  out: Mismatch[],
  checkItem: (item: E, actual: A, path: string) => void,
  summary: (a: A) => string,
): void {
  if (expected.length !== actual.length) {
    out.push({
      path,
      reason: `expected ${expected.length} ${noun}(s), got ${actual.length}`,
      expected: expected.map(expectedSummary),
      actual: actual.map(summary),
    });
  }
  const n = Math.min(expected.length, actual.length);
  for (let i = 0; i < n; i++) checkItem(expected[i] as E, actual[i] as A, `${path}[${i}]`);
}

/** An expected list item in one line, like the actual ones: `name(args)` or `METHOD url`. */
function expectedSummary(item: unknown): string {
  if (!isPlainObject(item)) return JSON.stringify(item);
  const show = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));
  if (Object.hasOwn(item, 'name'))
    return `${show(item['name'])}(${item['args'] === undefined ? '…' : JSON.stringify(item['args'])})`;
  if (Object.hasOwn(item, 'tool'))
    return `${show(item['tool'])}: ${item['code'] === undefined ? '…' : show(item['code'])}`;
  if (Object.hasOwn(item, 'method') || Object.hasOwn(item, 'url'))
    return `${item['method'] === undefined ? '*' : show(item['method']).toUpperCase()} ${item['url'] === undefined ? '*' : show(item['url'])}`;
  return JSON.stringify(item);
}

type ExpectedRequest = NonNullable<TurnExpect['requests']>[number];

function checkRequest(
  item: ExpectedRequest,
  actual: RecordedRequest,
  p: string,
  out: Mismatch[],
): void {
  const mode: MatchMode = item.match ?? 'exact';
  if (item.method !== undefined)
    out.push(...matchValue(item.method.toUpperCase(), actual.method, { path: `${p}.method` }));
  if (item.url !== undefined) {
    const url = item.query !== undefined ? urlWithoutQuery(actual.url) : actual.url;
    if (!(typeof item.url === 'string' && sameUrl(item.url, url, 'exact')))
      out.push(...matchValue(normaliseUrl(item.url), url, { path: `${p}.url` }));
  }
  if (item.query !== undefined)
    out.push(...matchValue(item.query, queryObject(actual.url), { path: `${p}.query`, mode }));
  if (item.json !== undefined) {
    let parsed: unknown;
    try {
      parsed = actual.body === undefined ? undefined : JSON.parse(actual.body);
    } catch {
      out.push({
        path: `${p}.json`,
        reason: 'the body is not JSON',
        expected: item.json,
        actual: actual.body,
      });
      parsed = undefined;
    }
    if (parsed !== undefined || actual.body === undefined)
      out.push(...matchValue(item.json, parsed, { path: `${p}.json`, mode }));
  }
  if (item.form !== undefined) {
    out.push(
      ...matchValue(item.form, actual.body === undefined ? undefined : formObject(actual.body), {
        path: `${p}.form`,
        mode,
      }),
    );
  }
  if (item.body !== undefined)
    out.push(...matchValue(item.body, actual.body, { path: `${p}.body` }));
  if (item.headers !== undefined) {
    const expected = isPlainObject(item.headers)
      ? Object.fromEntries(Object.entries(item.headers).map(([k, v]) => [k.toLowerCase(), v]))
      : item.headers;
    out.push(...matchValue(expected, actual.headers, { path: `${p}.headers`, mode: 'partial' }));
  }
}

/** `https://a.test` and `https://a.test/` are the same URL; loose matchers stay as they are. */
function normaliseUrl(url: unknown): unknown {
  if (typeof url !== 'string') return url;
  try {
    return new URL(url).toString();
  } catch {
    return url;
  }
}

/** Expected events must appear in this order (others may sit between), each matched partially. */
function checkEvents(
  expected: readonly Record<string, unknown>[],
  o: ObservedTurn,
  path: string,
  out: Mismatch[],
): void {
  let from = 0;
  expected.forEach((want, i) => {
    for (let j = from; j < o.events.length; j++) {
      if (matchValue(want, o.events[j], { mode: 'partial' }).length === 0) {
        from = j + 1;
        return;
      }
    }
    out.push({
      path: `${path}[${i}]`,
      reason: from === 0 ? 'no such event' : 'no such event after the previous expected one',
      expected: want,
      actual: o.events.map((e) => e.type),
    });
  });
}
